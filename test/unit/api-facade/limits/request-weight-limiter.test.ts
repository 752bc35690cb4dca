import { describe, expect, it } from 'vitest';
import { RequestWeightLimiter, type WeightCharge } from '../../../../src/api-facade/limits/request-weight-limiter.ts';

const MS = 1_000;
const S = 1_000_000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** 2024-01-15 12:00:00 UTC in µs (on a 5-minute boundary). */
const T0 = Date.UTC(2024, 0, 15, 12, 0, 0) * MS;
const IP = '203.0.113.7';

const WEIGHT_MSG =
  'Too much request weight used; current limit is 6000 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.';
const banMsg = (untilMs: number) =>
  `Way too much request weight used; IP banned until ${untilMs}. Please use WebSocket Streams for live updates to avoid bans.`;

/** Used weight of the 1-minute window in a charge result. */
const used1m = (c: WeightCharge) => c.usage.find((u) => u.limit.rateLimitType === 'REQUEST_WEIGHT')?.used;
const wire = (c: WeightCharge) =>
  c.ok ? { ok: true } : { status: c.error.status, ...c.error.toBody(), retryAfter: c.retryAfterSeconds };

/** Fills the minute of `now`, then keeps sending weight 1 until banned; returns the 418 and when it came. */
function offendUntilBanned(l: RequestWeightLimiter, ip: string, now: number): WeightCharge {
  l.charge(ip, 6000, now);
  for (let i = 0; i < 100; i++) {
    const c = l.charge(ip, 1, now);
    if (!c.ok && c.error.status === 418) return c;
  }
  throw new Error('never banned');
}

describe('request weight windows', () => {
  it('a request at 59.999 s is in the old minute, one at 60.000 s starts a new one', () => {
    const l = new RequestWeightLimiter();
    expect(l.charge(IP, 6000, T0).ok).toBe(true);
    const late = l.charge(IP, 1, T0 + 59_999 * MS);
    expect(late.ok).toBe(false);
    const next = l.charge(IP, 1, T0 + 60_000 * MS);
    expect(next.ok).toBe(true);
    expect(used1m(next)).toBe(1);
  });

  it('windows are fixed, not sliding: 6000 at 59.999 s and 6000 at 60.000 s both pass', () => {
    const l = new RequestWeightLimiter();
    expect(l.charge(IP, 6000, T0 + 59_999 * MS).ok).toBe(true);
    expect(l.charge(IP, 6000, T0 + 60_000 * MS).ok).toBe(true);
  });

  it('reports the used weight of every request, counted per IP', () => {
    const l = new RequestWeightLimiter();
    expect(used1m(l.charge(IP, 20, T0))).toBe(20);
    expect(used1m(l.charge(IP, 4, T0 + S))).toBe(24);
    expect(used1m(l.charge('198.51.100.1', 2, T0 + S))).toBe(2);
    expect(l.usage(IP, T0 + 2 * S).map((u) => [u.limit.rateLimitType, u.used])).toEqual([
      ['REQUEST_WEIGHT', 24],
      ['RAW_REQUESTS', 2],
    ]);
    expect(l.usage('192.0.2.99', T0).map((u) => u.used)).toEqual([0, 0]);
  });

  it('refuses a time in a window before the one already counted (simulated time never runs back)', () => {
    const l = new RequestWeightLimiter();
    l.charge(IP, 1, T0 + MIN);
    expect(() => l.charge(IP, 1, T0)).toThrow(RangeError);
  });
});

describe('the 6000-weight limit', () => {
  it('allows exactly 6000 and answers the next request 429 -1003 with the exact message', () => {
    const l = new RequestWeightLimiter();
    expect(l.charge(IP, 5999, T0).ok).toBe(true);
    expect(l.charge(IP, 1, T0).ok).toBe(true);
    expect(wire(l.charge(IP, 1, T0 + 30_500 * MS))).toEqual({ status: 429, code: -1003, msg: WEIGHT_MSG, retryAfter: 30 });
  });

  it('Retry-After is the whole seconds, rounded up, until the minute resets', () => {
    const l = new RequestWeightLimiter();
    l.charge(IP, 6000, T0);
    const c = l.charge(IP, 1, T0 + 59_999 * MS);
    expect(!c.ok && c.retryAfterSeconds).toBe(1);
  });

  it("a 429'd request's weight still counts, so the used weight climbs past the limit", () => {
    const l = new RequestWeightLimiter();
    l.charge(IP, 5990, T0);
    const c = l.charge(IP, 40, T0);
    expect(c.ok).toBe(false);
    expect(used1m(c)).toBe(6030);
    // Now even a weight-1 request is over.
    expect(l.charge(IP, 1, T0).ok).toBe(false);
  });

  it('an over-limit RAW_REQUESTS window is refused with 429 too', () => {
    const l = new RequestWeightLimiter({
      rateLimits: [{ rateLimitType: 'RAW_REQUESTS', interval: 'MINUTE', intervalNum: 5, limit: 2 }],
    });
    expect(l.charge(IP, 0, T0).ok).toBe(true);
    expect(l.charge(IP, 0, T0 + MIN).ok).toBe(true);
    expect(wire(l.charge(IP, 0, T0 + 2 * MIN))).toEqual({
      status: 429,
      code: -1003,
      msg: 'Too many requests; current limit is 2 requests per 5 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
      retryAfter: 180,
    });
  });

  it('adds weight learned after handling (a failed order) without refusing', () => {
    const l = new RequestWeightLimiter();
    l.charge(IP, 0, T0);
    expect(l.addWeight(IP, 6001, T0)[0]?.used).toBe(6001);
    expect(l.charge(IP, 0, T0).ok).toBe(false);
  });
});

describe('418 bans', () => {
  it('an IP that keeps sending after 429 is banned for 2 minutes with the exact message', () => {
    const l = new RequestWeightLimiter();
    l.charge(IP, 6000, T0);
    const statuses = [1, 2, 3, 4].map(() => {
      const c = l.charge(IP, 1, T0 + 10 * S);
      return c.ok ? 200 : c.error.status;
    });
    expect(statuses).toEqual([429, 429, 429, 418]);
    const banned = l.charge(IP, 1, T0 + 10 * S);
    const untilUs = T0 + 10 * S + 2 * MIN;
    expect(wire(banned)).toEqual({ status: 418, code: -1003, msg: banMsg(untilUs / MS), retryAfter: 120 });
    expect(l.bannedUntil(IP, T0 + 11 * S)).toBe(untilUs);
  });

  it('a request during the ban gets 418 with Retry-After until the ban ends, and counts nothing', () => {
    const l = new RequestWeightLimiter();
    const ban = offendUntilBanned(l, IP, T0);
    const untilUs = T0 + 2 * MIN;
    const during = l.charge(IP, 50, T0 + 61 * S);
    expect(wire(during)).toEqual({ status: 418, code: -1003, msg: banMsg(untilUs / MS), retryAfter: 59 });
    expect(used1m(during)).toBe(0);
    expect(ban.ok).toBe(false);
  });

  it('the ban expires at its end time: the next request passes', () => {
    const l = new RequestWeightLimiter();
    offendUntilBanned(l, IP, T0);
    expect(l.charge(IP, 1, T0 + 2 * MIN - 1).ok).toBe(false);
    expect(l.charge(IP, 1, T0 + 2 * MIN).ok).toBe(true);
    expect(l.bannedUntil(IP, T0 + 2 * MIN)).toBeUndefined();
  });

  it('an IP that waits out Retry-After after a 429 is not banned', () => {
    const l = new RequestWeightLimiter();
    for (let minute = 0; minute < 10; minute++) {
      const t = T0 + minute * MIN;
      expect(l.charge(IP, 6000, t).ok).toBe(true);
      expect(l.charge(IP, 1, t).ok).toBe(false);
      // Next request only after the reset: each minute's single 429 is a fresh episode.
    }
    expect(l.bannedUntil(IP, T0 + 10 * MIN)).toBeUndefined();
  });

  it('bans escalate for repeat offenders from 2 minutes up to 3 days, then stay at 3 days', () => {
    const l = new RequestWeightLimiter();
    const lengths: number[] = [];
    let now = T0;
    for (let i = 0; i < 8; i++) {
      offendUntilBanned(l, IP, now);
      const until = l.bannedUntil(IP, now);
      if (until === undefined) throw new Error('not banned');
      lengths.push(until - now);
      now = until;
    }
    expect(lengths).toEqual([2 * MIN, 10 * MIN, HOUR, 6 * HOUR, DAY, 3 * DAY, 3 * DAY, 3 * DAY]);
  });

  it('the offence record decays one step per clean day after the last ban', () => {
    const l = new RequestWeightLimiter();
    let now = T0;
    for (let i = 0; i < 6; i++) {
      offendUntilBanned(l, IP, now);
      now = l.bannedUntil(IP, now) ?? now;
    }
    // Six strikes (last ban 3 days); two clean days forgive two: the next ban is the 5th step, 1 day.
    const later = now + 2 * DAY;
    offendUntilBanned(l, IP, later);
    expect(l.bannedUntil(IP, later)).toBe(later + DAY);
    // After six clean days past that ban everything is forgiven: back to 2 minutes.
    const much = later + DAY + 6 * DAY;
    offendUntilBanned(l, IP, much);
    expect(l.bannedUntil(IP, much)).toBe(much + 2 * MIN);
  });

  it('the ban allowance and ladder are configurable', () => {
    const l = new RequestWeightLimiter({ rejectionsBeforeBan: 0, banLadderUs: [5 * S] });
    l.charge(IP, 6000, T0);
    const c = l.charge(IP, 1, T0);
    expect(!c.ok && c.error.status).toBe(418);
    expect(l.bannedUntil(IP, T0)).toBe(T0 + 5 * S);
  });

  it('bans one IP without touching another', () => {
    const l = new RequestWeightLimiter();
    offendUntilBanned(l, IP, T0);
    expect(l.charge('198.51.100.1', 1, T0).ok).toBe(true);
  });
});

describe('determinism and memory', () => {
  const script = (l: RequestWeightLimiter) => {
    const out: unknown[] = [];
    for (let i = 0; i < 400; i++) {
      const ip = `10.0.0.${i % 3}`;
      const c = l.charge(ip, (i * 37) % 900, T0 + i * 250 * MS);
      out.push(c.ok ? ['ok', c.usage.map((u) => u.used)] : [c.error.status, c.error.msg, c.retryAfterSeconds, c.usage.map((u) => u.used)]);
    }
    return out;
  };

  it('the same calls give the same results', () => {
    const a = script(new RequestWeightLimiter());
    expect(script(new RequestWeightLimiter())).toEqual(a);
    expect(a.some((r) => Array.isArray(r) && r[0] === 418)).toBe(true);
  });

  it('forgetting idle IPs frees them and changes no answer', () => {
    const l = new RequestWeightLimiter();
    l.charge(IP, 10, T0);
    offendUntilBanned(l, 'ban.me', T0);
    l.forgetIdle(T0 + MIN);
    expect(l.trackedIps).toBe(2); // the 5-minute raw window of IP is still live; ban.me is banned
    l.forgetIdle(T0 + 5 * MIN);
    expect(l.trackedIps).toBe(1); // ban.me keeps its strike for a day after the ban
    l.forgetIdle(T0 + 2 * MIN + DAY);
    expect(l.trackedIps).toBe(0);
  });
});
