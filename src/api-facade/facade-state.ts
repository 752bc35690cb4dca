/**
 * The facade's own state beyond the engine, as plain data: what a served exchange's journal
 * records so a restart answers rate limits exactly as before (request weight and raw requests
 * per IP with their 429/418 episodes and bans, unfilled order counts per account, the keyed
 * limits), and how far the seeded fault stream has been drawn.
 *
 * Not here: listen keys (secrets, re-issued after a restart), user stream subscriptions
 * (connections), fiat deposit records, the pay ledger and equity disclaimers (not yet journaled;
 * a fiat deposit's balance is an engine command and is restored).
 */
import type { ExchangeContext } from './exchange-context.ts';
import type { CountersSnapshot } from './limits/fixed-window-counters.ts';
import type { IpSnapshot } from './limits/request-weight-limiter.ts';
import type { KeyedLimitName } from './limits/keyed-weight-limiter.ts';

export interface FacadeState {
  readonly weight: IpSnapshot[];
  readonly orders: [string, CountersSnapshot][];
  readonly keyed: [KeyedLimitName, [string, CountersSnapshot][]][];
  readonly faultDraws: number;
}

export function captureFacadeState(ctx: ExchangeContext): FacadeState {
  const names = Object.keys(ctx.keyedLimiters).sort() as KeyedLimitName[];
  return {
    weight: ctx.weightLimiter.snapshot(),
    orders: ctx.orderLimiter.snapshot(),
    keyed: names.map((name) => [name, ctx.keyedLimiters[name].snapshot()]),
    faultDraws: ctx.faults.draws,
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
  return { weight: ctx.weightLimiter.takeChanged(), orders: ctx.orderLimiter.takeChanged(), keyed, faultDraws: ctx.faults.draws };
}

/** Folds journaled changes, in order, into the whole state (a restore). */
export class FacadeStateMerger {
  readonly #weight = new Map<string, IpSnapshot>();
  readonly #orders = new Map<string, CountersSnapshot>();
  readonly #keyed = new Map<KeyedLimitName, Map<string, CountersSnapshot>>();
  #faultDraws = 0;
  #any = false;

  merge(change: FacadeState): void {
    this.#any = true;
    for (const row of change.weight) this.#weight.set(row[0], row);
    for (const [key, counters] of change.orders) this.#orders.set(key, counters);
    for (const [name, rows] of change.keyed) {
      let map = this.#keyed.get(name);
      if (map === undefined) this.#keyed.set(name, (map = new Map()));
      for (const [key, counters] of rows) map.set(key, counters);
    }
    this.#faultDraws = change.faultDraws;
  }

  /** The merged state; null when nothing was merged. */
  result(): FacadeState | null {
    if (!this.#any) return null;
    return {
      weight: [...this.#weight.values()],
      orders: [...this.#orders],
      keyed: [...this.#keyed].map(([name, map]) => [name, [...map]]),
      faultDraws: this.#faultDraws,
    };
  }
}

export function restoreFacadeState(ctx: ExchangeContext, state: FacadeState): void {
  ctx.weightLimiter.restore(state.weight);
  ctx.orderLimiter.restore(state.orders);
  for (const [name, rows] of state.keyed) ctx.keyedLimiters[name]?.restore(rows);
  ctx.faults.skipTo(state.faultDraws);
}
