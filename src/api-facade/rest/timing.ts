/**
 * The `timestamp` / `recvWindow` check of SIGNED requests, on SIMULATED time (binance-facts §9).
 *
 * Rules, with t = the client's timestamp mapped to simulated µs (see ClientTimeRule) and
 * now = the backend's simulated time:
 * - t before 2017-01-01T00:00:00Z, or more than 10 s ahead of now → -1021 (since 2024-12-12 such
 *   timestamps are refused outright; which of the two texts Binance sends is not documented: the
 *   "ahead" text for the future, the recvWindow text for the past).
 * - t >= now + 1000 ms → -1021 "Timestamp for this request was 1000ms ahead of the server's time."
 * - now - t > recvWindow (default 5000 ms) → -1021 "Timestamp for this request is outside of the
 *   recvWindow."
 * Both answers are HTTP 400. The recvWindow part runs twice for order endpoints: once after the
 * signature, once just before the command reaches the engine (`recheck`).
 */
import { type ApiError, apiError } from '../core/index.ts';

export const DEFAULT_RECV_WINDOW_US = 5_000_000;
/** 2017-01-01T00:00:00Z in µs: the earliest timestamp accepted. */
export const EARLIEST_TIMESTAMP_US = 1_483_228_800_000_000;
const AHEAD_LIMIT_US = 1_000_000;
const FAR_FUTURE_US = 10_000_000;

const outside = (): ApiError => apiError('TIMESTAMP_OUTSIDE_RECV_WINDOW');
const ahead = (): ApiError => apiError('TIMESTAMP_AHEAD_OF_SERVER');

/** Throws -1021 unless `timestampUs` is acceptable at `nowUs` with `recvWindowUs`. */
export function checkTimestamp(timestampUs: number, recvWindowUs: number, nowUs: number): void {
  if (timestampUs < EARLIEST_TIMESTAMP_US) throw outside();
  if (timestampUs > nowUs + FAR_FUTURE_US) throw ahead();
  if (timestampUs >= nowUs + AHEAD_LIMIT_US) throw ahead();
  if (nowUs - timestampUs > recvWindowUs) throw outside();
}

/** The second check, just before the engine: only the recvWindow part (time may have moved on). */
export function recheckRecvWindow(timestampUs: number, recvWindowUs: number, nowUs: number): void {
  if (nowUs - timestampUs > recvWindowUs) throw outside();
}
