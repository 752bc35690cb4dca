/**
 * The exact answers of the real API to authentication failures (binance-facts §2.2, §9), by
 * what failed; codes, statuses and texts are rows of the one error table (exchange-errors.ts).
 * Each call returns a fresh ApiError so a caller may attach nothing to a shared instance.
 */
import { type ApiError, apiError } from '../core/index.ts';

/** -2014 BAD_API_KEY_FMT: key header missing, empty, sent twice, or not in an accepted format. */
export const badApiKeyFormat = (): ApiError => apiError('BAD_API_KEY_FORMAT');

/** -2015 REJECTED_MBX_KEY: unknown key, key without the permission, or client IP not allowed. */
export const rejectedApiKey = (): ApiError => apiError('REJECTED_API_KEY');

/** -1022 INVALID_SIGNATURE: wrong signature, or one that is not valid hex/base64 at all. */
export const invalidSignature = (): ApiError => apiError('INVALID_SIGNATURE');

/** -1102 MANDATORY_PARAM_EMPTY_OR_MALFORMED for `signature` on a SIGNED endpoint. */
export const signatureMissing = (): ApiError => apiError('MANDATORY_PARAMETER', 'signature');

/** -1100 ILLEGAL_CHARS: a raw (not percent-encoded) non-ASCII or control character in the payload. */
export const illegalChars = (): ApiError => apiError('ILLEGAL_CHARS_IN_PAYLOAD');

/** -1101 TOO_MANY_PARAMETERS, duplicate variant: `signature` twice in the same part. */
export const duplicateParameter = (): ApiError => apiError('DUPLICATE_SIGNATURE');
