import { describe, expect, it } from 'vitest';
import { OrderCountLimiter, type OrderCountCharge } from '../../../../src/api-facade/limits/order-count-limiter.ts';
import type { RateLimit } from '../../../../src/api-facade/limits/rate-limit-config.ts';

const MS = 1_000;
const S = 1_000_000;
const DAY = 86_400 * S;
/** 2024-01-15 12:00:00 UTC in µs (on a 10-second boundary). */
const T0 = Date.UTC(2024, 0, 15, 12, 0, 0) * MS;
const MIDNIGHT = Date.UTC(2024, 0, 16) * MS;

const SECOND_MSG = 'Too many new orders; current limit is 100 orders per 10 SECOND.';
const small = (second: number, day: number): RateLimit[] => [
  { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: second },
  { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: day },
];
const counts = (c: OrderCountCharge) => c.counts.map((u) => u.used);

describe('unfilled order count', () => {
  it('counts n per order: 1 for an order, 2 or 3 for lists, 0 for amend', () => {
    const l = new OrderCountLimiter();
    expect(counts(l.charge('alice', 1, T0))).toEqual([1, 1]);
    expect(counts(l.charge('alice', 2, T0))).toEqual([3, 3]);
    expect(counts(l.charge('alice', 3, T0))).toEqual([6, 6]);
    expect(counts(l.charge('alice', 0, T0))).toEqual([6, 6]);
  });

  it('is per account and shared across every IP the account uses; accounts are independent', () => {
    const l = new OrderCountLimiter();
    // The limiter has no notion of IP: orders from any IP charge the same account.
    for (let i = 0; i < 100; i++) expect(l.charge('alice', 1, T0 + i * MS).ok).toBe(true);
    expect(l.charge('alice', 1, T0 + 200 * MS).ok).toBe(false);
    expect(l.charge('bob', 1, T0 + 200 * MS).ok).toBe(true);
  });

  it('the 101st order in 10 seconds gets 429 -1015 with the exact message and no Retry-After', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 100, T0);
    const c = l.charge('alice', 1, T0 + 9_999_999);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect({ status: c.error.status, ...c.error.toBody() }).toEqual({ status: 429, code: -1015, msg: SECOND_MSG });
    expect('retryAfterSeconds' in c).toBe(false);
  });

  it('an order list that would pass the limit is refused whole', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 98, T0);
    expect(l.charge('alice', 3, T0).ok).toBe(false);
  });

  it('the 10-second window resets on the 10-second boundary; the day keeps counting', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 100, T0 + 9_999_999);
    const next = l.charge('alice', 1, T0 + 10 * S);
    expect(next.ok).toBe(true);
    expect(counts(next)).toEqual([1, 101]);
  });

  it('the day window resets at 00:00 UTC', () => {
    const l = new OrderCountLimiter({ rateLimits: small(1000, 5) });
    l.charge('alice', 5, MIDNIGHT - 1);
    expect(l.charge('alice', 1, MIDNIGHT - 1).ok).toBe(false);
    expect(counts(l.charge('alice', 1, MIDNIGHT))).toEqual([1, 1]);
  });

  it('names the limit as <limit> orders per <intervalNum> <INTERVAL>', () => {
    const l = new OrderCountLimiter({ rateLimits: small(1000, 5) });
    l.charge('alice', 5, T0);
    const c = l.charge('alice', 1, T0);
    expect(!c.ok && c.error.msg).toBe('Too many new orders; current limit is 5 orders per 1 DAY.');
  });

  it('a refused order still counts, so a client that keeps sending stays refused', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 100, T0);
    expect(counts(l.charge('alice', 1, T0))).toEqual([101, 101]);
    const strict = new OrderCountLimiter({ rejectedOrdersCount: false });
    strict.charge('alice', 100, T0);
    expect(counts(strict.charge('alice', 1, T0))).toEqual([100, 100]);
  });
});

describe('first fill decrement', () => {
  it('an order first filling lowers every interval by 1, making room for another order', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 100, T0);
    l.onFirstFill('alice', T0 + S);
    expect(l.counts('alice', T0 + S).map((u) => u.used)).toEqual([99, 99]);
    expect(l.charge('alice', 1, T0 + 2 * S).ok).toBe(true);
  });

  it('never goes below 0, and a decrement in a new window is not carried as credit', () => {
    const l = new OrderCountLimiter();
    l.onFirstFill('nobody', T0);
    expect(l.counts('nobody', T0).map((u) => u.used)).toEqual([0, 0]);
    l.charge('alice', 1, T0);
    l.onFirstFill('alice', T0, 5); // the FAQ's maker-phase example drops by more than 1
    expect(l.counts('alice', T0).map((u) => u.used)).toEqual([0, 0]);
    l.charge('alice', 3, T0 + S);
    // The order placed at T0 + 1 s fills in the next 10-second window: the current count is lowered.
    l.onFirstFill('alice', T0 + 15 * S);
    expect(l.counts('alice', T0 + 15 * S).map((u) => u.used)).toEqual([0, 2]);
    expect(counts(l.charge('alice', 1, T0 + 16 * S))).toEqual([1, 3]);
  });
});

describe('DAY exceeded', () => {
  it('once the DAY count is exceeded the SECOND count is no longer incremented', () => {
    const l = new OrderCountLimiter({ rateLimits: small(100, 5) });
    l.charge('alice', 5, T0);
    const refused = [1, 2, 3].map((i) => l.charge('alice', 1, T0 + i * MS));
    for (const c of refused) expect(!c.ok && c.error.msg).toBe('Too many new orders; current limit is 5 orders per 1 DAY.');
    // The DAY count carries the refused attempts; the SECOND count stays at the 5 accepted.
    expect(l.counts('alice', T0 + S).map((u) => u.used)).toEqual([5, 8]);
  });

  it('when only the SECOND limit is exceeded, both intervals count the refused order', () => {
    const l = new OrderCountLimiter({ rateLimits: small(2, 100) });
    l.charge('alice', 2, T0);
    expect(counts(l.charge('alice', 1, T0))).toEqual([3, 3]);
  });
});

describe('wouldExceed', () => {
  it('answers the -1015 the order would get, without counting', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 99, T0);
    expect(l.wouldExceed('alice', 1, T0)).toBeUndefined();
    expect(l.wouldExceed('alice', 2, T0)?.toBody()).toEqual({ code: -1015, msg: SECOND_MSG });
    expect(l.wouldExceed('alice', 0, T0)).toBeUndefined();
    expect(l.counts('alice', T0).map((u) => u.used)).toEqual([99, 99]);
  });
});

describe('GET /api/v3/rateLimit/order', () => {
  it('lists every ORDERS interval with its limit and the current count', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 3, T0);
    l.onFirstFill('alice', T0 + S);
    expect(l.rateLimitOrder('alice', T0 + 2 * S)).toEqual([
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 100, count: 2 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 200000, count: 2 },
    ]);
    expect(l.rateLimitOrder('alice', T0 + 10 * S).map((r) => r.count)).toEqual([0, 2]);
    expect(l.rateLimitOrder('new-account', T0).map((r) => r.count)).toEqual([0, 0]);
  });
});

describe('determinism and memory', () => {
  const script = (l: OrderCountLimiter) => {
    const out: unknown[] = [];
    for (let i = 0; i < 3000; i++) {
      const account = `acct${i % 2}`;
      const now = T0 + i * 7 * MS;
      const c = l.charge(account, 1 + (i % 3), now);
      if (i % 5 === 0) l.onFirstFill(account, now);
      out.push(c.ok ? counts(c) : [c.error.msg, counts(c)]);
    }
    return out;
  };

  it('the same calls give the same results', () => {
    const a = script(new OrderCountLimiter());
    expect(script(new OrderCountLimiter())).toEqual(a);
    expect(a.some((r) => Array.isArray(r) && typeof r[0] === 'string')).toBe(true);
  });

  it('forgetting idle accounts frees them once their day has passed', () => {
    const l = new OrderCountLimiter();
    l.charge('alice', 1, T0);
    l.forgetIdle(T0 + 10 * S);
    expect(l.trackedAccounts).toBe(1);
    l.forgetIdle(T0 + DAY);
    expect(l.trackedAccounts).toBe(0);
  });
});
