/**
 * fast-check generators of engine command streams for the model-based property tests.
 *
 * Commands are plain data (no classes, no closures) so a failing run prints a shrunk list that can
 * be pasted straight into a unit test. Times are generated as non-negative gaps and summed by a
 * `map`, so shrinking never produces a stream that goes back in time.
 *
 * The generators aim for collisions rather than realism: prices sit within a few ticks of one
 * centre so orders cross often, client order ids come from a tiny pool so duplicates happen,
 * cancels name small order ids (many of them closed or foreign) and a few unknown ones, and two of
 * the four accounts share a trade group so every STP mode is exercised against both the same
 * account and a group mate. Each scenario's setup (accounts, a seeded book and one trade per
 * symbol) is fixed; only the stream after it is generated and shrunk.
 */
import fc from 'fast-check';
import type {
  AdjustBalance,
  CancelAllOrders,
  CancelOrder,
  CreateAccount,
  EngineCommand,
  PlaceOrder,
  SetReferencePrice,
  RecordMarketTrade,
  FillFromMarket,
  SetSymbolStatus,
} from '../../src/engine/commands.ts';
import type { SymbolConfig } from '../../src/engine/symbol-config.ts';
import type { CancelRestriction, SelfTradePreventionMode, Side, SymbolStatus } from '../../src/engine/types.ts';
import { btcusdtConfig, createAccount, ethbtcConfig, units } from '../support/fixtures.ts';

/** 2023-11-14T22:13:20Z in µs: any fixed epoch works, a realistic one keeps day/minute maths honest. */
export const START_TIME = 1_700_000_000_000_000;

/** Per-symbol knobs of the generator, all in engine units. */
export interface SymbolGen {
  symbol: string;
  centerPrice: number;
  tick: number;
  step: number;
  /** Typical order size is `lot * (1..maxLots)` steps; a lot is several steps so partial fills line up. */
  lotSteps: number;
  maxLots: number;
  /** quoteOrderQty range for MARKET by quote, quote units. */
  minQuote: number;
  maxQuote: number;
}

export interface Scenario {
  symbols: readonly SymbolConfig[];
  gens: readonly SymbolGen[];
  setup: readonly EngineCommand[];
  /** Account ids orders are placed from; includes ids that do not exist (yet). */
  accountIds: readonly number[];
  /** Weight of each account id in `accountIds` (same order). */
  accountWeights: readonly number[];
  /** Id of an account that a generated CreateAccount may add mid-run. */
  lateAccountId: number;
}

/**
 * The default scenario: BTCUSDT (exact notional grid, all six STP modes) and ETHBTC (notionals
 * floor; STP modes without NONE, as captured live; a low MAX_NUM_ORDERS so that filter fires).
 * Accounts 1 and 2 share trade group 7, account 3 has no group, account 4 is alone in group 9.
 * Balances are small enough that INSUFFICIENT_BALANCE happens now and then.
 */
export function defaultScenario(): Scenario {
  const symbols = [
    btcusdtConfig({ filters: [{ filterType: 'MAX_POSITION', maxPosition: '0.05000000' }] }),
    ethbtcConfig({
      filters: [
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 6 },
        // Half the live minimum, so one-lot orders fail NOTIONAL now and then rather than always.
        {
          filterType: 'NOTIONAL',
          minNotional: '0.00005000',
          applyMinToMarket: true,
          maxNotional: '9000000.00000000',
          applyMaxToMarket: false,
          avgPriceMins: 5,
        },
      ],
    }),
  ];
  const gens: SymbolGen[] = [
    {
      symbol: 'BTCUSDT',
      centerPrice: units('30000'),
      tick: units('0.01'),
      step: units('0.00001'),
      lotSteps: 10,
      maxLots: 30,
      minQuote: units('1'),
      maxQuote: units('120'),
    },
    {
      symbol: 'ETHBTC',
      centerPrice: units('0.05'),
      tick: units('0.00001'),
      step: units('0.0001'),
      lotSteps: 7,
      maxLots: 9,
      minQuote: units('0.00005'),
      maxQuote: units('0.004'),
    },
  ];
  const t = START_TIME;
  const setup: CreateAccount[] = [
    createAccount(1, {
      time: t,
      tradeGroupId: 7,
      balances: { USDT: '600', BTC: '0.02', ETH: '0.05' },
      standardCommission: { maker: '0.001', taker: '0.001' },
    }),
    createAccount(2, {
      time: t,
      tradeGroupId: 7,
      balances: { USDT: '600', BTC: '0.02', ETH: '0.05' },
    }),
    createAccount(3, {
      time: t,
      balances: { USDT: '600', BTC: '0.02', ETH: '0.05' },
      standardCommission: { maker: '0.0002', taker: '0.0004', buyer: '0.0001', seller: '0.0003' },
      taxCommission: { maker: '0.00005', taker: '0.0001' },
    }),
    createAccount(4, {
      time: t,
      tradeGroupId: 9,
      balances: { USDT: '300', BTC: '0.01', ETH: '0.03' },
      standardCommission: { maker: '0.001', taker: '0.002' },
      specialCommission: { taker: '0.00005', seller: '0.00002' },
    }),
  ];
  return {
    symbols,
    gens,
    setup: [...setup, ...seedBook(gens, t)],
    accountIds: [1, 2, 3, 4, 5, 99],
    accountWeights: [30, 30, 22, 14, 2, 1],
    lateAccountId: 5,
  };
}

/**
 * Resting liquidity from the accounts outside the 1/2 group (two levels a side on each symbol),
 * plus one trade per symbol, so that IOC/FOK/MARKET orders find something to take from the first
 * command on and MARKET notional checks have an average price to work with.
 */
function seedBook(gens: readonly SymbolGen[], t: number): PlaceOrder[] {
  const out: PlaceOrder[] = [];
  for (const g of gens) {
    const qty = g.lotSteps * g.step * 3;
    const limit = (accountId: number, side: Side, ticks: number): PlaceOrder => ({
      type: 'PlaceOrder', time: t, accountId, symbol: g.symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price: g.centerPrice + ticks * g.tick, quantity: qty,
    });
    out.push(limit(3, 'SELL', 0), { ...limit(4, 'BUY', 0), timeInForce: 'IOC' });
    out.push(limit(4, 'SELL', 2), limit(3, 'SELL', 3), limit(3, 'BUY', -2), limit(4, 'BUY', -3));
  }
  return out;
}

/**
 * Same market, but almost all flow comes from the trade-group pair 1/2 so STP fires constantly,
 * and BTCUSDT defaults to TRANSFER so TRANSFER meets TRANSFER (the only way it really transfers).
 */
export function stpHeavyScenario(): Scenario {
  const base = defaultScenario();
  const symbols = [
    btcusdtConfig({
      filters: [{ filterType: 'MAX_POSITION', maxPosition: '0.05000000' }],
      config: { defaultSelfTradePreventionMode: 'TRANSFER' },
    }),
    ...base.symbols.slice(1),
  ];
  return { ...base, symbols, accountWeights: [45, 45, 6, 4, 0, 0] };
}

const CLIENT_IDS = ['a', 'b', 'c', 'd'] as const;
const CANCEL_IDS = ['cx1', 'cx2'] as const;
const STP: readonly SelfTradePreventionMode[] = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER'];

type Untimed<T> = T extends { time: number } ? Omit<T, 'time'> : never;
type UntimedCommand = Untimed<EngineCommand>;

function weighted<T>(...entries: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> {
  return fc.oneof(...entries.filter(([w]) => w > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));
}

function constantsWeighted<T>(...entries: [number, T][]): fc.Arbitrary<T> {
  return weighted(...entries.map(([w, v]) => [w, fc.constant(v)] as [number, fc.Arbitrary<T>]));
}

function accountArb(s: Scenario): fc.Arbitrary<number> {
  return weighted(...s.accountIds.map((id, i) => [s.accountWeights[i] ?? 0, fc.constant(id)] as [number, fc.Arbitrary<number>]));
}

function optional<T>(arb: fc.Arbitrary<T>, freq: number): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq });
}

type OrderShape =
  | 'LIMIT_GTC'
  | 'LIMIT_IOC'
  | 'LIMIT_FOK'
  | 'LIMIT_MAKER'
  | 'MARKET_QTY'
  | 'MARKET_QUOTE'
  // Malformed on purpose: each must be rejected without touching state.
  | 'BAD_LIMIT_NO_TIF'
  | 'BAD_MAKER_WITH_TIF'
  | 'BAD_MARKET_BOTH_QTYS'
  | 'BAD_OFF_TICK'
  | 'BAD_OFF_STEP'
  | 'BAD_ZERO_QTY'
  | 'FAR_PRICE';

function placeOrderArb(s: Scenario): fc.Arbitrary<Untimed<PlaceOrder>> {
  const shape = constantsWeighted<OrderShape>(
    [34, 'LIMIT_GTC'],
    [9, 'LIMIT_IOC'],
    [7, 'LIMIT_FOK'],
    [9, 'LIMIT_MAKER'],
    [8, 'MARKET_QTY'],
    [7, 'MARKET_QUOTE'],
    [1, 'BAD_LIMIT_NO_TIF'],
    [1, 'BAD_MAKER_WITH_TIF'],
    [1, 'BAD_MARKET_BOTH_QTYS'],
    [1, 'BAD_OFF_TICK'],
    [1, 'BAD_OFF_STEP'],
    [1, 'BAD_ZERO_QTY'],
    [1, 'FAR_PRICE'],
  );
  return fc
    .record({
      accountId: accountArb(s),
      symbolIndex: weighted([55, fc.constant(0)], [44, fc.constant(1)], [1, fc.constant(-1)]),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      shape,
      tickOffset: fc.integer({ min: -3, max: 3 }),
      lotFraction: fc.integer({ min: 0, max: 999 }),
      // Usually a whole number of lots (fills line up), sometimes a ragged remainder.
      extraSteps: constantsWeighted([4, 0], [1, 1], [1, 3]),
      quoteFraction: fc.integer({ min: 0, max: 1000 }),
      clientOrderId: optional(fc.constantFrom(...CLIENT_IDS), 2),
      stp: optional(fc.constantFrom(...STP), 2),
    })
    .map((r) => {
      const gen = r.symbolIndex >= 0 ? s.gens[r.symbolIndex] : undefined;
      const g = gen ?? s.gens[0]!;
      const symbol = gen ? gen.symbol : 'NOPEUSDT';
      const price = g.centerPrice + r.tickOffset * g.tick;
      const lots = 1 + Math.floor((r.lotFraction * g.maxLots) / 1000);
      const quantity = (lots * g.lotSteps + r.extraSteps) * g.step;
      const quote = g.minQuote + Math.floor(((g.maxQuote - g.minQuote) * r.quoteFraction) / 1000);
      const o: Untimed<PlaceOrder> = { type: 'PlaceOrder', accountId: r.accountId, symbol, side: r.side, orderType: 'LIMIT' };
      switch (r.shape) {
        case 'LIMIT_GTC':
        case 'LIMIT_IOC':
        case 'LIMIT_FOK':
          o.timeInForce = r.shape === 'LIMIT_GTC' ? 'GTC' : r.shape === 'LIMIT_IOC' ? 'IOC' : 'FOK';
          o.price = price;
          o.quantity = quantity;
          break;
        case 'LIMIT_MAKER':
          o.orderType = 'LIMIT_MAKER';
          o.price = price;
          o.quantity = quantity;
          break;
        case 'MARKET_QTY':
          o.orderType = 'MARKET';
          o.quantity = quantity;
          break;
        case 'MARKET_QUOTE':
          o.orderType = 'MARKET';
          o.quoteOrderQty = quote;
          break;
        case 'BAD_LIMIT_NO_TIF':
          o.price = price;
          o.quantity = quantity;
          break;
        case 'BAD_MAKER_WITH_TIF':
          o.orderType = 'LIMIT_MAKER';
          o.timeInForce = 'GTC';
          o.price = price;
          o.quantity = quantity;
          break;
        case 'BAD_MARKET_BOTH_QTYS':
          o.orderType = 'MARKET';
          o.quantity = quantity;
          o.quoteOrderQty = quote;
          break;
        case 'BAD_OFF_TICK':
          o.timeInForce = 'GTC';
          o.price = price + 1;
          o.quantity = quantity;
          break;
        case 'BAD_OFF_STEP':
          o.timeInForce = 'GTC';
          o.price = price;
          o.quantity = quantity + 1;
          break;
        case 'BAD_ZERO_QTY':
          o.timeInForce = 'GTC';
          o.price = price;
          o.quantity = 0;
          break;
        case 'FAR_PRICE':
          // Far through the book: a sweep for a BUY at 5x, or a SELL at a fifth of the centre.
          o.timeInForce = 'IOC';
          o.price = r.side === 'BUY' ? g.centerPrice * 5 : Math.max(g.tick, Math.floor(g.centerPrice / 5 / g.tick) * g.tick);
          o.quantity = quantity;
          break;
      }
      if (r.clientOrderId !== undefined) o.clientOrderId = r.clientOrderId;
      if (r.stp !== undefined) o.selfTradePreventionMode = r.stp;
      return o;
    });
}

function cancelOrderArb(s: Scenario): fc.Arbitrary<Untimed<CancelOrder>> {
  return fc
    .record({
      accountId: accountArb(s),
      symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }),
      // Engine order ids are small in a 60-command run; 10_000 never exists.
      by: constantsWeighted<'id' | 'client' | 'both' | 'neither'>([10, 'id'], [6, 'client'], [1, 'both'], [1, 'neither']),
      orderId: weighted([20, fc.integer({ min: 1, max: 30 })], [1, fc.constant(10_000)]),
      origClientOrderId: fc.constantFrom(...CLIENT_IDS, 'zz'),
      newClientOrderId: optional(fc.constantFrom(...CANCEL_IDS), 3),
      restriction: optional(fc.constantFrom<CancelRestriction>('ONLY_NEW', 'ONLY_PARTIALLY_FILLED'), 3),
    })
    .map((r) => {
      const o: Untimed<CancelOrder> = { type: 'CancelOrder', accountId: r.accountId, symbol: s.gens[r.symbolIndex]!.symbol };
      if (r.by === 'id' || r.by === 'both') o.orderId = r.orderId;
      if (r.by === 'client' || r.by === 'both') o.origClientOrderId = r.origClientOrderId;
      if (r.newClientOrderId !== undefined) o.newClientOrderId = r.newClientOrderId;
      if (r.restriction !== undefined) o.cancelRestrictions = r.restriction;
      return o;
    });
}

function cancelAllArb(s: Scenario): fc.Arbitrary<Untimed<CancelAllOrders>> {
  return fc.record({
    type: fc.constant('CancelAllOrders' as const),
    accountId: accountArb(s),
    symbol: fc.constantFrom(...s.gens.map((g) => g.symbol)),
  });
}

function adjustBalanceArb(s: Scenario): fc.Arbitrary<Untimed<AdjustBalance>> {
  return fc.record({
    type: fc.constant('AdjustBalance' as const),
    accountId: accountArb(s),
    asset: constantsWeighted([5, 'USDT'], [5, 'BTC'], [5, 'ETH'], [1, 'BNB']),
    // Mostly deposits and small withdrawals; the large withdrawals must be refused (free would go negative).
    delta: weighted(
      [6, fc.integer({ min: 1, max: 50_000_000_000 })],
      [4, fc.integer({ min: -3_000_000_000, max: -1 })],
      [1, fc.constant(-1_000_000_000_000)],
    ),
  });
}

function symbolStatusArb(s: Scenario): fc.Arbitrary<Untimed<SetSymbolStatus>> {
  return fc.record({
    type: fc.constant('SetSymbolStatus' as const),
    symbol: fc.constantFrom(...s.gens.map((g) => g.symbol)),
    // Back to TRADING half the time, so a halted symbol does not freeze the rest of the run.
    status: constantsWeighted<SymbolStatus>([8, 'TRADING'], [2, 'HALT'], [2, 'BREAK'], [1, 'CANCEL_ONLY'], [1, 'END_OF_DAY']),
  });
}

function referencePriceArb(s: Scenario): fc.Arbitrary<Untimed<SetReferencePrice>> {
  return fc
    .record({ symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }), ticks: optional(fc.integer({ min: -5, max: 5 }), 4) })
    .map(({ symbolIndex, ticks }) => {
      const g = s.gens[symbolIndex]!;
      return { type: 'SetReferencePrice' as const, symbol: g.symbol, price: ticks === undefined ? null : g.centerPrice + ticks * g.tick };
    });
}

/** A trade printed by the market outside the book (replay): near the centre, sometimes off the tick grid. */
function marketTradeArb(s: Scenario): fc.Arbitrary<Untimed<RecordMarketTrade>> {
  return fc
    .record({
      symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }),
      ticks: fc.integer({ min: -8, max: 8 }),
      offGrid: weighted([5, fc.constant(0)], [1, fc.integer({ min: 1, max: 9 })]),
      lots: fc.integer({ min: 1, max: 5 }),
      isBuyerMaker: fc.boolean(),
    })
    .map(({ symbolIndex, ticks, offGrid, lots, isBuyerMaker }) => {
      const g = s.gens[symbolIndex]!;
      return {
        type: 'RecordMarketTrade' as const,
        symbol: g.symbol,
        price: g.centerPrice + ticks * g.tick + offGrid,
        quantity: lots * g.lotSteps * g.step,
        isBuyerMaker,
      };
    });
}

/** The market fills a resting order (replay): random ids and sizes, so many are refused. */
function marketFillArb(s: Scenario): fc.Arbitrary<Untimed<FillFromMarket>> {
  return fc
    .record({
      symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }),
      orderId: fc.integer({ min: 1, max: 30 }),
      lots: fc.integer({ min: 1, max: 4 }),
      reason: fc.constantFrom('TRADE_THROUGH', 'QUEUE_POSITION', 'TOUCH'),
    })
    .map(({ symbolIndex, orderId, lots, reason }) => {
      const g = s.gens[symbolIndex]!;
      return { type: 'FillFromMarket' as const, symbol: g.symbol, orderId, quantity: lots * g.lotSteps * g.step, reason };
    });
}

function createAccountArb(s: Scenario): fc.Arbitrary<Untimed<CreateAccount>> {
  // Either the late account (new) or an existing one (must be refused as ACCOUNT_EXISTS).
  return fc.constantFrom(s.lateAccountId, 2).map((accountId) => {
    const { time: _time, ...command } = createAccount(accountId, { balances: { USDT: '100', BTC: '0.005', ETH: '0.02' } });
    return command;
  });
}

function untimedCommandArb(s: Scenario): fc.Arbitrary<UntimedCommand> {
  return weighted<UntimedCommand>(
    [62, placeOrderArb(s)],
    [18, cancelOrderArb(s)],
    [3, cancelAllArb(s)],
    [5, adjustBalanceArb(s)],
    [1, symbolStatusArb(s)],
    [1, referencePriceArb(s)],
    [3, marketTradeArb(s)],
    [4, marketFillArb(s)],
    [1, createAccountArb(s)],
  );
}

/** Gap before a command, µs: same instant, sub-second, up to two minutes, or a 10-minute jump past the avgPrice window. */
const gapArb: fc.Arbitrary<number> = weighted(
  [2, fc.constant(0)],
  [5, fc.integer({ min: 1, max: 1_000_000 })],
  [3, fc.integer({ min: 1_000_000, max: 120_000_000 })],
  [1, fc.constant(600_000_000)],
);

export interface StreamOptions {
  minLength?: number;
  maxLength?: number;
}

/** A command stream (after the scenario's setup) with non-decreasing times starting at START_TIME. */
export function commandStreamArb(s: Scenario, options: StreamOptions = {}): fc.Arbitrary<EngineCommand[]> {
  return fc
    // size 'max': without it fast-check caps arrays near 10 elements whatever maxLength says.
    .array(fc.tuple(gapArb, untimedCommandArb(s)), { minLength: options.minLength ?? 1, maxLength: options.maxLength ?? 60, size: 'max' })
    .map((steps) => {
      let time = START_TIME;
      return steps.map(([gap, command]) => {
        time += gap;
        return { ...command, time } as EngineCommand;
      });
    });
}
