/**
 * POST /fapi/v1/countdownCancelAll's timers (futures facts §2): per account and margin symbol, a
 * deadline on simulated time at which every open order of the symbol is canceled, unless the
 * client sends the countdown again first (a heartbeat) or stops it with 0.
 *
 * Firing: at the deadline through the backend's scheduler when it has one (a replay: exact, as
 * Binance checks every 10 ms), else at the first /fapi request at or after it (a bare engine's
 * time only moves between requests, so nothing can be observed earlier). The cancel is an engine
 * CancelAllOrders, published like any command (CANCELED on the futures stream).
 * The served exchange journals the running countdowns (facade-state.ts) and restores them.
 */
import type { FacadeCommand } from '../core/index.ts';
import type { EngineEvent, EngineQueries } from '../../engine/index.ts';

export interface CountdownHost {
  readonly engine: EngineQueries;
  apply(command: FacadeCommand): readonly EngineEvent[];
  readonly schedule: ((time: number, action: () => void) => void) | undefined;
}

/** One running countdown: [accountId, engine symbol, deadline µs]. */
export type CountdownEntry = [number, string, number];

export class FuturesCountdowns {
  readonly #host: CountdownHost;
  /** `${accountId} ${symbol}` → deadline µs. */
  readonly #deadlines = new Map<string, { readonly accountId: number; readonly symbol: string; readonly at: number }>();
  #dirty = false;

  /** Every running countdown, in the order they were set. */
  entries(): CountdownEntry[] {
    return [...this.#deadlines.values()].map((e) => [e.accountId, e.symbol, e.at]);
  }

  /** The whole list when it changed since the last call, else undefined. */
  takeChanged(): CountdownEntry[] | undefined {
    if (!this.#dirty) return undefined;
    this.#dirty = false;
    return this.entries();
  }

  /** Puts journaled countdowns back (and on the scheduler, when the backend has one). */
  restore(entries: readonly CountdownEntry[]): void {
    this.#deadlines.clear();
    for (const [accountId, symbol, at] of entries) this.#arm(accountId, symbol, at);
    this.#dirty = false;
  }

  constructor(host: CountdownHost) {
    this.#host = host;
  }

  /** Sets (countdown > 0) or stops (0) the account's countdown on an engine symbol. */
  set(accountId: number, symbol: string, countdownUs: number, nowUs: number): void {
    this.#dirty = true;
    if (countdownUs === 0) {
      this.#deadlines.delete(`${accountId} ${symbol}`);
      return;
    }
    this.#arm(accountId, symbol, nowUs + countdownUs);
  }

  #arm(accountId: number, symbol: string, at: number): void {
    const key = `${accountId} ${symbol}`;
    const entry = { accountId, symbol, at };
    this.#deadlines.delete(key); // re-set: it moves to the end (the order set)
    this.#deadlines.set(key, entry);
    this.#host.schedule?.(at, () => {
      if (this.#deadlines.get(key) === entry) this.#fire(key, entry);
    });
  }

  /** Fires every countdown due by `nowUs` (hosts without a scheduler call this before /fapi requests). */
  fireDue(nowUs: number): void {
    if (this.#deadlines.size === 0) return;
    for (const [key, entry] of [...this.#deadlines]) if (entry.at <= nowUs) this.#fire(key, entry);
  }

  #fire(key: string, entry: { readonly accountId: number; readonly symbol: string }): void {
    this.#deadlines.delete(key);
    this.#dirty = true;
    if (this.#host.engine.openOrders(entry.accountId, entry.symbol).length === 0) return;
    this.#host.apply({ type: 'CancelAllOrders', accountId: entry.accountId, symbol: entry.symbol });
  }
}
