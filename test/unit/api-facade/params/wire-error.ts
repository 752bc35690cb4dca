/** Test helper: runs `fn` and returns the wire form of the ApiError it throws. */
import { ApiError } from '../../../../src/api-facade/core/api-error.ts';

export interface Wire {
  status: number;
  code: number;
  msg: string;
}

export function wireError(fn: () => unknown): Wire {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, msg: e.msg };
    throw e;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

/** The wire form of a parameter error: always HTTP 400. */
export const bad = (code: number, msg: string): Wire => ({ status: 400, code, msg });
