import { describe, expect, it } from 'vitest';
import { collectRawParams } from '../../../../src/api-facade/params/raw-params.ts';
import { bad, wireError } from './wire-error.ts';

const entries = (query: string, body?: string) => Object.fromEntries(collectRawParams(query, body).values);

describe('collecting parameters from the query string and the form body', () => {
  it('merges both sources, the query string winning on a name sent in both', () => {
    const raw = collectRawParams('symbol=BTCUSDT&price=1', 'price=2&quantity=3');
    expect(Object.fromEntries(raw.values)).toEqual({ symbol: 'BTCUSDT', price: '1', quantity: '3' });
    expect(raw.sources.get('price')).toBe('query');
    expect(raw.sources.get('quantity')).toBe('body');
  });

  it('reads a body-only or a query-only request alike', () => {
    expect(entries('', 'symbol=ETHBTC&side=BUY')).toEqual({ symbol: 'ETHBTC', side: 'BUY' });
    expect(entries('symbol=ETHBTC')).toEqual({ symbol: 'ETHBTC' });
    expect(entries('')).toEqual({});
  });

  it('decodes percent-encoding and + as URLSearchParams does', () => {
    expect(entries('symbols=%5B%22BTCUSDT%22%5D&a=x+y&b=%E2%82%AC')).toEqual({ symbols: '["BTCUSDT"]', a: 'x y', b: '€' });
    expect(entries('', 'symbols=["BTCUSDT","ETHBTC"]')).toEqual({ symbols: '["BTCUSDT","ETHBTC"]' });
  });

  it('accepts a leading "?" and never throws on a malformed escape', () => {
    expect(entries('?limit=5')).toEqual({ limit: '5' });
    expect(entries('x=%E0%A4%A&y=%zz')).toEqual({ x: '\uFFFD%A', y: '%zz' });
  });

  it('counts a bare name as a parameter with an empty value', () => {
    expect(entries('BTCUSDT')).toEqual({ BTCUSDT: '' });
  });

  it('keeps names case-sensitive', () => {
    expect(entries('timeInforce=GTC&timeInForce=IOC')).toEqual({ timeInforce: 'GTC', timeInForce: 'IOC' });
  });

  it('keeps the raw strings untouched for the signature check', () => {
    const raw = collectRawParams('?symbol=%EF%BC%91&timestamp=1', 'side=BUY&signature=ab');
    expect(raw.query).toBe('symbol=%EF%BC%91&timestamp=1');
    expect(raw.body).toBe('side=BUY&signature=ab');
  });

  it('refuses a name repeated within the query string or within the body with -1101', () => {
    expect(wireError(() => collectRawParams('limit=1&limit=2'))).toEqual(bad(-1101, "Duplicate values for parameter 'limit'."));
    expect(wireError(() => collectRawParams('', 'symbols[]=A&symbols[]=B'))).toEqual(bad(-1101, "Duplicate values for parameter 'symbols[]'."));
    // Repeated even with the same value, and even when the query would win.
    expect(wireError(() => collectRawParams('side=BUY', 'side=BUY&side=BUY'))).toEqual(bad(-1101, "Duplicate values for parameter 'side'."));
  });

  it('reports the query string\'s repeated name before the body\'s', () => {
    expect(wireError(() => collectRawParams('a=1&a=2', 'b=1&b=2')).msg).toBe("Duplicate values for parameter 'a'.");
  });
});
