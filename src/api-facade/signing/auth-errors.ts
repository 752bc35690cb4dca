/**
 * The exact answers of the real API to authentication failures (binance-facts §2.2, §9).
 *
 * HTTP statuses: -2014 and -2015 come back as 401 (what Binance sends for key problems, and what
 * client libraries map to their authentication exceptions); -1022, -1102, -1100 and -1101 are
 * request errors, 400. Messages are copied byte for byte: some clients match on the text.
 *
 * Each call returns a fresh ApiError so a caller may attach nothing to a shared instance; the
 * messages themselves are constants.
 */
import { ApiError } from '../api-error.ts';

export const MSG_BAD_API_KEY_FORMAT = 'API-key format invalid.';
export const MSG_REJECTED_API_KEY = 'Invalid API-key, IP, or permissions for action.';
export const MSG_INVALID_SIGNATURE = 'Signature for this request is not valid.';
export const MSG_SIGNATURE_MISSING = "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.";
export const MSG_ILLEGAL_CHARS = 'Illegal characters found in a parameter.';
export const MSG_DUPLICATE_PARAMETER = 'Duplicate values for a parameter detected.';

/** -2014 BAD_API_KEY_FMT: key header missing, empty, sent twice, or not in an accepted format. */
export const badApiKeyFormat = (): ApiError => new ApiError(401, -2014, MSG_BAD_API_KEY_FORMAT);

/** -2015 REJECTED_MBX_KEY: unknown key, key without the permission, or client IP not allowed. */
export const rejectedApiKey = (): ApiError => new ApiError(401, -2015, MSG_REJECTED_API_KEY);

/** -1022 INVALID_SIGNATURE: wrong signature, or one that is not valid hex/base64 at all. */
export const invalidSignature = (): ApiError => new ApiError(400, -1022, MSG_INVALID_SIGNATURE);

/** -1102 MANDATORY_PARAM_EMPTY_OR_MALFORMED for `signature` on a SIGNED endpoint. */
export const signatureMissing = (): ApiError => new ApiError(400, -1102, MSG_SIGNATURE_MISSING);

/** -1100 ILLEGAL_CHARS: a raw (not percent-encoded) non-ASCII or control character in the payload. */
export const illegalChars = (): ApiError => new ApiError(400, -1100, MSG_ILLEGAL_CHARS);

/** -1101 TOO_MANY_PARAMETERS, duplicate variant: `signature` twice in the same part. */
export const duplicateParameter = (): ApiError => new ApiError(400, -1101, MSG_DUPLICATE_PARAMETER);
