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
  AmendOrder,
  CancelAllOrders,
  CancelOrder,
  CancelOrderList,
  CancelReplaceOrder,
  CreateAccount,
  EngineCommand,
  OrderRequest,
  PlaceOrder,
  PlaceOrderList,
  SetReferencePrice,
  RecordMarketTrade,
  FillFromMarket,
  SetSymbolStatus,
} from '../../src/engine/commands.ts';
import type { SymbolConfig } from '../../src/engine/symbol-config.ts';
import type { CancelReplaceMode, CancelRestriction, OrderListKind, OrderType, PegPriceType, SelfTradePreventionMode, Side, SymbolStatus, TimeInForce } from '../../src/engine/types.ts';
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
  /**
   * Trailing deltas (basis points) worth generating: a few ticks' worth, so the prints near the
   * centre can both start and trigger a trail (one tick is 0.03 bp of BTCUSDT, 2 bp of ETHBTC).
   */
  trailingDeltas: readonly number[];
  /** Largest distance of a swing print from the centre, ticks (reaches the trailing triggers). */
  swingTicks: number;
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
      // No TRAILING_DELTA filter on this fixture: 1 bp is 300 ticks, reached by the swing prints.
      trailingDeltas: [1, 2],
      swingTicks: 900,
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
      // TRAILING_DELTA allows 10..2000; 5 is below it (refused), 10..20 is 5..10 ticks.
      trailingDeltas: [5, 10, 14, 20],
      swingTicks: 14,
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
  // The instructions of issue 3: stop / take-profit (any of the four types, with a stop price,
  // a trailing delta or both), icebergs, and price pegs.
  | 'STOP'
  | 'ICEBERG'
  | 'PEG'
  // Malformed on purpose: each must be rejected without touching state.
  | 'BAD_LIMIT_NO_TIF'
  | 'BAD_MAKER_WITH_TIF'
  | 'BAD_MARKET_BOTH_QTYS'
  | 'BAD_OFF_TICK'
  | 'BAD_OFF_STEP'
  | 'BAD_ZERO_QTY'
  | 'FAR_PRICE';

const STOP_TYPES: readonly OrderType[] = ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

/** The random choices behind one order request; `buildRequest` turns them into engine units for a symbol. */
interface RequestParams {
  side: Side;
  shape: OrderShape;
  tickOffset: number;
  lotFraction: number;
  extraSteps: number;
  quoteFraction: number;
  clientOrderId: string | undefined;
  stp: SelfTradePreventionMode | undefined;
  stopType: OrderType;
  /** Ticks from the centre to the stop price, on the side it waits for (usually). */
  stopTicks: number;
  /** One stop in eight is placed on the wrong side of the market: it must be refused or trigger at once. */
  stopWrongSide: boolean;
  /** none: stopPrice only; both: stopPrice and trailingDelta; only: trailingDelta alone. */
  trail: 'none' | 'both' | 'only';
  trailIndex: number;
  /** *_LIMIT: the limit price, in ticks beyond the stop price in the direction of execution (may be negative). */
  limitGap: number;
  limitTif: TimeInForce;
  /** Iceberg parts wanted (quantity / icebergQty), 1 (refused: icebergQty must be below quantity) .. 12 (above ICEBERG_PARTS 10). */
  icebergParts: number;
  pegType: PegPriceType;
  pegOffset: number;
  /** Pegged LIMIT/LIMIT_MAKER/stop-limit; also send a price (filters must pass at both). */
  pegWithPrice: boolean;
  pegKind: 'LIMIT_GTC' | 'LIMIT_IOC' | 'LIMIT_MAKER' | 'STOP_LIMIT';
}

function requestParamsArb(shapeWeights: readonly [number, OrderShape][]): fc.Arbitrary<RequestParams> {
  return fc.record({
    side: fc.constantFrom<Side>('BUY', 'SELL'),
    shape: constantsWeighted<OrderShape>(...shapeWeights),
    tickOffset: fc.integer({ min: -3, max: 3 }),
    lotFraction: fc.integer({ min: 0, max: 999 }),
    // Usually a whole number of lots (fills line up), sometimes a ragged remainder.
    extraSteps: constantsWeighted([4, 0], [1, 1], [1, 3]),
    quoteFraction: fc.integer({ min: 0, max: 1000 }),
    clientOrderId: optional(fc.constantFrom(...CLIENT_IDS), 2),
    stp: optional(fc.constantFrom(...STP), 2),
    stopType: fc.constantFrom(...STOP_TYPES),
    stopTicks: fc.integer({ min: 1, max: 6 }),
    stopWrongSide: weighted([7, fc.constant(false)], [1, fc.constant(true)]),
    trail: constantsWeighted<'none' | 'both' | 'only'>([5, 'none'], [2, 'both'], [2, 'only']),
    trailIndex: fc.integer({ min: 0, max: 7 }),
    limitGap: fc.integer({ min: -1, max: 3 }),
    limitTif: constantsWeighted<TimeInForce>([6, 'GTC'], [2, 'IOC'], [1, 'FOK']),
    icebergParts: fc.integer({ min: 1, max: 12 }),
    pegType: fc.constantFrom<PegPriceType>('PRIMARY_PEG', 'MARKET_PEG'),
    pegOffset: constantsWeighted([6, 0], [3, 1], [1, 3]),
    pegWithPrice: weighted([3, fc.constant(false)], [1, fc.constant(true)]),
    pegKind: constantsWeighted<RequestParams['pegKind']>([4, 'LIMIT_GTC'], [1, 'LIMIT_IOC'], [2, 'LIMIT_MAKER'], [1, 'STOP_LIMIT']),
  });
}

/** Whether a stop of `type` on `side` waits for the price to rise to its stop (binance-facts §5.5). */
export function triggersAbove(type: OrderType, side: Side): boolean {
  return (type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT') === (side === 'BUY');
}

/** Lots of the order's size, from the fraction drawn. */
function lotsOf(g: SymbolGen, r: RequestParams): number {
  return 1 + Math.floor((r.lotFraction * g.maxLots) / 1000);
}

/**
 * A stop or take-profit request. The stop price sits `stopTicks` from the centre on the side it
 * waits for (so most are accepted and wait), the limit of a *_LIMIT order a few ticks beyond it
 * in the direction it will trade, so some trade at once when triggered and some rest.
 */
function stopRequest(g: SymbolGen, r: RequestParams, type: OrderType, quantity: number): OrderRequest {
  const above = triggersAbove(type, r.side);
  const direction = (above ? 1 : -1) * (r.stopWrongSide ? -1 : 1);
  const stopPrice = g.centerPrice + direction * r.stopTicks * g.tick;
  const o: OrderRequest = { side: r.side, orderType: type, quantity };
  if (r.trail !== 'only') o.stopPrice = stopPrice;
  if (r.trail !== 'none') o.trailingDelta = g.trailingDeltas[r.trailIndex % g.trailingDeltas.length]!;
  if (type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT_LIMIT') {
    // A BUY is willing to pay above its trigger, a SELL to sell below it.
    o.price = Math.max(g.tick, stopPrice + (r.side === 'BUY' ? 1 : -1) * r.limitGap * g.tick);
    o.timeInForce = r.limitTif;
  }
  return o;
}

function buildRequest(g: SymbolGen, r: RequestParams): OrderRequest {
  const price = g.centerPrice + r.tickOffset * g.tick;
  const lots = lotsOf(g, r);
  const quantity = (lots * g.lotSteps + r.extraSteps) * g.step;
  const quote = g.minQuote + Math.floor(((g.maxQuote - g.minQuote) * r.quoteFraction) / 1000);
  let o: OrderRequest = { side: r.side, orderType: 'LIMIT' };
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
    case 'STOP':
      o = stopRequest(g, r, r.stopType, quantity);
      break;
    case 'ICEBERG': {
      // A LIMIT GTC (or LIMIT_MAKER, or now and then a stop-limit) showing one part at a time.
      const icebergSteps = Math.ceil((lots * g.lotSteps) / r.icebergParts);
      if (r.pegKind === 'STOP_LIMIT') {
        o = stopRequest(g, r, r.stopType === 'STOP_LOSS' || r.stopType === 'STOP_LOSS_LIMIT' ? 'STOP_LOSS_LIMIT' : 'TAKE_PROFIT_LIMIT', quantity);
        o.timeInForce = 'GTC';
      } else {
        o.orderType = r.pegKind === 'LIMIT_MAKER' ? 'LIMIT_MAKER' : 'LIMIT';
        if (o.orderType === 'LIMIT') o.timeInForce = 'GTC';
        o.price = price;
        o.quantity = quantity;
      }
      o.icebergQty = icebergSteps * g.step;
      break;
    }
    case 'PEG': {
      if (r.pegKind === 'STOP_LIMIT') {
        o = stopRequest(g, r, r.stopType === 'STOP_LOSS' || r.stopType === 'STOP_LOSS_LIMIT' ? 'STOP_LOSS_LIMIT' : 'TAKE_PROFIT_LIMIT', quantity);
        if (!r.pegWithPrice) delete o.price;
      } else {
        o.orderType = r.pegKind === 'LIMIT_MAKER' ? 'LIMIT_MAKER' : 'LIMIT';
        if (r.pegKind !== 'LIMIT_MAKER') o.timeInForce = r.pegKind === 'LIMIT_IOC' ? 'IOC' : 'GTC';
        if (r.pegWithPrice) o.price = price;
        o.quantity = quantity;
      }
      o.pegPriceType = r.pegType;
      o.pegOffsetValue = r.pegOffset;
      break;
    }
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
}

/** The plain order mix of the matching properties (no instructions). */
const PLAIN_SHAPES: readonly [number, OrderShape][] = [
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
];

/** The plain mix plus stops, icebergs and pegs. */
const FULL_SHAPES: readonly [number, OrderShape][] = [...PLAIN_SHAPES, [22, 'STOP'], [8, 'ICEBERG'], [8, 'PEG']];

function symbolIndexArb(s: Scenario): fc.Arbitrary<number> {
  return weighted([55, fc.constant(0)], [44, fc.constant(Math.min(1, s.gens.length - 1))], [1, fc.constant(-1)]);
}

function placeOrderArb(s: Scenario, shapes: readonly [number, OrderShape][]): fc.Arbitrary<Untimed<PlaceOrder>> {
  return fc
    .record({ accountId: accountArb(s), symbolIndex: symbolIndexArb(s), params: requestParamsArb(shapes) })
    .map((r) => {
      const gen = r.symbolIndex >= 0 ? s.gens[r.symbolIndex] : undefined;
      const symbol = gen ? gen.symbol : 'NOPEUSDT';
      return { type: 'PlaceOrder', accountId: r.accountId, symbol, ...buildRequest(gen ?? s.gens[0]!, r.params) };
    });
}

// ------------------------------------------------------------------------------------------------
// Order lists

const LIST_CLIENT_IDS = ['L1', 'L2'] as const;

interface ListParams {
  kind: OrderListKind;
  side: Side;
  lots: number;
  /** Ticks between the centre and each OCO leg's price. */
  aboveTicks: number;
  belowTicks: number;
  /** LIMIT_MAKER (0), TAKE_PROFIT (1) or TAKE_PROFIT_LIMIT (2) for the limit-side leg. */
  limitLeg: number;
  /** STOP_LOSS (0) or STOP_LOSS_LIMIT (1) for the stop-loss leg. */
  stopLeg: number;
  stopTrailing: boolean;
  trailIndex: number;
  /** Working order: ticks from the centre on its passive side (negative: it crosses and fills at once). */
  workingTicks: number;
  workingMaker: boolean;
  workingTif: TimeInForce;
  /** OTO / OPO pending leg (any order the generator makes). */
  pending: RequestParams;
  legClientIds: boolean;
  listClientOrderId: string | undefined;
  stp: SelfTradePreventionMode | undefined;
  /** One list in ten is malformed: legs swapped, or the OCO prices on the wrong side of the market. */
  broken: 'no' | 'swap' | 'cross';
}

function listParamsArb(): fc.Arbitrary<ListParams> {
  return fc.record({
    kind: constantsWeighted<OrderListKind>([4, 'OCO'], [2, 'OTO'], [2, 'OTOCO'], [1, 'OPO'], [1, 'OPOCO']),
    side: fc.constantFrom<Side>('BUY', 'SELL'),
    lots: fc.integer({ min: 1, max: 6 }),
    aboveTicks: fc.integer({ min: 1, max: 5 }),
    belowTicks: fc.integer({ min: 1, max: 5 }),
    limitLeg: fc.integer({ min: 0, max: 2 }),
    stopLeg: fc.integer({ min: 0, max: 1 }),
    stopTrailing: weighted([3, fc.constant(false)], [1, fc.constant(true)]),
    trailIndex: fc.integer({ min: 0, max: 7 }),
    workingTicks: fc.integer({ min: -2, max: 3 }),
    workingMaker: weighted([3, fc.constant(false)], [1, fc.constant(true)]),
    workingTif: constantsWeighted<TimeInForce>([6, 'GTC'], [1, 'IOC'], [1, 'FOK']),
    pending: requestParamsArb([[4, 'LIMIT_GTC'], [2, 'MARKET_QTY'], [1, 'LIMIT_IOC'], [1, 'LIMIT_MAKER'], [4, 'STOP'], [1, 'ICEBERG'], [1, 'PEG']]),
    legClientIds: fc.boolean(),
    listClientOrderId: optional(fc.constantFrom(...LIST_CLIENT_IDS), 2),
    stp: optional(fc.constantFrom(...STP), 3),
    broken: constantsWeighted<ListParams['broken']>([18, 'no'], [1, 'swap'], [1, 'cross']),
  });
}

/**
 * An OCO pair [above, below] on `side` around the centre: the limit / take-profit leg and the
 * stop-loss leg on the sides binance-facts §5.12 gives (SELL: limit above, stop below; BUY: stop
 * above, limit below), so that most pairs straddle the last price.
 */
function ocoPair(g: SymbolGen, p: ListParams, side: Side, quantity: number | undefined): [OrderRequest, OrderRequest] {
  const limitType = (['LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const)[p.limitLeg]!;
  const stopType = (['STOP_LOSS', 'STOP_LOSS_LIMIT'] as const)[p.stopLeg]!;
  const sell = side === 'SELL';
  const sign = p.broken === 'cross' ? -1 : 1;
  const limitPrice = g.centerPrice + (sell ? 1 : -1) * sign * (sell ? p.aboveTicks : p.belowTicks) * g.tick;
  const stopPrice = g.centerPrice + (sell ? -1 : 1) * sign * (sell ? p.belowTicks : p.aboveTicks) * g.tick;
  const withQty = (o: OrderRequest): OrderRequest => (quantity === undefined ? o : { ...o, quantity });
  const limitLeg: OrderRequest =
    limitType === 'LIMIT_MAKER'
      ? withQty({ side, orderType: 'LIMIT_MAKER', price: limitPrice })
      : withQty({
          side,
          orderType: limitType,
          stopPrice: limitPrice,
          ...(limitType === 'TAKE_PROFIT_LIMIT' ? { price: limitPrice, timeInForce: 'GTC' as const } : {}),
        });
  const stopLeg: OrderRequest = withQty({
    side,
    orderType: stopType,
    stopPrice,
    ...(stopType === 'STOP_LOSS_LIMIT' ? { price: Math.max(g.tick, stopPrice + (sell ? -1 : 1) * g.tick), timeInForce: 'GTC' as const } : {}),
    ...(p.stopTrailing ? { trailingDelta: g.trailingDeltas[p.trailIndex % g.trailingDeltas.length]! } : {}),
  });
  const pair: [OrderRequest, OrderRequest] = sell ? [limitLeg, stopLeg] : [stopLeg, limitLeg];
  return p.broken === 'swap' ? [pair[1], pair[0]] : pair;
}

function buildList(g: SymbolGen, p: ListParams): Pick<PlaceOrderList, 'kind' | 'legs' | 'listClientOrderId'> {
  const quantity = p.lots * g.lotSteps * g.step;
  let legs: OrderRequest[];
  if (p.kind === 'OCO') {
    legs = ocoPair(g, p, p.side, quantity);
  } else {
    const opo = p.kind === 'OPO' || p.kind === 'OPOCO';
    const workingSide: Side = opo ? 'BUY' : p.side;
    // Positive ticks rest passively; negative ones cross the spread and fill (activating the pending legs).
    const workingPrice = g.centerPrice + (workingSide === 'BUY' ? -1 : 1) * p.workingTicks * g.tick;
    const working: OrderRequest = p.workingMaker
      ? { side: workingSide, orderType: 'LIMIT_MAKER', price: workingPrice, quantity }
      : { side: workingSide, orderType: 'LIMIT', timeInForce: p.workingTif, price: workingPrice, quantity };
    // OTO-kinds: the pending side is the opposite of the working one (take profit on what it bought).
    const pendingSide: Side = opo ? 'SELL' : workingSide === 'BUY' ? 'SELL' : 'BUY';
    if (p.kind === 'OTO' || p.kind === 'OPO') {
      const pending = { ...buildRequest(g, { ...p.pending, side: pendingSide }) };
      delete pending.clientOrderId;
      delete pending.selfTradePreventionMode;
      if (opo) delete pending.quantity;
      legs = [working, pending];
    } else {
      legs = [working, ...ocoPair(g, p, pendingSide, opo ? undefined : quantity)];
    }
  }
  const stp = p.stp;
  if (stp !== undefined) legs = legs.map((l) => ({ ...l, selfTradePreventionMode: stp }));
  // Leg ids from the shared pool, distinct within the list (duplicates there are refused as a whole).
  if (p.legClientIds) legs = legs.map((l, i) => ({ ...l, clientOrderId: CLIENT_IDS[i]! }));
  const out: Pick<PlaceOrderList, 'kind' | 'legs' | 'listClientOrderId'> = { kind: p.kind, legs };
  if (p.listClientOrderId !== undefined) out.listClientOrderId = p.listClientOrderId;
  return out;
}

function placeOrderListArb(s: Scenario): fc.Arbitrary<Untimed<PlaceOrderList>> {
  return fc
    .record({ accountId: accountArb(s), symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }), params: listParamsArb() })
    .map((r) => {
      const g = s.gens[r.symbolIndex]!;
      return { type: 'PlaceOrderList' as const, accountId: r.accountId, symbol: g.symbol, ...buildList(g, r.params) };
    });
}

function cancelOrderListArb(s: Scenario): fc.Arbitrary<Untimed<CancelOrderList>> {
  return fc
    .record({
      accountId: accountArb(s),
      symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }),
      by: constantsWeighted<'id' | 'client' | 'both' | 'neither'>([6, 'id'], [3, 'client'], [1, 'both'], [1, 'neither']),
      // List ids are engine-wide and small in a 60-command run.
      orderListId: fc.integer({ min: 0, max: 12 }),
      listClientOrderId: fc.constantFrom(...LIST_CLIENT_IDS, 'nope'),
      newClientOrderId: optional(fc.constantFrom(...CANCEL_IDS), 3),
    })
    .map((r) => {
      const o: Untimed<CancelOrderList> = { type: 'CancelOrderList', accountId: r.accountId, symbol: s.gens[r.symbolIndex]!.symbol };
      if (r.by === 'id' || r.by === 'both') o.orderListId = r.orderListId;
      if (r.by === 'client' || r.by === 'both') o.listClientOrderId = r.listClientOrderId;
      if (r.newClientOrderId !== undefined) o.newClientOrderId = r.newClientOrderId;
      return o;
    });
}

function cancelReplaceArb(s: Scenario): fc.Arbitrary<Untimed<CancelReplaceOrder>> {
  return fc
    .record({
      accountId: accountArb(s),
      symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }),
      mode: fc.constantFrom<CancelReplaceMode>('STOP_ON_FAILURE', 'ALLOW_FAILURE'),
      by: constantsWeighted<'id' | 'client' | 'neither'>([8, 'id'], [4, 'client'], [1, 'neither']),
      orderId: fc.integer({ min: 1, max: 30 }),
      origClientOrderId: fc.constantFrom(...CLIENT_IDS, 'zz'),
      cancelNewClientOrderId: optional(fc.constantFrom(...CANCEL_IDS), 3),
      restriction: optional(fc.constantFrom<CancelRestriction>('ONLY_NEW', 'ONLY_PARTIALLY_FILLED'), 4),
      cancelOnly: weighted([8, fc.constant(false)], [1, fc.constant(true)]),
      params: requestParamsArb(FULL_SHAPES),
    })
    .map((r) => {
      const g = s.gens[r.symbolIndex]!;
      const o: Untimed<CancelReplaceOrder> = { type: 'CancelReplaceOrder', accountId: r.accountId, symbol: g.symbol, mode: r.mode, newOrder: buildRequest(g, r.params) };
      if (r.by === 'id') o.cancelOrderId = r.orderId;
      if (r.by === 'client') o.cancelOrigClientOrderId = r.origClientOrderId;
      if (r.cancelNewClientOrderId !== undefined) o.cancelNewClientOrderId = r.cancelNewClientOrderId;
      if (r.restriction !== undefined) o.cancelRestrictions = r.restriction;
      if (r.cancelOnly) o.cancelOnly = true;
      return o;
    });
}

function amendOrderArb(s: Scenario): fc.Arbitrary<Untimed<AmendOrder>> {
  return fc
    .record({
      accountId: accountArb(s),
      symbolIndex: fc.integer({ min: 0, max: s.gens.length - 1 }),
      by: constantsWeighted<'id' | 'client'>([3, 'id'], [1, 'client']),
      orderId: fc.integer({ min: 1, max: 30 }),
      origClientOrderId: fc.constantFrom(...CLIENT_IDS),
      // Small, so most amends reduce; some equal or exceed the order (refused), some go off the step grid.
      lots: fc.integer({ min: 1, max: 12 }),
      extraSteps: constantsWeighted([5, 0], [1, 1]),
      offGrid: weighted([12, fc.constant(false)], [1, fc.constant(true)]),
      newClientOrderId: optional(fc.constantFrom(...CLIENT_IDS, 'e'), 3),
    })
    .map((r) => {
      const g = s.gens[r.symbolIndex]!;
      const o: Untimed<AmendOrder> = {
        type: 'AmendOrder',
        accountId: r.accountId,
        symbol: g.symbol,
        newQuantity: (r.lots * g.lotSteps + r.extraSteps) * g.step + (r.offGrid ? 1 : 0),
      };
      if (r.by === 'id') o.orderId = r.orderId;
      else o.origClientOrderId = r.origClientOrderId;
      if (r.newClientOrderId !== undefined) o.newClientOrderId = r.newClientOrderId;
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
      // Swing prints reach the trailing stops' triggers (and come back: the centre prints dominate).
      swing: weighted([6, fc.constant(0)], [1, fc.integer({ min: -1000, max: 1000 })]),
      offGrid: weighted([5, fc.constant(0)], [1, fc.integer({ min: 1, max: 9 })]),
      lots: fc.integer({ min: 1, max: 5 }),
      isBuyerMaker: fc.boolean(),
    })
    .map(({ symbolIndex, ticks, swing, offGrid, lots, isBuyerMaker }) => {
      const g = s.gens[symbolIndex]!;
      const swingTicks = Math.trunc((swing * g.swingTicks) / 1000);
      return {
        type: 'RecordMarketTrade' as const,
        symbol: g.symbol,
        price: g.centerPrice + (swing === 0 ? ticks : swingTicks) * g.tick + offGrid,
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

/**
 * `plain`: the matching-core mix of the original properties (LIMIT / MARKET orders, cancels,
 * balances, statuses, market prints and fills). `full` (the default): the same plus stops,
 * trailing stops, icebergs, pegs, every order-list kind, list cancels, cancel-replace and amends,
 * with more market prints so waiting stops trigger.
 */
export type CommandMix = 'plain' | 'full';

function untimedCommandArb(s: Scenario, mix: CommandMix): fc.Arbitrary<UntimedCommand> {
  const full = mix === 'full';
  return weighted<UntimedCommand>(
    [62, placeOrderArb(s, full ? FULL_SHAPES : PLAIN_SHAPES)],
    [18, cancelOrderArb(s)],
    [3, cancelAllArb(s)],
    [5, adjustBalanceArb(s)],
    [1, symbolStatusArb(s)],
    [1, referencePriceArb(s)],
    [full ? 8 : 3, marketTradeArb(s)],
    [4, marketFillArb(s)],
    [1, createAccountArb(s)],
    [full ? 12 : 0, placeOrderListArb(s)],
    [full ? 4 : 0, cancelOrderListArb(s)],
    [full ? 6 : 0, cancelReplaceArb(s)],
    [full ? 6 : 0, amendOrderArb(s)],
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
  /** Which commands to generate (default `full`). */
  mix?: CommandMix;
}

/** A command stream (after the scenario's setup) with non-decreasing times starting at START_TIME. */
export function commandStreamArb(s: Scenario, options: StreamOptions = {}): fc.Arbitrary<EngineCommand[]> {
  return fc
    // size 'max': without it fast-check caps arrays near 10 elements whatever maxLength says.
    .array(fc.tuple(gapArb, untimedCommandArb(s, options.mix ?? 'full')), { minLength: options.minLength ?? 1, maxLength: options.maxLength ?? 60, size: 'max' })
    .map((steps) => {
      let time = START_TIME;
      return steps.map(([gap, command]) => {
        time += gap;
        return { ...command, time } as EngineCommand;
      });
    });
}
