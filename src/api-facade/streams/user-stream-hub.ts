/**
 * Delivers user data stream events to subscribers, per account, at simulated time: the
 * WebSocket server (one subscription per open listen-key connection) and in-process strategies
 * subscribe; the facade publishes every batch of engine events it causes or observes (commands
 * sent through it, fills the replayed market gives resting orders).
 *
 * Nothing is computed while nobody listens, so backtests without a stream pay nothing. Execution
 * ids rise per symbol from 1 across batches, as the exchange numbers them.
 */
import type { EngineEvent, EngineQueries as Engine } from '../../engine/index.ts';
import type { TimeUnit } from '../serialize/index.ts';
import { userStreamEvents, type UserStreamContext, type UserStreamEvent } from './user-stream-events.ts';

/** What a hub's stream says for one batch: spot's (userStreamEvents) or the futures one. */
export type StreamEventsOf = (events: readonly EngineEvent[], ctx: UserStreamContext) => Map<number, UserStreamEvent[]>;

export type UserStreamListener = (event: UserStreamEvent) => void;

interface Subscription {
  readonly listener: UserStreamListener;
  readonly unit: TimeUnit;
}

export class UserStreamHub {
  readonly #engine: Engine;
  readonly #assetPrecision: (asset: string) => number;
  readonly #subscriptions = new Map<number, Subscription[]>();
  readonly #executionIds = new Map<string, number>();
  #count = 0;

  readonly #eventsOf: StreamEventsOf;

  /** `eventsOf`: spot's stream by default; the USDⓈ-M stream's hub passes futuresUserStreamEvents. */
  constructor(engine: Engine, assetPrecision: (asset: string) => number, eventsOf: StreamEventsOf = userStreamEvents) {
    this.#engine = engine;
    this.#assetPrecision = assetPrecision;
    this.#eventsOf = eventsOf;
  }

  /** Subscriptions open across all accounts. */
  get subscribers(): number {
    return this.#count;
  }

  /** Calls `listener` with every event of `accountId` from now on; returns the unsubscribe. */
  subscribe(accountId: number, listener: UserStreamListener, unit: TimeUnit = 'MILLISECOND'): () => void {
    const subscription = { listener, unit };
    const list = this.#subscriptions.get(accountId) ?? [];
    list.push(subscription);
    this.#subscriptions.set(accountId, list);
    this.#count++;
    return () => {
      const current = this.#subscriptions.get(accountId);
      const at = current?.indexOf(subscription) ?? -1;
      if (current === undefined || at < 0) return;
      current.splice(at, 1);
      this.#count--;
      if (current.length === 0) this.#subscriptions.delete(accountId);
    };
  }

  /**
   * Delivers an event the facade made itself (ALGO_UPDATE: the algo book lives outside the
   * engine) to the account's subscribers, built once per time unit.
   */
  publishOwn(accountId: number, build: (unit: TimeUnit) => UserStreamEvent): void {
    const subscriptions = this.#subscriptions.get(accountId);
    if (subscriptions === undefined) return;
    const byUnit = new Map<TimeUnit, UserStreamEvent>();
    for (const { listener, unit } of [...subscriptions]) {
      let event = byUnit.get(unit);
      if (event === undefined) byUnit.set(unit, (event = build(unit)));
      listener(event);
    }
  }

  publish(events: readonly EngineEvent[]): void {
    if (this.#count === 0 || events.length === 0) return;
    // Execution ids are drawn once per batch whatever the number of subscribers or time units.
    const byUnit = new Map<TimeUnit, Map<number, UserStreamEvent[]>>();
    const ids = new Map<string, number>();
    const nextExecutionId = (symbol: string): number => {
      const id = (ids.get(symbol) ?? this.#executionIds.get(symbol) ?? 0) + 1;
      ids.set(symbol, id);
      return id;
    };
    for (const [accountId, subscriptions] of this.#subscriptions) {
      for (const { listener, unit } of [...subscriptions]) {
        let perAccount = byUnit.get(unit);
        if (perAccount === undefined) {
          ids.clear();
          perAccount = this.#eventsOf(events, { engine: this.#engine, unit, assetPrecision: this.#assetPrecision, nextExecutionId });
          byUnit.set(unit, perAccount);
        }
        for (const event of perAccount.get(accountId) ?? []) listener(event);
      }
    }
    for (const [symbol, id] of ids) this.#executionIds.set(symbol, id);
  }
}
