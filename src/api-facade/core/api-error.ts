/**
 * The error a client receives: HTTP status, Binance `code` and `msg`, and for cancel-replace a
 * `data` body. Every refusal of the API facade is one of these; the HTTP adapter writes
 * `{"code": ..., "msg": ...}` (plus `data`) with the status.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly msg: string,
    readonly data?: unknown,
  ) {
    super(`${code} ${msg}`);
    this.name = 'ApiError';
  }

  toBody(): { code: number; msg: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, msg: this.msg } : { code: this.code, msg: this.msg, data: this.data };
  }
}
