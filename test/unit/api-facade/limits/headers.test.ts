import { describe, expect, it } from 'vitest';
import { buildLimitHeaders } from '../../../../src/api-facade/limits/headers.ts';
import { OrderCountLimiter } from '../../../../src/api-facade/limits/order-count-limiter.ts';
import { RequestWeightLimiter } from '../../../../src/api-facade/limits/request-weight-limiter.ts';

const MS = 1_000;
const T0 = Date.UTC(2024, 0, 15, 12, 0, 0) * MS;
const IP = '203.0.113.7';

describe('rate-limit response headers', () => {
  it('every response carries X-MBX-USED-WEIGHT-1M and the legacy X-MBX-USED-WEIGHT, and no raw-request header', () => {
    const w = new RequestWeightLimiter();
    const c = w.charge(IP, 20, T0);
    expect(buildLimitHeaders({ weight: c.usage })).toEqual({ 'X-MBX-USED-WEIGHT-1M': '20', 'X-MBX-USED-WEIGHT': '20' });
  });

  it('a successful order response adds X-MBX-ORDER-COUNT-10S and -1D', () => {
    const w = new RequestWeightLimiter();
    const o = new OrderCountLimiter();
    const wc = w.charge(IP, 1, T0);
    const oc = o.charge('alice', 2, T0);
    expect(buildLimitHeaders({ weight: wc.usage, orderCounts: oc.counts })).toEqual({
      'X-MBX-USED-WEIGHT-1M': '1',
      'X-MBX-USED-WEIGHT': '1',
      'X-MBX-ORDER-COUNT-10S': '2',
      'X-MBX-ORDER-COUNT-1D': '2',
    });
  });

  it('429 and 418 carry Retry-After', () => {
    const w = new RequestWeightLimiter();
    w.charge(IP, 6000, T0);
    const c = w.charge(IP, 1, T0 + 15_000 * MS);
    if (c.ok) throw new Error('expected 429');
    expect(buildLimitHeaders({ weight: c.usage, retryAfterSeconds: c.retryAfterSeconds })).toEqual({
      'X-MBX-USED-WEIGHT-1M': '6001',
      'X-MBX-USED-WEIGHT': '6001',
      'Retry-After': '45',
    });
  });

  it('a -1015 refusal has no Retry-After and, built without counts, no order-count headers', () => {
    const o = new OrderCountLimiter();
    o.charge('alice', 100, T0);
    const refused = o.charge('alice', 1, T0);
    expect(refused.ok).toBe(false);
    const w = new RequestWeightLimiter();
    expect(Object.keys(buildLimitHeaders({ weight: w.charge(IP, 1, T0).usage }))).toEqual(['X-MBX-USED-WEIGHT-1M', 'X-MBX-USED-WEIGHT']);
  });

  it('the legacy header follows the 1-minute window when several weight windows are configured', () => {
    const w = new RequestWeightLimiter({
      rateLimits: [
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'SECOND', intervalNum: 10, limit: 100 },
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 1000 },
      ],
    });
    w.charge(IP, 5, T0);
    const c = w.charge(IP, 5, T0 + 10_000 * MS);
    expect(buildLimitHeaders({ weight: c.usage })).toEqual({
      'X-MBX-USED-WEIGHT-10S': '5',
      'X-MBX-USED-WEIGHT-1M': '10',
      'X-MBX-USED-WEIGHT': '10',
    });
  });
});
