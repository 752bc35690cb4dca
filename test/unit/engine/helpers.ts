/**
 * Helpers for the engine unit tests: decimal-to-units conversion, a small symbol config builder
 * and `Sim`, a thin driver around `Engine` that stamps every command with an increasing time
 * and lets tests speak in decimal strings ("100.25") instead of integer units.
 *
 * All assets use the default precision of 8 unless a test configures otherwise, so
 * `u('1.5') === 150_000_000` for prices, quantities and balances alike.
 */
import { afterEach, expect } from 'vitest';
import type { CreateAccount, EngineCommand, PlaceOrder } from '../../../src/engine/commands.ts';
import { Engine } from '../../../src/engine/engine.ts';
import type {
  EngineEvent,
  MatchPrevented,
  OrderAccepted,
  OrderCanceled,
  OrderExpired,
  OrderRejected,
  TradeExecuted,
} from '../../../src/engine/events.ts';
import type { RejectReason } from '../../../src/engine/reject-reason.ts';
import type { EngineConfig, SymbolConfig, SymbolFilter } from '../../../src/engine/symbol-config.ts';
import type { SelfTradePreventionMode, Side, TimeInForce } from '../../../src/engine/types.ts';
import { parseUnits } from '../../../src/engine/units.ts';
import type { OrderView } from '../../../src/engine/views.ts';

/** Decimal string to integer units at `precision` decimals; throws on a value that does not fit. */
export function u(decimal: string, precision = 8): number {
  const n = parseUnits(decimal, precision);
  if (n === null) throw new Error(`test helper: "${decimal}" is not a decimal with at most ${precision} places`);
  return n;
}

/** Price in quote units (precision 8). */
export const px = (decimal: string): number => u(decimal);
/** Quantity in base units (precision 8). */
export const qty = (decimal: string): number => u(decimal);
/** A rate or multiplier ("0.001") in the engine's 1e-8 units (100000). */
export const rate = (decimal: string): number => u(decimal, 8);

export const MICROS_PER_MINUTE = 60_000_000;

export const ALL_STP: readonly SelfTradePreventionMode[] = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER'];

export function priceFilter(minPrice: string, maxPrice: string, tickSize: string): SymbolFilter {
  return { filterType: 'PRICE_FILTER', minPrice, maxPrice, tickSize };
}

export function lotSize(minQty: string, maxQty: string, stepSize: string): SymbolFilter {
  return { filterType: 'LOT_SIZE', minQty, maxQty, stepSize };
}

/** The default grid of the unit tests: tick 0.01, step 0.001, no other filter. */
export const BASE_FILTERS: readonly SymbolFilter[] = [priceFilter('0.01', '1000000', '0.01'), lotSize('0.001', '100000', '0.001')];

/**
 * BTCUSDT with tick 0.01 and step 0.001 (notionals are whole quote units), every STP mode
 * allowed, default STP mode NONE. `extraFilters` are appended to (or replace) the base grid.
 */
export function symbolConfig(overrides: Partial<SymbolConfig> = {}, extraFilters: readonly SymbolFilter[] = []): SymbolConfig {
  const byType = new Map(extraFilters.map((f) => [f.filterType, f] as const));
  const filters = BASE_FILTERS.map((f) => byType.get(f.filterType) ?? f);
  for (const f of extraFilters) if (!BASE_FILTERS.some((b) => b.filterType === f.filterType)) filters.push(f);
  return {
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    filters,
    defaultSelfTradePreventionMode: 'NONE',
    allowedSelfTradePreventionModes: [...ALL_STP],
    ...overrides,
  };
}

type WithoutTime<T> = T extends unknown ? Omit<T, 'time'> & { time?: number } : never;
export type TimelessCommand = WithoutTime<EngineCommand>;

export interface PlaceArgs {
  side: Side;
  type?: PlaceOrder['orderType'];
  /** Decimal strings; omitted fields are omitted from the command. */
  price?: string;
  qty?: string;
  quoteQty?: string;
  tif?: TimeInForce;
  clientOrderId?: string;
  stp?: SelfTradePreventionMode;
  symbol?: string;
  time?: number;
  stopPrice?: string;
  trailingDelta?: number;
  icebergQty?: string;
  peg?: 'PRIMARY_PEG' | 'MARKET_PEG';
  pegOffset?: number;
}

/** What a PlaceOrder produced, picked apart by event type. */
export interface PlaceResult {
  events: readonly EngineEvent[];
  accepted: OrderAccepted | undefined;
  rejected: OrderRejected | undefined;
  trades: TradeExecuted[];
  prevented: MatchPrevented[];
  expired: OrderExpired[];
  /** The new order's id (throws if the order was rejected). */
  orderId: number;
}

function pick(events: readonly EngineEvent[]): PlaceResult {
  const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted');
  return {
    events,
    accepted,
    rejected: events.find((e): e is OrderRejected => e.type === 'OrderRejected'),
    trades: events.filter((e): e is TradeExecuted => e.type === 'TradeExecuted'),
    prevented: events.filter((e): e is MatchPrevented => e.type === 'MatchPrevented'),
    expired: events.filter((e): e is OrderExpired => e.type === 'OrderExpired'),
    get orderId(): number {
      if (!accepted) throw new Error(`order was not accepted: ${JSON.stringify(events)}`);
      return accepted.orderId;
    },
  };
}

/** Every Sim of the running test: after each test their engines must pass checkInvariants. */
const liveSims: Sim[] = [];
afterEach(() => {
  const sims = liveSims.splice(0);
  for (const sim of sims) sim.engine.checkInvariants();
});

/** Drives an Engine with increasing timestamps (1 µs apart unless told otherwise). */
export class Sim {
  readonly engine: Engine;
  readonly config: EngineConfig;
  /** Time of the next command, µs. */
  now = 1_700_000_000_000_000;
  readonly symbol: string;

  constructor(config: EngineConfig | SymbolConfig = symbolConfig()) {
    this.config = 'symbols' in config ? config : { symbols: [config] };
    this.engine = new Engine(this.config);
    liveSims.push(this);
    this.symbol = this.config.symbols[0]?.symbol ?? 'BTCUSDT';
  }

  /** Moves the clock forward (µs). */
  advance(micros: number): void {
    this.now += micros;
  }

  advanceMinutes(mins: number): void {
    this.now += mins * MICROS_PER_MINUTE;
  }

  apply(command: TimelessCommand): readonly EngineEvent[] {
    const time = command.time ?? (this.now += 1);
    if (command.time !== undefined) this.now = Math.max(this.now, command.time);
    return this.engine.apply({ ...command, time } as EngineCommand);
  }

  /** Creates an account funded with decimal balances (precision 8). */
  createAccount(accountId: number, balances: Readonly<Record<string, string>> = {}, extra: Partial<Omit<CreateAccount, 'type' | 'time' | 'accountId' | 'balances'>> = {}): void {
    const units: Record<string, number> = {};
    for (const [asset, amount] of Object.entries(balances)) units[asset] = u(amount);
    const events = this.apply({ type: 'CreateAccount', accountId, balances: units, ...extra });
    expect(events.map((e) => e.type)).toEqual(['AccountCreated']);
  }

  placeCommand(accountId: number, args: PlaceArgs): Omit<PlaceOrder, 'time'> & { time?: number } {
    const command: Omit<PlaceOrder, 'time'> & { time?: number } = {
      type: 'PlaceOrder',
      accountId,
      symbol: args.symbol ?? this.symbol,
      side: args.side,
      orderType: args.type ?? 'LIMIT',
    };
    if (args.price !== undefined) command.price = u(args.price);
    if (args.qty !== undefined) command.quantity = u(args.qty);
    if (args.quoteQty !== undefined) command.quoteOrderQty = u(args.quoteQty);
    if (args.stopPrice !== undefined) command.stopPrice = u(args.stopPrice);
    if (args.trailingDelta !== undefined) command.trailingDelta = args.trailingDelta;
    if (args.icebergQty !== undefined) command.icebergQty = u(args.icebergQty);
    if (args.peg !== undefined) command.pegPriceType = args.peg;
    if (args.pegOffset !== undefined) command.pegOffsetValue = args.pegOffset;
    const needsTif = command.orderType === 'LIMIT' || command.orderType === 'STOP_LOSS_LIMIT' || command.orderType === 'TAKE_PROFIT_LIMIT';
    const tif = args.tif ?? (needsTif ? 'GTC' : undefined);
    if (tif !== undefined) command.timeInForce = tif;
    if (args.clientOrderId !== undefined) command.clientOrderId = args.clientOrderId;
    if (args.stp !== undefined) command.selfTradePreventionMode = args.stp;
    if (args.time !== undefined) command.time = args.time;
    return command;
  }

  place(accountId: number, args: PlaceArgs): PlaceResult {
    return pick(this.apply(this.placeCommand(accountId, args)));
  }

  /** LIMIT GTC BUY. */
  buy(accountId: number, quantity: string, price: string, extra: Partial<PlaceArgs> = {}): PlaceResult {
    return this.place(accountId, { side: 'BUY', qty: quantity, price, ...extra });
  }

  /** LIMIT GTC SELL. */
  sell(accountId: number, quantity: string, price: string, extra: Partial<PlaceArgs> = {}): PlaceResult {
    return this.place(accountId, { side: 'SELL', qty: quantity, price, ...extra });
  }

  marketBuy(accountId: number, quantity: string, extra: Partial<PlaceArgs> = {}): PlaceResult {
    return this.place(accountId, { side: 'BUY', type: 'MARKET', qty: quantity, ...extra });
  }

  marketSell(accountId: number, quantity: string, extra: Partial<PlaceArgs> = {}): PlaceResult {
    return this.place(accountId, { side: 'SELL', type: 'MARKET', qty: quantity, ...extra });
  }

  cancel(accountId: number, ref: { orderId?: number; origClientOrderId?: string; newClientOrderId?: string; cancelRestrictions?: 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED'; symbol?: string }): readonly EngineEvent[] {
    const { symbol, ...rest } = ref;
    return this.apply({ type: 'CancelOrder', accountId, symbol: symbol ?? this.symbol, ...rest });
  }

  /** Free and locked balance of an asset, in units. */
  balance(accountId: number, asset: string): { free: number; locked: number } {
    const account = this.engine.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const b = account.balances.find((x) => x.asset === asset);
    return { free: b?.free ?? 0, locked: b?.locked ?? 0 };
  }

  order(accountId: number, orderId: number, symbol = this.symbol): OrderView {
    const view = this.engine.getOrder(accountId, symbol, { orderId });
    if (!view) throw new Error(`no order ${orderId} of account ${accountId} on ${symbol}`);
    return view;
  }
}

/** The single OrderRejected of a refused command, with its reason. */
export function rejectionOf(events: readonly EngineEvent[]): RejectReason {
  expect(events).toHaveLength(1);
  const e = events[0];
  if (e?.type !== 'OrderRejected') throw new Error(`expected OrderRejected, got ${JSON.stringify(events)}`);
  return e.reason;
}

export function types(events: readonly EngineEvent[]): string[] {
  return events.map((e) => e.type);
}

export function canceledEvents(events: readonly EngineEvent[]): OrderCanceled[] {
  return events.filter((e): e is OrderCanceled => e.type === 'OrderCanceled');
}

/** Asserts that a command is refused with `reason` and that nothing else changed. */
export function expectRejectedWithoutChange(sim: Sim, command: TimelessCommand, reason: RejectReason): void {
  // A later timestamp than the previous command: the refusal must not change the state even
  // though time moved on.
  const before = sim.engine.stateHash();
  const { time: _ignored, ...timeless } = command;
  if (timeless.type === 'PlaceOrder') {
    // The dry run (order/test) must refuse for the same reason, except for funds, which it skips.
    const dryRun = sim.engine.placementRefusal({ ...timeless, time: sim.now + 1 });
    expect(dryRun).toBe(reason === 'INSUFFICIENT_BALANCE' ? null : reason);
    expect(sim.engine.stateHash()).toBe(before);
  }
  const events = sim.apply(timeless as TimelessCommand);
  expect(rejectionOf(events)).toBe(reason);
  expect(sim.engine.stateHash()).toBe(before);
}
