/**
 * The algo book's trigger table (futures facts §3.2), -2021 at placement, trailing, the 200 cap
 * and the live set (what prices and fills can still move).
 */
import { describe, expect, test } from 'vitest';
import { AlgoOrderBook, deviationPpm, MAX_OPEN_ALGO_ORDERS, protectPpm, type AlgoRequest } from '../../../../src/futures/trading/algo-orders.ts';

const base: AlgoRequest = {
  accountId: 1,
  symbol: 'um:XUSDT',
  side: 'BUY',
  positionSide: 'BOTH',
  type: 'STOP_MARKET',
  timeInForce: 'GTC',
  quantity: 1,
  price: 0,
  triggerPrice: 100,
  workingType: 'CONTRACT_PRICE',
  priceProtect: false,
  reduceOnly: false,
  closePosition: false,
  activatePrice: 0,
  callbackRate: '',
  selfTradePreventionMode: 'NONE',
};

describe('triggers', () => {
  const cases: [AlgoRequest['type'], 'BUY' | 'SELL', number, number, boolean][] = [
    ['STOP_MARKET', 'BUY', 100, 100, true],
    ['STOP_MARKET', 'BUY', 100, 99, false],
    ['STOP', 'SELL', 100, 100, true],
    ['STOP', 'SELL', 100, 101, false],
    ['TAKE_PROFIT_MARKET', 'BUY', 100, 100, true],
    ['TAKE_PROFIT_MARKET', 'BUY', 100, 101, false],
    ['TAKE_PROFIT', 'SELL', 100, 100, true],
    ['TAKE_PROFIT', 'SELL', 100, 99, false],
  ];
  test.each(cases)('%s %s trigger %i at %i fires: %s', (type, side, trigger, price, fires) => {
    const book = new AlgoOrderBook();
    const placed = book.place({ ...base, type, side, triggerPrice: trigger }, 1, undefined);
    expect(typeof placed).toBe('object');
    expect(book.onPrice('um:XUSDT', 'CONTRACT_PRICE', price, 2).length).toBe(fires ? 1 : 0);
    // Another kind of price or another symbol never moves it.
    expect(book.onPrice('um:XUSDT', 'MARK_PRICE', price, 3)).toEqual([]);
  });

  test('an order that would fire at the watched price is refused', () => {
    const book = new AlgoOrderBook();
    expect(book.place({ ...base, side: 'BUY', triggerPrice: 100 }, 1, 100)).toBe('WOULD_IMMEDIATELY_TRIGGER');
    expect(book.place({ ...base, type: 'TRAILING_STOP_MARKET', side: 'SELL', triggerPrice: 0, activatePrice: 90, callbackRate: '1' }, 1, 100)).toBe('WOULD_IMMEDIATELY_TRIGGER');
    expect(book.hasLive).toBe(false);
  });

  test('trailing BUY: the low since placement, then price ≥ low × (1 + cb)', () => {
    const book = new AlgoOrderBook();
    book.place({ ...base, type: 'TRAILING_STOP_MARKET', triggerPrice: 0, activatePrice: 0, callbackRate: '2' }, 1, 1000);
    expect(book.onPrice('um:XUSDT', 'CONTRACT_PRICE', 900, 2)).toEqual([]); // low 900
    expect(book.onPrice('um:XUSDT', 'CONTRACT_PRICE', 917, 3)).toEqual([]); // < 918
    const fired = book.onPrice('um:XUSDT', 'CONTRACT_PRICE', 918, 4);
    expect(fired.map((o) => [o.status, o.triggerTime])).toEqual([['TRIGGERING', 4]]);
  });

  test('200 open per account; cancel and finish leave the live set', () => {
    const book = new AlgoOrderBook();
    for (let i = 0; i < MAX_OPEN_ALGO_ORDERS; i++) expect(typeof book.place(base, 1, undefined)).toBe('object');
    expect(book.place(base, 1, undefined)).toBe('TOO_MANY_ALGO_ORDERS');
    expect(typeof book.place({ ...base, accountId: 2 }, 1, undefined)).toBe('object');
    for (const o of book.ordersOf(1)) book.cancel(1, o.algoId, 5);
    const [fired] = book.onPrice('um:XUSDT', 'CONTRACT_PRICE', 100, 6);
    expect(fired!.accountId).toBe(2);
    book.triggered(fired!.algoId, 7, 6);
    expect(book.byEngineOrder('um:XUSDT', 7)?.algoId).toBe(fired!.algoId);
    book.finished(fired!.algoId, 8);
    expect(book.hasLive).toBe(false);
    expect(book.find(2, { algoId: fired!.algoId })?.status).toBe('FINISHED');
  });
});

describe('priceProtect', () => {
  test('triggerProtect and the deviation in ppm, exact at price units of 1e13', () => {
    expect(protectPpm('0.15')).toBe(150_000);
    expect(protectPpm('0.0500')).toBe(50_000);
    expect(protectPpm('1')).toBe(1_000_000);
    // mark 60 000, last 49 990 at 8 decimals: 10 010 / 60 000 = 0.166833… → 166 834 ppm (rounded up).
    expect(deviationPpm(6_000_000_000_000, 4_999_000_000_000)).toBe(166_834);
    expect(deviationPpm(5_000_000_000_000, 5_000_000_000_000)).toBe(0);
  });

  test('a protected order waits while mark and last stand further apart than triggerProtect, then fires; an unprotected one fires at once', () => {
    const book = new AlgoOrderBook();
    const wide = { deviationPpm: 150_001, limitPpm: 150_000 };
    const within = { deviationPpm: 150_000, limitPpm: 150_000 };
    const guarded = book.place({ ...base, priceProtect: true, workingType: 'MARK_PRICE' }, 1, undefined);
    const plain = book.place({ ...base, priceProtect: false, workingType: 'MARK_PRICE' }, 1, undefined);
    if (typeof guarded === 'string' || typeof plain === 'string') throw new Error('placement refused');
    expect(book.onPrice('um:XUSDT', 'MARK_PRICE', 120, 2, wide).map((o) => o.algoId)).toEqual([plain.algoId]);
    expect(guarded.status).toBe('NEW');
    expect(book.onPrice('um:XUSDT', 'MARK_PRICE', 110, 3, within).map((o) => o.algoId)).toEqual([guarded.algoId]);
    expect(guarded.triggerTime).toBe(3);
  });
});
