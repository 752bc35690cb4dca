/**
 * Shared values for the signing tests: the HMAC example key pair of the Binance REST docs
 * (binance-facts §9) and a helper that turns a thrown ApiError into its wire form.
 */
import { expect } from 'vitest';
import { ApiError } from '../../../../src/api-facade/core/api-error.ts';

/** The docs' example API key (64 alphanumerics) and secret. */
export const DOC_API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
export const DOC_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';

/** binance-facts §9 vector 1. */
export const DOC_PAYLOAD = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
export const DOC_SIGNATURE = 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71';

/** binance-facts §9 vector 2: the same order on symbol １２３４５６, percent-encoded as UTF-8. */
export const NON_ASCII_SYMBOL = '１２３４５６';
export const NON_ASCII_SYMBOL_ENCODED = '%EF%BC%91%EF%BC%92%EF%BC%93%EF%BC%94%EF%BC%95%EF%BC%96';
export const NON_ASCII_SIGNATURE = 'e1353ec6b14d888f1164ae9af8228a3dbd508bc82eb867db8ab6046442f33ef3';

/**
 * The docs' mixed query + body example: query `symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC`,
 * body `quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559`, signed over the two
 * concatenated without `&` (value computed locally with openssl).
 */
export const MIXED_QUERY = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC';
export const MIXED_BODY = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
export const MIXED_SIGNATURE = '0fd168b8ddb4876a0358a8d14d0c9f3da0e9b20c5d52b2a00fcf7d1c602f9a77';

export interface Wire {
  status: number;
  code: number;
  msg: string;
}

/** Run `fn`, expect an ApiError, and return what the client would see. */
export function rejection(fn: () => unknown): Wire {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    return { status: err.status, code: err.code, msg: err.msg };
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

export const E2014: Wire = { status: 401, code: -2014, msg: 'API-key format invalid.' };
export const E2015: Wire = { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
export const E1022: Wire = { status: 400, code: -1022, msg: 'Signature for this request is not valid.' };
export const E1102: Wire = { status: 400, code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." };
export const E1100: Wire = { status: 400, code: -1100, msg: 'Illegal characters found in a parameter.' };
export const E1101: Wire = { status: 400, code: -1101, msg: 'Duplicate values for a parameter detected.' };
