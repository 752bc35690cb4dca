/**
 * GET /sapi/v1/pay/transactions (USER_DATA, signed; request weight 3000 per user id, plus
 * IP weight 1 like every request here): the account's payment history (account-services/pay-ledger.ts), newest first.
 *
 * Window rules (spec): neither startTime nor endTime: the last 90 days up to now; startTime only:
 * 90 days from it (not past now); endTime only: the 90 days up to it; both: at most 90 days apart
 * (-1127 "More than 2160 hours between startTime and endTime."). Only the last 18 months can be
 * queried: a startTime before now − 18 calendar months is -1130 for startTime, and so is a
 * startTime after endTime (codes not shown in the docs; the generic ones). limit default 100,
 * max 100 (-1130 beyond). Answer: {code "000000", message "success", data [...], success true}.
 */
import { MICROS_PER_DAY, MICROS_PER_MILLI } from '../../../clock/index.ts';
import { paramErrors, defineSchema, withSigned } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { accountOf, spanTooLong } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';
import { END_TIME, LIMIT, futuresLimit, START_TIME, timeUs } from '../futures/futures-common.ts';

const WINDOW_US = 90 * MICROS_PER_DAY;
const WINDOW_HOURS = 90 * 24;

/** now − 18 calendar months (µs). */
export function horizonStart(now: number): number {
  const d = new Date(Math.floor(now / MICROS_PER_MILLI));
  const ms = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 18, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  return ms * MICROS_PER_MILLI + (now % MICROS_PER_MILLI);
}

export const payTransactions = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/pay/transactions',
  security: 'USER_DATA',
  weight: 1,
  keyedLimit: { name: 'uidWeight', weight: 3_000 },
  schema: defineSchema(withSigned([START_TIME, END_TIME, LIMIT])),
  envelopeErrors: true,
  summary: 'Payment history: 90-day windows within the last 18 months, newest first',
  handler: (p, call) => {
    const limit = futuresLimit(p.limit, 100, 100);
    const now = call.nowUs;
    const start = p.startTime === undefined ? undefined : timeUs(p.startTime);
    const end = p.endTime === undefined ? undefined : timeUs(p.endTime);
    if (start !== undefined && end !== undefined) {
      if (start > end) throw paramErrors.invalidData('startTime');
      if (end - start > WINDOW_US) throw spanTooLong(WINDOW_HOURS);
    }
    const from = start ?? (end === undefined ? now - WINDOW_US : end - WINDOW_US);
    const to = end ?? (start === undefined ? now : Math.min(start + WINDOW_US, now));
    const horizon = horizonStart(now);
    if (start !== undefined && start < horizon) throw paramErrors.invalidData('startTime');
    const rows = call.ctx.pay.transactions(accountOf(call), Math.max(from, horizon), to, limit);
    return { code: '000000', message: 'success', data: rows.map((r) => ({ ...r, transactionTime: apiTime(r.transactionTime, call.unit) })), success: true };
  },
});
