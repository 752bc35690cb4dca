import { describe, expect, it } from 'vitest';
import type { EngineConfig, SymbolFilter } from '../../../../src/engine/symbol-config.ts';
import { Sim, expectRejectedWithoutChange, lotSize, priceFilter, rejectionOf, symbolConfig, type PlaceArgs } from '../helpers.ts';

/** A sim on BTCUSDT with the given extra filters, account 1 rich in both assets. */
function filterSim(filters: readonly SymbolFilter[], config: Partial<EngineConfig> = {}): Sim {
  const sim = new Sim({ symbols: [symbolConfig({}, filters)], ...config });
  sim.createAccount(1, { USDT: '10000000', BTC: '10000' });
  sim.createAccount(2, { USDT: '10000000', BTC: '10000' });
  return sim;
}

function accepted(sim: Sim, args: PlaceArgs, accountId = 1): void {
  const r = sim.place(accountId, args);
  expect(r.rejected?.reason).toBeUndefined();
  expect(r.accepted).toBeDefined();
}

function refused(sim: Sim, args: PlaceArgs, reason: Parameters<typeof expectRejectedWithoutChange>[2], accountId = 1): void {
  expectRejectedWithoutChange(sim, sim.placeCommand(accountId, args), reason);
}

/** Two accounts trade `quantity` at `price` (account 2 rests, account 1 takes). */
function trade(sim: Sim, quantity: string, price: string): void {
  sim.sell(2, quantity, price);
  expect(sim.buy(1, quantity, price).trades).toHaveLength(1);
}

describe('PRICE_FILTER', () => {
  const sim = () => filterSim([priceFilter('1', '1000', '0.01')]);

  it('below minPrice fails', () => refused(sim(), { side: 'BUY', price: '0.99', qty: '1' }, 'FILTER_PRICE_FILTER'));
  it('at minPrice passes', () => accepted(sim(), { side: 'BUY', price: '1', qty: '1' }));
  it('above maxPrice fails', () => refused(sim(), { side: 'SELL', price: '1000.01', qty: '1' }, 'FILTER_PRICE_FILTER'));
  it('at maxPrice passes', () => accepted(sim(), { side: 'SELL', price: '1000', qty: '1' }));
  it('off the tick fails', () => refused(sim(), { side: 'BUY', price: '100.005', qty: '1' }, 'FILTER_PRICE_FILTER'));
  it('a zero minPrice/maxPrice disables that bound', () => {
    const s = filterSim([priceFilter('0', '0', '0.01')]);
    accepted(s, { side: 'BUY', price: '0.01', qty: '1' });
    accepted(s, { side: 'SELL', price: '999999.99', qty: '1' });
    refused(s, { side: 'BUY', price: '0.015', qty: '1' }, 'FILTER_PRICE_FILTER');
  });
  it('does not apply to MARKET orders (no price)', () => {
    const s = sim();
    s.sell(2, '1', '500');
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '1' });
  });
});

describe('LOT_SIZE', () => {
  const sim = () => filterSim([lotSize('0.01', '100', '0.01')]);

  it('below minQty fails', () => refused(sim(), { side: 'BUY', price: '10', qty: '0.009' }, 'FILTER_LOT_SIZE'));
  it('at minQty passes', () => accepted(sim(), { side: 'BUY', price: '10', qty: '0.01' }));
  it('above maxQty fails', () => refused(sim(), { side: 'SELL', price: '10', qty: '100.01' }, 'FILTER_LOT_SIZE'));
  it('at maxQty passes', () => accepted(sim(), { side: 'SELL', price: '10', qty: '100' }));
  it('off the step fails', () => refused(sim(), { side: 'BUY', price: '10', qty: '1.005' }, 'FILTER_LOT_SIZE'));
  it('applies to MARKET orders too', () => refused(sim(), { side: 'BUY', type: 'MARKET', qty: '0.005' }, 'FILTER_LOT_SIZE'));
});

describe('MARKET_LOT_SIZE', () => {
  const sim = () => filterSim([{ filterType: 'MARKET_LOT_SIZE', minQty: '0.1', maxQty: '5', stepSize: '0.01' }]);

  it('a MARKET quantity below its minQty fails', () => refused(sim(), { side: 'SELL', type: 'MARKET', qty: '0.09' }, 'FILTER_MARKET_LOT_SIZE'));
  it('a MARKET quantity above its maxQty fails', () => refused(sim(), { side: 'SELL', type: 'MARKET', qty: '5.01' }, 'FILTER_MARKET_LOT_SIZE'));
  it('a MARKET quantity off its step fails', () => refused(sim(), { side: 'SELL', type: 'MARKET', qty: '1.005' }, 'FILTER_MARKET_LOT_SIZE'));
  it('a MARKET quantity inside passes', () => accepted(sim(), { side: 'SELL', type: 'MARKET', qty: '5' }));
  it('LIMIT orders ignore it', () => accepted(sim(), { side: 'SELL', price: '10', qty: '50.005' }));
});

describe('PERCENT_PRICE', () => {
  const rule: SymbolFilter = { filterType: 'PERCENT_PRICE', multiplierUp: '1.3', multiplierDown: '0.7', avgPriceMins: 5 };

  it('without any reference (never traded, no reference price) it does not restrict', () => {
    const s = filterSim([rule]);
    accepted(s, { side: 'BUY', price: '0.01', qty: '1' });
    accepted(s, { side: 'SELL', price: '900000', qty: '1' });
  });

  it('with a reference price: ref * multiplierDown <= price <= ref * multiplierUp, bounds inclusive', () => {
    const s = filterSim([rule]);
    s.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: 100_00000000 });
    accepted(s, { side: 'BUY', price: '70', qty: '1' });
    accepted(s, { side: 'SELL', price: '130', qty: '1' });
    refused(s, { side: 'BUY', price: '69.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
    refused(s, { side: 'SELL', price: '130.01', qty: '1' }, 'FILTER_PERCENT_PRICE');
    // Both sides use the same band.
    refused(s, { side: 'BUY', price: '130.01', qty: '1' }, 'FILTER_PERCENT_PRICE');
    refused(s, { side: 'SELL', price: '69.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
  });

  it('uses the VWAP of the trades in the last avgPriceMins minutes', () => {
    const s = filterSim([rule]);
    trade(s, '1', '100');
    trade(s, '3', '120'); // VWAP (100 + 360) / 4 = 115 -> band [80.5, 149.5]
    accepted(s, { side: 'SELL', price: '149.5', qty: '1' });
    refused(s, { side: 'SELL', price: '149.51', qty: '1' }, 'FILTER_PERCENT_PRICE');
    accepted(s, { side: 'BUY', price: '80.5', qty: '1' });
    refused(s, { side: 'BUY', price: '80.49', qty: '1' }, 'FILTER_PERCENT_PRICE');
  });

  it('falls back to the last trade price when no trade is in the window', () => {
    const s = filterSim([rule]);
    trade(s, '1', '100');
    trade(s, '3', '120');
    s.advanceMinutes(5); // both trades are now older than 5 minutes -> ref = last price 120 -> [84, 156]
    accepted(s, { side: 'SELL', price: '156', qty: '1' });
    refused(s, { side: 'SELL', price: '156.01', qty: '1' }, 'FILTER_PERCENT_PRICE');
    refused(s, { side: 'BUY', price: '83.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
  });

  it('drops trades that left the window and keeps the ones inside it', () => {
    const s = filterSim([{ ...rule, multiplierUp: '3', multiplierDown: '0.5' }]);
    trade(s, '1', '100');
    s.advanceMinutes(3);
    trade(s, '1', '200'); // VWAP now 150 -> [75, 450]
    refused(s, { side: 'BUY', price: '74.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
    s.advanceMinutes(2.5); // the trade at 100 left the window; VWAP 200 -> [100, 600]
    accepted(s, { side: 'SELL', price: '600', qty: '1' });
    refused(s, { side: 'SELL', price: '600.01', qty: '1' }, 'FILTER_PERCENT_PRICE');
    refused(s, { side: 'BUY', price: '99.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
  });

  it('an explicit reference price wins over the VWAP, and clearing it returns to the VWAP', () => {
    const s = filterSim([rule]);
    trade(s, '1', '100');
    s.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: 1000_00000000 });
    accepted(s, { side: 'SELL', price: '1300', qty: '1' });
    refused(s, { side: 'BUY', price: '699.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
    s.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: null });
    refused(s, { side: 'SELL', price: '130.01', qty: '1' }, 'FILTER_PERCENT_PRICE');
    accepted(s, { side: 'SELL', price: '130', qty: '1' });
  });

  it('avgPriceMins 0 means the last trade price', () => {
    const s = filterSim([{ ...rule, multiplierUp: '3', avgPriceMins: 0 }]);
    trade(s, '3', '100');
    trade(s, '1', '200'); // last price 200 (VWAP would be 125) -> [140, 600]
    refused(s, { side: 'BUY', price: '139.99', qty: '1' }, 'FILTER_PERCENT_PRICE');
    accepted(s, { side: 'BUY', price: '140', qty: '1' });
  });
});

describe('PERCENT_PRICE_BY_SIDE', () => {
  const rule: SymbolFilter = {
    filterType: 'PERCENT_PRICE_BY_SIDE',
    bidMultiplierUp: '1.2',
    bidMultiplierDown: '0.2',
    askMultiplierUp: '5',
    askMultiplierDown: '0.8',
    avgPriceMins: 1,
  };
  function sim(): Sim {
    const s = filterSim([rule]);
    s.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: 100_00000000 });
    return s;
  }

  it('BUY prices are held to [ref * bidMultiplierDown, ref * bidMultiplierUp]', () => {
    const s = sim();
    accepted(s, { side: 'BUY', price: '20', qty: '1' });
    accepted(s, { side: 'BUY', price: '99', qty: '1' });
    refused(s, { side: 'BUY', price: '19.99', qty: '1' }, 'FILTER_PERCENT_PRICE_BY_SIDE');
    refused(s, { side: 'BUY', price: '120.01', qty: '1' }, 'FILTER_PERCENT_PRICE_BY_SIDE');
  });

  it('SELL prices are held to [ref * askMultiplierDown, ref * askMultiplierUp]', () => {
    const s = sim();
    accepted(s, { side: 'SELL', price: '500', qty: '1' });
    accepted(s, { side: 'SELL', price: '101', qty: '1' });
    refused(s, { side: 'SELL', price: '79.99', qty: '1' }, 'FILTER_PERCENT_PRICE_BY_SIDE');
    refused(s, { side: 'SELL', price: '500.01', qty: '1' }, 'FILTER_PERCENT_PRICE_BY_SIDE');
  });

  it('uses the VWAP over its own avgPriceMins when no reference price is set', () => {
    const s = filterSim([rule]);
    trade(s, '1', '100');
    s.advanceMinutes(0.5);
    trade(s, '1', '110'); // VWAP over 1 min: 105 -> BUY up to 126
    refused(s, { side: 'BUY', price: '126.01', qty: '1' }, 'FILTER_PERCENT_PRICE_BY_SIDE');
    s.advanceMinutes(0.75); // only the trade at 110 is within 1 minute -> BUY up to 132
    accepted(s, { side: 'BUY', price: '132', qty: '1' });
    refused(s, { side: 'BUY', price: '132.01', qty: '1' }, 'FILTER_PERCENT_PRICE_BY_SIDE');
  });
});

describe('MIN_NOTIONAL', () => {
  const rule = (applyToMarket: boolean): SymbolFilter => ({ filterType: 'MIN_NOTIONAL', minNotional: '10', applyToMarket, avgPriceMins: 5 });

  it('price * quantity below minNotional fails; at it passes', () => {
    const s = filterSim([rule(true)]);
    refused(s, { side: 'BUY', price: '100', qty: '0.099' }, 'FILTER_MIN_NOTIONAL');
    accepted(s, { side: 'BUY', price: '100', qty: '0.1' });
  });

  it('MARKET orders are checked at the average price when applyToMarket', () => {
    const s = filterSim([rule(true)]);
    trade(s, '1', '100');
    s.sell(2, '10', '101');
    refused(s, { side: 'BUY', type: 'MARKET', qty: '0.099' }, 'FILTER_MIN_NOTIONAL');
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '0.1' });
  });

  it('MARKET orders are not checked when applyToMarket is false', () => {
    const s = filterSim([rule(false)]);
    trade(s, '1', '100');
    s.sell(2, '10', '101');
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '0.001' });
  });

  it('a never-traded symbol cannot check a MARKET order: it fails', () => {
    const s = filterSim([rule(true)]);
    s.sell(2, '10', '101');
    refused(s, { side: 'BUY', type: 'MARKET', qty: '1' }, 'FILTER_MIN_NOTIONAL');
  });

  it('MARKET by quoteOrderQty is checked on quoteOrderQty', () => {
    const s = filterSim([rule(true)]);
    s.sell(2, '10', '100');
    refused(s, { side: 'BUY', type: 'MARKET', quoteQty: '9.99' }, 'FILTER_MIN_NOTIONAL');
    accepted(s, { side: 'BUY', type: 'MARKET', quoteQty: '10' });
  });
});

describe('NOTIONAL', () => {
  const rule = (applyMinToMarket: boolean, applyMaxToMarket: boolean): SymbolFilter => ({
    filterType: 'NOTIONAL',
    minNotional: '10',
    applyMinToMarket,
    maxNotional: '1000',
    applyMaxToMarket,
    avgPriceMins: 5,
  });

  it('LIMIT orders must have minNotional <= price * quantity <= maxNotional', () => {
    const s = filterSim([rule(false, false)]);
    refused(s, { side: 'BUY', price: '100', qty: '0.099' }, 'FILTER_NOTIONAL');
    accepted(s, { side: 'BUY', price: '100', qty: '0.1' });
    accepted(s, { side: 'SELL', price: '100', qty: '10' });
    refused(s, { side: 'SELL', price: '100', qty: '10.001' }, 'FILTER_NOTIONAL');
  });

  it('MARKET orders use the average price, min only with applyMinToMarket', () => {
    const s = filterSim([rule(true, false)]);
    trade(s, '1', '100');
    // (The book is empty now: accepted MARKET orders simply expire; only the filter verdict matters.)
    refused(s, { side: 'BUY', type: 'MARKET', qty: '0.099' }, 'FILTER_NOTIONAL');
    // No max check for MARKET: 15 * 100 = 1500 > 1000 passes.
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '15' });
  });

  it('MARKET orders use the average price, max only with applyMaxToMarket', () => {
    const s = filterSim([rule(false, true)]);
    trade(s, '1', '100');
    trade(s, '1', '200'); // VWAP 150: max qty 1000 / 150 = 6.666
    refused(s, { side: 'BUY', type: 'MARKET', qty: '6.667' }, 'FILTER_NOTIONAL');
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '6.666' });
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '0.001' }); // no min check for MARKET
  });

  it('MARKET orders use an explicit reference price when set', () => {
    const s = filterSim([rule(true, true)]);
    s.apply({ type: 'SetReferencePrice', symbol: 'BTCUSDT', price: 50_00000000 });
    refused(s, { side: 'BUY', type: 'MARKET', qty: '0.199' }, 'FILTER_NOTIONAL');
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '0.2' });
  });

  it('a never-traded symbol fails a MARKET order when either bound applies to MARKET', () => {
    const s = filterSim([rule(true, false)]);
    s.sell(2, '1', '100');
    refused(s, { side: 'SELL', type: 'MARKET', qty: '1' }, 'FILTER_NOTIONAL');
    refused(s, { side: 'BUY', type: 'MARKET', qty: '1' }, 'FILTER_NOTIONAL');
  });

  it('a never-traded symbol accepts MARKET orders when neither bound applies to MARKET', () => {
    const s = filterSim([rule(false, false)]);
    s.sell(2, '1', '100');
    const r = s.place(1, { side: 'BUY', type: 'MARKET', qty: '1' });
    expect(r.trades).toHaveLength(1);
  });

  it('MARKET by quoteOrderQty is held to both bounds on quoteOrderQty', () => {
    const s = filterSim([rule(true, true)]);
    s.sell(2, '10', '100');
    s.sell(2, '10', '100');
    refused(s, { side: 'BUY', type: 'MARKET', quoteQty: '9.99' }, 'FILTER_NOTIONAL');
    refused(s, { side: 'BUY', type: 'MARKET', quoteQty: '1000.01' }, 'FILTER_NOTIONAL');
    accepted(s, { side: 'BUY', type: 'MARKET', quoteQty: '1000' });
  });

  it('MIN_NOTIONAL and NOTIONAL report separately', () => {
    const s = filterSim([rule(false, false), { filterType: 'MIN_NOTIONAL', minNotional: '5', applyToMarket: false, avgPriceMins: 5 }]);
    refused(s, { side: 'BUY', price: '100', qty: '0.049' }, 'FILTER_MIN_NOTIONAL');
    refused(s, { side: 'BUY', price: '100', qty: '0.05' }, 'FILTER_NOTIONAL');
  });
});

describe('NOTIONAL_NOT_POSITIVE', () => {
  it('a price * quantity that floors to 0 quote units is refused', () => {
    // No PRICE_FILTER / LOT_SIZE: one tick and one step are one unit; 1e-8 * 1e-8 floors to 0.
    const sim = new Sim(symbolConfig({ filters: [] }));
    sim.createAccount(1, { USDT: '1', BTC: '1' });
    expectRejectedWithoutChange(sim, { type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 1, quantity: 1 }, 'NOTIONAL_NOT_POSITIVE');
    expectRejectedWithoutChange(sim, { type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 1000, quantity: 99_999 }, 'NOTIONAL_NOT_POSITIVE');
    // 1e-5 * 0.001 = 1e-8: one unit, positive.
    expect(sim.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 1000, quantity: 100_000 })[0]?.type).toBe('OrderAccepted');
  });
});

describe('MAX_NUM_ORDERS', () => {
  it('counts the account open orders on the symbol, the new one included', () => {
    const s = filterSim([{ filterType: 'MAX_NUM_ORDERS', maxNumOrders: 2 }]);
    accepted(s, { side: 'BUY', price: '10', qty: '1' });
    accepted(s, { side: 'SELL', price: '20', qty: '1' });
    refused(s, { side: 'BUY', price: '11', qty: '1' }, 'FILTER_MAX_NUM_ORDERS');
    // Other accounts have their own count.
    accepted(s, { side: 'BUY', price: '10', qty: '1' }, 2);
    // Closing one frees a slot.
    s.cancel(1, { orderId: 1 });
    accepted(s, { side: 'BUY', price: '11', qty: '1' });
  });

  it('a filled order no longer counts', () => {
    const s = filterSim([{ filterType: 'MAX_NUM_ORDERS', maxNumOrders: 1 }]);
    accepted(s, { side: 'BUY', price: '10', qty: '1' });
    refused(s, { side: 'BUY', price: '9', qty: '1' }, 'FILTER_MAX_NUM_ORDERS');
    s.sell(2, '1', '10');
    accepted(s, { side: 'BUY', price: '9', qty: '1' });
  });
});

describe('EXCHANGE_MAX_NUM_ORDERS', () => {
  it('counts the account open orders across all symbols', () => {
    const sim = new Sim({
      symbols: [symbolConfig(), symbolConfig({ symbol: 'ETHUSDT', baseAsset: 'ETH' })],
      exchangeFilters: [{ filterType: 'EXCHANGE_MAX_NUM_ORDERS', maxNumOrders: 2 }],
    });
    sim.createAccount(1, { USDT: '1000' });
    sim.createAccount(2, { USDT: '1000' });
    accepted(sim, { side: 'BUY', price: '10', qty: '1' });
    accepted(sim, { side: 'BUY', price: '10', qty: '1', symbol: 'ETHUSDT' });
    refused(sim, { side: 'BUY', price: '9', qty: '1' }, 'FILTER_EXCHANGE_MAX_NUM_ORDERS');
    refused(sim, { side: 'BUY', price: '9', qty: '1', symbol: 'ETHUSDT' }, 'FILTER_EXCHANGE_MAX_NUM_ORDERS');
    accepted(sim, { side: 'BUY', price: '9', qty: '1' }, 2);
    sim.cancel(1, { orderId: 1, symbol: 'ETHUSDT' });
    accepted(sim, { side: 'BUY', price: '9', qty: '1' });
  });
});

describe('MAX_POSITION', () => {
  function sim(btc: string): Sim {
    const s = new Sim(symbolConfig({}, [{ filterType: 'MAX_POSITION', maxPosition: '10' }]));
    s.createAccount(1, { USDT: '100000', BTC: btc });
    s.createAccount(2, { USDT: '100000', BTC: '100' });
    return s;
  }

  it('a BUY may bring the position up to maxPosition, not beyond', () => {
    const s = sim('8');
    refused(s, { side: 'BUY', price: '10', qty: '2.001' }, 'FILTER_MAX_POSITION');
    accepted(s, { side: 'BUY', price: '10', qty: '2' });
  });

  it('open BUY orders count toward the position', () => {
    const s = sim('8');
    accepted(s, { side: 'BUY', price: '10', qty: '1' });
    refused(s, { side: 'BUY', price: '10', qty: '1.001' }, 'FILTER_MAX_POSITION');
    accepted(s, { side: 'BUY', price: '10', qty: '1' });
  });

  it('base locked in SELL orders still counts', () => {
    const s = sim('8');
    accepted(s, { side: 'SELL', price: '100', qty: '5' });
    refused(s, { side: 'BUY', price: '10', qty: '2.001' }, 'FILTER_MAX_POSITION');
  });

  it('SELL orders are not checked', () => {
    const s = sim('12');
    accepted(s, { side: 'SELL', price: '100', qty: '1' });
  });

  it('applies to MARKET BUY by quantity and by quoteOrderQty', () => {
    const s = sim('9');
    s.sell(2, '5', '10');
    refused(s, { side: 'BUY', type: 'MARKET', qty: '1.001' }, 'FILTER_MAX_POSITION');
    refused(s, { side: 'BUY', type: 'MARKET', quoteQty: '10.01' }, 'FILTER_MAX_POSITION');
    accepted(s, { side: 'BUY', type: 'MARKET', quoteQty: '10' });
  });
});

describe('MAX_ASSET', () => {
  function sim(asset: string, limit: string): Sim {
    const s = new Sim({ symbols: [symbolConfig()], assetFilters: [{ filterType: 'MAX_ASSET', asset, limit }] });
    s.createAccount(1, { USDT: '100000', BTC: '100' });
    return s;
  }

  it('on the base asset it caps the quantity of one order, either side', () => {
    const s = sim('BTC', '5');
    refused(s, { side: 'BUY', price: '10', qty: '5.001' }, 'FILTER_MAX_ASSET');
    refused(s, { side: 'SELL', price: '10', qty: '5.001' }, 'FILTER_MAX_ASSET');
    accepted(s, { side: 'BUY', price: '10', qty: '5' });
    accepted(s, { side: 'SELL', price: '10000', qty: '5' });
  });

  it('on the quote asset it caps the notional of one order', () => {
    const s = sim('USDT', '1000');
    refused(s, { side: 'BUY', price: '100', qty: '10.001' }, 'FILTER_MAX_ASSET');
    refused(s, { side: 'SELL', price: '1000.01', qty: '1' }, 'FILTER_MAX_ASSET');
    accepted(s, { side: 'BUY', price: '100', qty: '10' });
  });

  it('on the quote asset it caps quoteOrderQty', () => {
    const s = sim('USDT', '1000');
    s.createAccount(2, { BTC: '100' });
    s.sell(2, '10', '100');
    s.sell(2, '10', '100');
    refused(s, { side: 'BUY', type: 'MARKET', quoteQty: '1000.01' }, 'FILTER_MAX_ASSET');
    accepted(s, { side: 'BUY', type: 'MARKET', quoteQty: '1000' });
  });

  it('on the base asset it caps the quantity a MARKET BUY by quoteOrderQty would buy', () => {
    // The engine determines the quantity (3 BTC) before accepting the order, as it does for
    // LOT_SIZE and MAX_POSITION; binance-facts §1.3: MAX_ASSET on the base asset "caps quantity".
    const s = sim('BTC', '1');
    s.createAccount(2, { BTC: '100' });
    for (let i = 0; i < 3; i++) s.sell(2, '1', '100');
    refused(s, { side: 'BUY', type: 'MARKET', quoteQty: '300' }, 'FILTER_MAX_ASSET');
    accepted(s, { side: 'BUY', type: 'MARKET', quoteQty: '100' });
  });

  it('on the quote asset it caps the notional of a MARKET order by quantity', () => {
    // Notional 20 * 100 = 2000 > 1000 whether priced at the average price (100) or at the walk.
    const s = sim('USDT', '1000');
    s.createAccount(2, { BTC: '100' });
    s.sell(2, '5', '100');
    s.buy(1, '5', '100'); // average price 100
    for (let i = 0; i < 3; i++) s.sell(2, '10', '100');
    refused(s, { side: 'BUY', type: 'MARKET', qty: '20' }, 'FILTER_MAX_ASSET');
    accepted(s, { side: 'BUY', type: 'MARKET', qty: '10' });
  });

  it('does not apply to symbols without the asset', () => {
    const s = new Sim({ symbols: [symbolConfig()], assetFilters: [{ filterType: 'MAX_ASSET', asset: 'ETH', limit: '1' }] });
    s.createAccount(1, { USDT: '100000' });
    accepted(s, { side: 'BUY', price: '10', qty: '50' });
  });
});

describe('filter order', () => {
  it('the first failing filter is reported: price rules before quantity rules before notional', () => {
    const s = filterSim([priceFilter('1', '1000', '0.01'), lotSize('0.01', '100', '0.01'), { filterType: 'MIN_NOTIONAL', minNotional: '10', applyToMarket: true, avgPriceMins: 5 }]);
    expect(rejectionOf(s.place(1, { side: 'BUY', price: '0.5', qty: '0.001' }).events)).toBe('FILTER_PRICE_FILTER');
    expect(rejectionOf(s.place(1, { side: 'BUY', price: '5', qty: '0.001' }).events)).toBe('FILTER_LOT_SIZE');
    expect(rejectionOf(s.place(1, { side: 'BUY', price: '5', qty: '0.01' }).events)).toBe('FILTER_MIN_NOTIONAL');
  });
});
