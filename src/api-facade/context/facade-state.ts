/**
 * The facade's own state beyond the engine, as plain data: what a served exchange's journal
 * records so a restart answers exactly as before: rate limits (request weight and raw requests
 * per IP with their 429/418 episodes and bans, unfilled order counts per account, the keyed
 * limits; the USDⓈ-M limits, algo book and countdownCancelAll timers), how far the seeded fault
 * stream has been drawn, the API keys registered while serving
 * (the control plane's POST /exsim/v1/accounts), fiat deposit records, the pay ledger and equity
 * disclaimer acceptances. It lives here, beside the state it reads, so that whoever adds state to
 * the facade adds it here too; the served exchange (src/serve) only writes and reads it back.
 *
 * Not here: listen keys (secrets, re-issued after a restart), user stream subscriptions
 * (connections), fiat settings (set by tests and scenarios, never by a request). A fiat deposit's
 * balance is an engine command, journaled as one.
 *
 * The record lists are append-only, keyed by their ids; a change carries the new rows only, and
 * the optional fields are left out when empty (a journal line stays small; journals written
 * before they existed still read).
 */
import type { ExchangeContext } from './exchange-context.ts';
import type { CountersSnapshot, IpSnapshot, KeyedLimitName } from '../limits/index.ts';
import type { StoredApiKey } from '../signing/index.ts';
import type { FiatDeposit, PaymentRecord } from '../account-services/index.ts';
import type { AlgoBookSnapshot } from '../../futures/index.ts';
import type { CountdownEntry } from './futures-countdowns.ts';
import type { PriceMatchRow } from './futures-price-match.ts';

export interface FacadeState {
  readonly weight: IpSnapshot[];
  readonly orders: [string, CountersSnapshot][];
  readonly keyed: [KeyedLimitName, [string, CountersSnapshot][]][];
  readonly faultDraws: number;
  /** The /fapi rows' own limiters (weight per IP, orders per account); absent when unused. */
  readonly futuresWeight?: IpSnapshot[];
  readonly futuresOrders?: [string, CountersSnapshot][];
  /** The USDⓈ-M algo book, whole, when it changed (a full line: when it has anything). */
  readonly futuresAlgo?: AlgoBookSnapshot;
  /** Running countdownCancelAll timers, whole, when they changed. */
  readonly futuresCountdowns?: CountdownEntry[];
  /** Orders priced by priceMatch: [engine symbol, orderId, mode], append-only (new rows in a change). */
  readonly futuresPriceMatch?: PriceMatchRow[];
  /** API keys registered after the start, in order. */
  readonly apiKeys?: StoredApiKey[];
  readonly fiatDeposits?: FiatDeposit[];
  readonly payments?: PaymentRecord[];
  /** Equity disclaimer acceptances: [accountId, µs]. */
  readonly disclaimers?: [number, number][];
}

/** The optional record lists of a state, each only when it has rows. */
function records(apiKeys: StoredApiKey[], fiatDeposits: FiatDeposit[], payments: PaymentRecord[], disclaimers: [number, number][]): Partial<FacadeState> {
  return {
    ...(apiKeys.length === 0 ? {} : { apiKeys }),
    ...(fiatDeposits.length === 0 ? {} : { fiatDeposits }),
    ...(payments.length === 0 ? {} : { payments }),
    ...(disclaimers.length === 0 ? {} : { disclaimers }),
  };
}

/** The futures limiters' rows, each list only when it has rows (journals written before them still read). */
function futuresLimits(weight: IpSnapshot[], orders: [string, CountersSnapshot][]): Partial<FacadeState> {
  return {
    ...(weight.length === 0 ? {} : { futuresWeight: weight }),
    ...(orders.length === 0 ? {} : { futuresOrders: orders }),
  };
}

/** The algo book for a full line: absent while it never held an order (spot-only journals unchanged). */
function fullBook(ctx: ExchangeContext): AlgoBookSnapshot | undefined {
  const book = ctx.futuresAlgo.book.snapshot();
  return book.orders.length === 0 ? undefined : book;
}

function fullCountdowns(ctx: ExchangeContext): CountdownEntry[] | undefined {
  const entries = ctx.futuresCountdowns.entries();
  return entries.length === 0 ? undefined : entries;
}

function priceMatches(rows: PriceMatchRow[]): Partial<FacadeState> {
  return rows.length === 0 ? {} : { futuresPriceMatch: rows };
}

function futuresTrading(book: AlgoBookSnapshot | undefined, countdowns: CountdownEntry[] | undefined): Partial<FacadeState> {
  return {
    ...(book === undefined ? {} : { futuresAlgo: book }),
    ...(countdowns === undefined ? {} : { futuresCountdowns: countdowns }),
  };
}

/** Whether `change` (captureFacadeChanges) holds nothing new, given the fault draws already journaled. */
export function isEmptyFacadeChange(change: FacadeState, faultDrawsBefore: number): boolean {
  return (
    change.weight.length === 0 &&
    change.orders.length === 0 &&
    change.keyed.length === 0 &&
    change.faultDraws === faultDrawsBefore &&
    change.futuresWeight === undefined &&
    change.futuresOrders === undefined &&
    change.futuresAlgo === undefined &&
    change.futuresCountdowns === undefined &&
    change.futuresPriceMatch === undefined &&
    change.apiKeys === undefined &&
    change.fiatDeposits === undefined &&
    change.payments === undefined &&
    change.disclaimers === undefined
  );
}

export function captureFacadeState(ctx: ExchangeContext): FacadeState {
  const names = Object.keys(ctx.keyedLimiters).sort() as KeyedLimitName[];
  return {
    weight: ctx.weightLimiter.snapshot(),
    orders: ctx.orderLimiter.snapshot(),
    keyed: names.map((name) => [name, ctx.keyedLimiters[name].snapshot()]),
    faultDraws: ctx.faults.draws,
    ...futuresLimits(ctx.futuresWeightLimiter.snapshot(), ctx.futuresOrderLimiter.snapshot()),
    ...futuresTrading(fullBook(ctx), fullCountdowns(ctx)),
    ...priceMatches(ctx.futuresPriceMatch.all()),
    ...records(ctx.apiKeys.registered.all(), ctx.fiat.log.all(), ctx.pay.log.all(), ctx.equityDisclaimers.entries()),
  };
}

/**
 * What changed since the last call (the keys a request touched: its IP, its account, its UID),
 * as a FacadeState of those rows only; a journal line per request stays small however many
 * accounts and IPs the exchange has. Empty lists and the same faultDraws: nothing changed.
 */
export function captureFacadeChanges(ctx: ExchangeContext): FacadeState {
  const names = Object.keys(ctx.keyedLimiters).sort() as KeyedLimitName[];
  const keyed: [KeyedLimitName, [string, CountersSnapshot][]][] = [];
  for (const name of names) {
    const rows = ctx.keyedLimiters[name].takeChanged();
    if (rows.length > 0) keyed.push([name, rows]);
  }
  return {
    weight: ctx.weightLimiter.takeChanged(),
    orders: ctx.orderLimiter.takeChanged(),
    keyed,
    faultDraws: ctx.faults.draws,
    ...futuresLimits(ctx.futuresWeightLimiter.takeChanged(), ctx.futuresOrderLimiter.takeChanged()),
    ...futuresTrading(ctx.futuresAlgo.book.takeChanged(), ctx.futuresCountdowns.takeChanged()),
    ...priceMatches(ctx.futuresPriceMatch.takeNew()),
    ...records(ctx.apiKeys.registered.takeNew(), ctx.fiat.log.takeNew(), ctx.pay.log.takeNew(), ctx.equityDisclaimers.takeChanged()),
  };
}

/** Folds journaled changes, in order, into the whole state (a restore). */
export class FacadeStateMerger {
  readonly #weight = new Map<string, IpSnapshot>();
  readonly #orders = new Map<string, CountersSnapshot>();
  readonly #futuresWeight = new Map<string, IpSnapshot>();
  readonly #futuresOrders = new Map<string, CountersSnapshot>();
  #futuresAlgo: AlgoBookSnapshot | undefined;
  #futuresCountdowns: CountdownEntry[] | undefined;
  readonly #futuresPriceMatch: PriceMatchRow[] = [];
  readonly #keyed = new Map<KeyedLimitName, Map<string, CountersSnapshot>>();
  #faultDraws = 0;
  #any = false;
  readonly #apiKeys = new Map<string, StoredApiKey>();
  readonly #fiatDeposits = new Map<string, FiatDeposit>();
  readonly #payments = new Map<string, PaymentRecord>();
  readonly #disclaimers = new Map<number, number>();

  merge(change: FacadeState): void {
    this.#any = true;
    for (const row of change.weight) this.#weight.set(row[0], row);
    for (const [key, counters] of change.orders) this.#orders.set(key, counters);
    for (const row of change.futuresWeight ?? []) this.#futuresWeight.set(row[0], row);
    for (const [key, counters] of change.futuresOrders ?? []) this.#futuresOrders.set(key, counters);
    // Whole values: the latest wins.
    if (change.futuresAlgo !== undefined) this.#futuresAlgo = change.futuresAlgo;
    if (change.futuresCountdowns !== undefined) this.#futuresCountdowns = change.futuresCountdowns;
    this.#futuresPriceMatch.push(...(change.futuresPriceMatch ?? []));
    for (const [name, rows] of change.keyed) {
      let map = this.#keyed.get(name);
      if (map === undefined) this.#keyed.set(name, (map = new Map()));
      for (const [key, counters] of rows) map.set(key, counters);
    }
    this.#faultDraws = change.faultDraws;
    for (const key of change.apiKeys ?? []) this.#apiKeys.set(key.apiKey, key);
    for (const deposit of change.fiatDeposits ?? []) this.#fiatDeposits.set(deposit.orderId, deposit);
    for (const payment of change.payments ?? []) this.#payments.set(payment.transactionId, payment);
    for (const [accountId, time] of change.disclaimers ?? []) if (!this.#disclaimers.has(accountId)) this.#disclaimers.set(accountId, time);
  }

  /** The merged state; null when nothing was merged. */
  result(): FacadeState | null {
    if (!this.#any) return null;
    return {
      weight: [...this.#weight.values()],
      orders: [...this.#orders],
      keyed: [...this.#keyed].map(([name, map]) => [name, [...map]]),
      faultDraws: this.#faultDraws,
      ...futuresLimits([...this.#futuresWeight.values()], [...this.#futuresOrders]),
      ...priceMatches([...this.#futuresPriceMatch]),
      ...futuresTrading(this.#futuresAlgo !== undefined && this.#futuresAlgo.orders.length > 0 ? this.#futuresAlgo : undefined, this.#futuresCountdowns !== undefined && this.#futuresCountdowns.length > 0 ? this.#futuresCountdowns : undefined),
      // Map order is first-merge order: the order the records were made in.
      ...records([...this.#apiKeys.values()], [...this.#fiatDeposits.values()], [...this.#payments.values()], [...this.#disclaimers]),
    };
  }
}

export function restoreFacadeState(ctx: ExchangeContext, state: FacadeState): void {
  ctx.weightLimiter.restore(state.weight);
  ctx.orderLimiter.restore(state.orders);
  ctx.futuresWeightLimiter.restore(state.futuresWeight ?? []);
  ctx.futuresOrderLimiter.restore(state.futuresOrders ?? []);
  ctx.futuresAlgo.book.restore(state.futuresAlgo ?? { nextId: 1, orders: [] });
  ctx.futuresCountdowns.restore(state.futuresCountdowns ?? []);
  ctx.futuresPriceMatch.restore(state.futuresPriceMatch ?? []);
  for (const [name, rows] of state.keyed) ctx.keyedLimiters[name]?.restore(rows);
  ctx.faults.skipTo(state.faultDraws);
  ctx.apiKeys.restoreRegistered(state.apiKeys ?? []);
  ctx.fiat.log.restore(state.fiatDeposits ?? []);
  ctx.pay.log.restore(state.payments ?? []);
  ctx.equityDisclaimers.restore(state.disclaimers ?? []);
}
