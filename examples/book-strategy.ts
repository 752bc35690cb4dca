/**
 * Example 3: a bot that streams instead of polling. It keeps a local order book from the
 * diff-depth stream (`btcusdt@depth@100ms`) with Binance's documented recipe (buffer the events,
 * take a REST snapshot, drop events with u <= lastUpdateId, apply the rest in order, check that
 * each U follows the previous u), and learns of its fills from its user data events
 * (executionReport), never from polling.
 *
 * Trading rule: when the best `levels` bids hold `imbalance` times the quantity of the best
 * `levels` asks and it holds nothing, it bids `size` at the best bid (LIMIT_MAKER); once that
 * fills it offers the same size `edge` (a fraction) above its entry (LIMIT_MAKER). A bid that
 * waits more than `patience` seconds is canceled.
 *
 *   exsim backtest book --param imbalance=1.15,levels=5,size=0.01,edge=0.0005
 *
 * `LocalOrderBook` takes the stream's messages as they come (here from `ctx.stream`; from a
 * WebSocket's `message` handler against `exsim serve` the same way).
 */
import type { StrategyContext } from 'exsim';

export const description = 'order-book imbalance maker: a local book from the diff-depth stream, fills from executionReports';

export const params = { imbalance: '1.15', levels: '5', size: '0.01', edge: '0.0005', patience: '30' };

interface DepthUpdate {
  readonly U: number;
  readonly u: number;
  readonly b: readonly (readonly [string, string])[];
  readonly a: readonly (readonly [string, string])[];
}

interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly (readonly [string, string])[];
  readonly asks: readonly (readonly [string, string])[];
}

/** A book rebuilt from diff-depth events on top of a REST snapshot (Binance's recipe). */
export class LocalOrderBook {
  readonly bids = new Map<string, number>();
  readonly asks = new Map<string, number>();
  #buffer: DepthUpdate[] = [];
  #lastId = -1;
  #lastU = -1;

  /** The id of the book's state: the snapshot's lastUpdateId, then the last event's u (-1 before the snapshot). */
  get lastUpdateId(): number {
    return this.#lastU >= 0 ? this.#lastU : this.#lastId;
  }

  /** True once a snapshot was applied. */
  get ready(): boolean {
    return this.#lastId >= 0;
  }

  /** One diff-depth message. */
  onDepthUpdate(message: unknown): void {
    const event = message as DepthUpdate;
    if (!this.ready) {
      this.#buffer.push(event);
      return;
    }
    this.#apply(event);
  }

  /** The REST snapshot (GET /api/v3/depth); buffered events after it are applied. */
  onSnapshot(snapshot: DepthSnapshot): void {
    this.bids.clear();
    this.asks.clear();
    for (const [p, q] of snapshot.bids) this.bids.set(p, Number(q));
    for (const [p, q] of snapshot.asks) this.asks.set(p, Number(q));
    this.#lastId = snapshot.lastUpdateId;
    this.#lastU = -1;
    for (const event of this.#buffer.splice(0)) this.#apply(event);
  }

  /** The best `n` levels of a side, best first: [price, quantity]. */
  top(side: 'bids' | 'asks', n: number): [number, number][] {
    // The n best in one pass (a recorded book holds thousands of levels: sorting them all per event is the bot's whole cost).
    const better = (a: number, b: number) => (side === 'bids' ? a > b : a < b);
    const best: [number, number][] = [];
    for (const [p, q] of this[side]) {
      const price = Number(p);
      if (best.length === n && !better(price, best[n - 1]![0])) continue;
      let at = best.length;
      while (at > 0 && better(price, best[at - 1]![0])) at--;
      best.splice(at, 0, [price, q]);
      if (best.length > n) best.pop();
    }
    return best;
  }

  #apply(event: DepthUpdate): void {
    if (event.u <= this.#lastId) return;
    const continues = this.#lastU < 0 ? event.U <= this.#lastId + 1 : event.U === this.#lastU + 1;
    if (!continues) throw new Error(`depth stream gap: U ${event.U} after ${this.#lastU < 0 ? this.#lastId : this.#lastU}`);
    for (const [p, q] of event.b) (Number(q) === 0 ? this.bids.delete(p) : this.bids.set(p, Number(q)));
    for (const [p, q] of event.a) (Number(q) === 0 ? this.asks.delete(p) : this.asks.set(p, Number(q)));
    this.#lastU = event.u;
  }
}

export default async function book(ctx: StrategyContext): Promise<void> {
  const symbol = ctx.symbols[0]!;
  const imbalance = Number(ctx.params['imbalance']);
  const levels = Number(ctx.params['levels']);
  const size = ctx.params['size']!;
  const edge = Number(ctx.params['edge']);
  const patience = Number(ctx.params['patience']) * 1000;

  const local = new LocalOrderBook();
  ctx.stream(`${symbol.toLowerCase()}@depth@100ms`, (message) => local.onDepthUpdate(message));
  local.onSnapshot(await ctx.client.get<DepthSnapshot>('/api/v3/depth', { symbol, limit: 1000 }));

  // Position state, moved only by executionReports.
  let state: { kind: 'flat' } | { kind: 'bidding'; since: number } | { kind: 'long'; entry: number } | { kind: 'offering' } = { kind: 'flat' };
  let busy = false;
  ctx.onUserData((event) => {
    if (event['e'] !== 'executionReport' || event['s'] !== symbol) return;
    const status = event['X'];
    if (event['S'] === 'BUY' && status === 'FILLED') {
      state = { kind: 'long', entry: Number(event['L']) };
      const price = (Number(event['L']) * (1 + edge)).toFixed(2);
      ctx.spawn(async () => {
        await ctx.client.post('/api/v3/order', { symbol, side: 'SELL', type: 'LIMIT_MAKER', quantity: size, price });
        state = { kind: 'offering' };
        ctx.log(`bought ${size} at ${event['L']}, offering at ${price}`);
      });
    } else if (event['S'] === 'BUY' && (status === 'CANCELED' || status === 'EXPIRED' || status === 'REJECTED')) {
      state = { kind: 'flat' };
    } else if (event['S'] === 'SELL' && status === 'FILLED') {
      state = { kind: 'flat' };
      ctx.log(`sold ${size} at ${event['L']}`);
    }
  });

  ctx.stream(`${symbol.toLowerCase()}@depth@100ms`, () => {
    if (busy || !local.ready) return;
    const bids = local.top('bids', levels);
    const asks = local.top('asks', levels);
    if (bids.length === 0 || asks.length === 0) return;
    const bidQty = bids.reduce((sum, [, q]) => sum + q, 0);
    const askQty = asks.reduce((sum, [, q]) => sum + q, 0);
    if (state.kind === 'flat' && bidQty >= imbalance * askQty) {
      busy = true;
      state = { kind: 'bidding', since: ctx.clock.now() };
      const price = bids[0]![0].toFixed(2);
      ctx.spawn(async () => {
        try {
          await ctx.client.post('/api/v3/order', { symbol, side: 'BUY', type: 'LIMIT_MAKER', quantity: size, price });
        } catch {
          state = { kind: 'flat' }; // the book moved under it (it would take): try again later
        }
        busy = false;
      });
    } else if (state.kind === 'bidding' && ctx.clock.now() - state.since > patience) {
      busy = true;
      ctx.spawn(async () => {
        await ctx.client.delete('/api/v3/openOrders', { symbol }).catch(() => undefined);
        busy = false;
      });
    }
  });
}
