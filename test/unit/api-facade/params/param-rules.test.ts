import { describe, expect, it } from 'vitest';
import { allOrNone, bothOrNeither, eitherRequired, exclusive, invalidWhen, notAllowedWhen, requiredWhen } from '../../../../src/api-facade/params/param-rules.ts';
import type { ParamRule } from '../../../../src/api-facade/params/param-rules.ts';
import { bad, wireError } from './wire-error.ts';

const passes = (rule: ParamRule, values: Record<string, unknown>) => expect(() => rule(values)).not.toThrow();
const fails = (rule: ParamRule, values: Record<string, unknown>) => wireError(() => rule(values));

describe('cross-parameter rules', () => {
  it('exclusive: at most one of the names, else -1128', () => {
    const rule = exclusive('symbol', 'symbols', 'symbolStatus');
    passes(rule, {});
    passes(rule, { symbols: ['BTCUSDT'] });
    expect(fails(rule, { symbol: 'BTCUSDT', symbols: ['ETHBTC'] })).toEqual(bad(-1128, 'Combination of optional parameters invalid.'));
  });

  it('bothOrNeither: a pair sent in part is -1128 with the recommendation text', () => {
    const rule = bothOrNeither('pegOffsetType', 'pegOffsetValue');
    passes(rule, {});
    passes(rule, { pegOffsetType: 'PRICE_LEVEL', pegOffsetValue: 1 });
    expect(fails(rule, { pegOffsetValue: 1 })).toEqual(
      bad(-1128, "Combination of optional fields invalid. Recommendation: 'pegOffsetType' and 'pegOffsetValue' must both be sent."),
    );
  });

  it('allOrNone: a group sent in part is -1128 with the field list', () => {
    const rule = allOrNone('a', 'b', 'c');
    passes(rule, {});
    passes(rule, { a: 1, b: 2, c: 3 });
    expect(fails(rule, { a: 1, c: 3 })).toEqual(bad(-1128, 'Fields [a, b, c] must be sent together or omitted entirely.'));
  });

  it('eitherRequired: neither of a pair is -1102 naming both', () => {
    const rule = eitherRequired('orderId', 'origClientOrderId');
    passes(rule, { orderId: 1 });
    passes(rule, { origClientOrderId: 'x' });
    expect(fails(rule, {})).toEqual(bad(-1102, "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!"));
  });

  it('requiredWhen: a conditionally mandatory parameter missing is -1102', () => {
    const rule = requiredWhen('stopPrice', (p) => p['type'] === 'STOP_LOSS');
    passes(rule, { type: 'LIMIT' });
    passes(rule, { type: 'STOP_LOSS', stopPrice: 1 });
    expect(fails(rule, { type: 'STOP_LOSS' })).toEqual(bad(-1102, "Mandatory parameter 'stopPrice' was not sent, was empty/null, or malformed."));
  });

  it('notAllowedWhen: an unwelcome parameter is -1106', () => {
    const rule = notAllowedWhen('timeInForce', (p) => p['type'] === 'MARKET');
    passes(rule, { type: 'MARKET' });
    passes(rule, { type: 'LIMIT', timeInForce: 'GTC' });
    expect(fails(rule, { type: 'MARKET', timeInForce: 'GTC' })).toEqual(bad(-1106, "Parameter 'timeInForce' sent when not required."));
  });

  it('invalidWhen: any other bad combination is plain -1128', () => {
    const rule = invalidWhen((p) => p['fromId'] !== undefined && p['startTime'] !== undefined);
    passes(rule, { fromId: 1 });
    expect(fails(rule, { fromId: 1, startTime: 2 })).toEqual(bad(-1128, 'Combination of optional parameters invalid.'));
  });
});
