/**
 * The synthetic book: a market-maker agent that stands in for the historical order book, which
 * Binance does not publish, so that a user's MARKET or crossing LIMIT order walks real levels
 * and pays realistic slippage instead of filling unlimited size at the last price.
 *
 * It is an ordinary account (created with `CreateAccount`, zero commission) that acts only
 * through the Replay's `apply`, i.e. the engine's public API: every quote is a LIMIT_MAKER
 * order (it never takes liquidity, so it can never trade with a user's resting order), every
 * re-quote a `CancelAllOrders` followed by new orders, all in the journal. The engine's depth and
 * bookTicker therefore answer from this book (plus the users' own orders), and liquidity a user
 * took stays taken until the next re-quote.
 *
 * Registered as a Replay agent: its orders are left out of the fill models' book mirror, so a
 * historical print never fills them (the print already used the historical liquidity they
 * stand for).
 *
 * The profile, per symbol and per re-quote, drawn from the seeded stream
 * `${seed}/synthetic-book/${symbol}`:
 * - anchor: the last replayed print. A print by a BUY taker at p shows the ask was at p, so the
 *   best ask is p and the best bid p − spread; a SELL taker's print puts the best bid at p and
 *   the best ask at p + spread. With a random walk (pure exchange mode) the anchor is the walk's
 *   mid m: best bid m − ⌊spread/2⌋ ticks, best ask that + spread.
 * - spread: uniform whole ticks in [spreadTicks[0], spreadTicks[1]].
 * - levels: `levels` a side, `gapTicks` apart; level i (0 = best) holds
 *   baseQty × growth^i × (1 + jitter × U(−1, 1)) rounded to LOT_SIZE steps, at least one step:
 *   books are thin at the touch and thicker away from it.
 * - a level that would cross a user's resting order on the other side is left out (the users'
 *   orders are better prices; the maker would only trade into them).
 *
 * When it re-quotes (per symbol): after every `everyPrints`-th print of the symbol (default 1),
 * and/or every `everyMicros` on the clock; a re-quote is skipped when the anchor has not moved
 * and nothing traded against the book since the last one (the book would be the same shape; it
 * saves 2×levels+1 engine commands on each of the many prints at an unchanged price).
 *
 * Inventory: a maker that sells keeps selling only while it has base. Rather than let the
 * user's trading drain or bloat it (and shift the depth it can fund), the agent re-centres:
 * before a re-quote that follows a fill, each asset of the symbol whose total (free + locked)
 * is more than `rebalanceBand` (fraction, default 0.1) away from its target is brought back to
 * the target with an `AdjustBalance` deposit or withdrawal. This is money entering or leaving
 * the exchange through the agent: conservation (Σ balances + fees = net deposits) still holds
 * because the engine counts adjustments as deposits; the journal shows every one. Targets
 * should keep each asset's exchange-wide total below 2^53 units (at 8 decimals ~90M whole
 * units, e.g. 1,000 BTC and 20M USDT); the engine refuses beyond that and so does `attach`.
 */
import type { EngineEvent, TradeExecuted } from '../engine/index.ts';
import type { Replay, ReplayAgent, ReplayedTrade } from './replay.ts';
import { randomStream, type RandomSource } from './latency/random-source.ts';
import { standardNormal } from './latency/latency-distribution.ts';

export interface SyntheticBookProfile {
  /** Levels a side. Default 10. */
  readonly levels?: number;
  /** Spread between best bid and best ask in ticks, drawn uniformly per re-quote: [min, max]. Default [1, 1]. */
  readonly spreadTicks?: readonly [number, number];
  /** Ticks between consecutive levels. Default 1. */
  readonly gapTicks?: number;
  /** Base units at the best level (before jitter). */
  readonly baseQty: number;
  /** Size multiplier per level away from the touch. Default 1.5. */
  readonly growth?: number;
  /** Relative size jitter per level, in [0, 1). Default 0.25. */
  readonly jitter?: number;
  /**
   * Quote around a seeded random walk instead of the tape (pure exchange mode): the mid starts
   * at `startPrice` (price units) and moves every `intervalMicros` by round(sigmaTicks × Z)
   * ticks (never below one tick), re-quoting after each move.
   */
  readonly walk?: { readonly startPrice: number; readonly intervalMicros: number; readonly sigmaTicks: number };
}

export interface SyntheticBookOptions {
  /** The agent's account id (created by `attach`; must not exist yet). */
  readonly accountId: number;
  /** Target inventory per asset (units): the opening balance, and what re-centring returns to. */
  readonly balances: Readonly<Record<string, number>>;
  /** The symbols it quotes, each with its profile. */
  readonly symbols: Readonly<Record<string, SyntheticBookProfile>>;
  /** Re-quote after every n-th print of a symbol. Default 1 (every print); 0: never on prints. */
  readonly everyPrints?: number;
  /** Also re-quote every symbol on this period of the clock (µs). Default: off. */
  readonly everyMicros?: number;
  /** Re-centre an asset when its total drifts more than this fraction from its target. Default 0.1. */
  readonly rebalanceBand?: number;
}

const ZERO_COMMISSION = { maker: 0, taker: 0, buyer: 0, seller: 0 };

interface Quoted {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly tickUnits: number;
  readonly stepUnits: number;
  readonly levels: number;
  readonly spreadMin: number;
  readonly spreadMax: number;
  readonly gapTicks: number;
  readonly baseQty: number;
  readonly growth: number;
  readonly jitter: number;
  readonly random: RandomSource;
  /** Walk mid in ticks, or null when anchored on the tape. */
  walkTicks: number | null;
  readonly walkSigma: number;
  readonly walkRandom: RandomSource | null;
  /** Anchor of the book now on the engine: price units and taker side (null: walk / none). */
  anchorPrice: number;
  anchorBuyerMaker: boolean | null;
  /** Something traded against the book since the last re-quote. */
  hit: boolean;
  /** The agent's open orders on the symbol (a book taken out entirely needs no cancel). */
  open: number;
  prints: number;
}

export class SyntheticBook implements ReplayAgent {
  readonly accountId: number;
  readonly #replay: Replay;
  readonly #targets: Readonly<Record<string, number>>;
  readonly #band: number;
  readonly #everyPrints: number;
  readonly #symbols = new Map<string, Quoted>();
  /** Re-quotes that placed orders, per symbol, and the AdjustBalance re-centrings made. */
  readonly stats = { requotes: 0, skipped: 0, rebalances: 0 };

  /** Creates the agent's account, registers it with the replay and starts quoting where an anchor is known. */
  static attach(replay: Replay, options: SyntheticBookOptions): SyntheticBook {
    return new SyntheticBook(replay, options);
  }

  private constructor(replay: Replay, options: SyntheticBookOptions) {
    this.accountId = options.accountId;
    this.#replay = replay;
    this.#targets = { ...options.balances };
    this.#band = options.rebalanceBand ?? 0.1;
    this.#everyPrints = options.everyPrints ?? 1;
    if (!(this.#band >= 0)) throw new RangeError(`rebalanceBand must be >= 0, got ${this.#band}`);
    if (!(Number.isInteger(this.#everyPrints) && this.#everyPrints >= 0)) throw new RangeError(`everyPrints must be an integer >= 0, got ${this.#everyPrints}`);
    const engine = replay.engine;
    const deposited = engine.totalDeposited();
    for (const [asset, amount] of Object.entries(this.#targets)) {
      if (!(Number.isSafeInteger(amount) && amount >= 0)) throw new RangeError(`synthetic book balance of ${asset} must be a safe integer >= 0, got ${amount}`);
      if ((deposited[asset] ?? 0) + amount > Number.MAX_SAFE_INTEGER) {
        throw new RangeError(`synthetic book balance of ${asset} would take the exchange-wide total past 2^53 units; fund it with less`);
      }
    }
    for (const [symbol, profile] of Object.entries(options.symbols)) {
      const spec = engine.symbolSpec(symbol);
      if (spec === undefined) throw new Error(`synthetic book: unknown symbol ${symbol}`);
      const levels = profile.levels ?? 10;
      const [spreadMin, spreadMax] = profile.spreadTicks ?? [1, 1];
      const gapTicks = profile.gapTicks ?? 1;
      const growth = profile.growth ?? 1.5;
      const jitter = profile.jitter ?? 0.25;
      if (!(Number.isInteger(levels) && levels >= 1)) throw new RangeError(`${symbol}: levels must be an integer >= 1`);
      if (!(Number.isInteger(spreadMin) && Number.isInteger(spreadMax) && spreadMin >= 1 && spreadMax >= spreadMin)) throw new RangeError(`${symbol}: spreadTicks must be integers 1 <= min <= max`);
      if (!(Number.isInteger(gapTicks) && gapTicks >= 1)) throw new RangeError(`${symbol}: gapTicks must be an integer >= 1`);
      if (!(profile.baseQty > 0 && growth > 0 && jitter >= 0 && jitter < 1)) throw new RangeError(`${symbol}: need baseQty > 0, growth > 0, 0 <= jitter < 1`);
      const walk = profile.walk;
      if (walk !== undefined && !(walk.startPrice > 0 && Number.isSafeInteger(walk.intervalMicros) && walk.intervalMicros >= 1 && walk.sigmaTicks >= 0)) {
        throw new RangeError(`${symbol}: walk needs startPrice > 0, intervalMicros >= 1 (integer), sigmaTicks >= 0`);
      }
      this.#symbols.set(symbol, {
        symbol,
        base: spec.baseAsset,
        quote: spec.quoteAsset,
        tickUnits: spec.tickUnits,
        stepUnits: spec.stepUnits,
        levels,
        spreadMin,
        spreadMax,
        gapTicks,
        baseQty: profile.baseQty,
        growth,
        jitter,
        random: randomStream(replay.seed, `synthetic-book/${symbol}`),
        walkTicks: walk === undefined ? null : Math.max(1, Math.round(walk.startPrice / spec.tickUnits)),
        walkSigma: walk?.sigmaTicks ?? 0,
        walkRandom: walk === undefined ? null : randomStream(replay.seed, `synthetic-book/${symbol}/walk`),
        anchorPrice: 0,
        anchorBuyerMaker: null,
        hit: false,
        open: 0,
        prints: 0,
      });
    }
    const created = replay.apply({
      type: 'CreateAccount',
      accountId: this.accountId,
      balances: this.#targets,
      standardCommission: ZERO_COMMISSION,
      taxCommission: ZERO_COMMISSION,
      specialCommission: ZERO_COMMISSION,
    });
    refused(created, `synthetic book account ${this.accountId}`);
    replay.addAgent(this);
    for (const q of this.#symbols.values()) {
      if (q.walkTicks === null) continue;
      this.#requote(q);
      const walk = options.symbols[q.symbol]!.walk!;
      replay.scheduler.scheduleEvery(replay.now + walk.intervalMicros, walk.intervalMicros, () => this.#step(q));
    }
    const period = options.everyMicros;
    if (period !== undefined) {
      if (!(Number.isSafeInteger(period) && period >= 1)) throw new RangeError(`everyMicros must be an integer >= 1, got ${period}`);
      replay.scheduler.scheduleEvery(replay.now + period, period, () => {
        for (const q of this.#symbols.values()) this.#requote(q);
      });
    }
  }

  /** ReplayAgent: re-quote after every n-th print of a quoted, tape-anchored symbol. */
  afterPrint(trade: ReplayedTrade): void {
    const q = this.#symbols.get(trade.symbol);
    if (q === undefined || q.walkTicks !== null) return;
    // The tape anchor always follows the last print, even when this print does not re-quote.
    q.anchorPrice = trade.price;
    q.anchorBuyerMaker = trade.isBuyerMaker;
    if (this.#everyPrints === 0 || ++q.prints % this.#everyPrints !== 0) return;
    this.#requote(q);
  }

  /** ReplayAgent: a user took liquidity; the next re-quote restores it (and re-centres inventory). */
  onFill(trade: TradeExecuted): void {
    const q = this.#symbols.get(trade.symbol);
    if (q === undefined) return;
    q.hit = true;
    if (trade.makerStatus === 'FILLED') q.open--;
  }

  /** Re-quotes a symbol now (also what the print and timer triggers call). */
  requote(symbol: string): void {
    const q = this.#symbols.get(symbol);
    if (q === undefined) throw new Error(`synthetic book does not quote ${symbol}`);
    this.#requote(q, true);
  }

  #lastQuoted = new Map<string, string>();

  #requote(q: Quoted, force = false): void {
    const key = q.walkTicks !== null ? `w${q.walkTicks}` : q.anchorBuyerMaker === null ? '' : `${q.anchorPrice}${q.anchorBuyerMaker ? 's' : 'b'}`;
    if (key === '') return; // no print yet: nothing to anchor on
    if (!force && !q.hit && q.open > 0 && this.#lastQuoted.get(q.symbol) === key) {
      this.stats.skipped++;
      return;
    }
    this.#lastQuoted.set(q.symbol, key);
    const replay = this.#replay;
    if (q.open > 0) replay.apply({ type: 'CancelAllOrders', accountId: this.accountId, symbol: q.symbol });
    q.open = 0;
    if (q.hit) this.#recentre(q);
    q.hit = false;
    this.stats.requotes++;

    const spread = q.spreadMin + Math.floor(q.random() * (q.spreadMax - q.spreadMin + 1));
    let bestBid: number;
    if (q.walkTicks !== null) bestBid = q.walkTicks - Math.floor(spread / 2);
    else {
      const anchor = Math.floor(q.anchorPrice / q.tickUnits);
      bestBid = q.anchorBuyerMaker ? anchor : anchor - spread;
    }
    const bestAsk = bestBid + spread;
    // Users' resting orders: the maker does not quote through them.
    const users = replay.restingOrders(q.symbol);
    const userBid = users.bids[0]?.price ?? -Infinity;
    const userAsk = users.asks[0]?.price ?? Infinity;
    for (let side = 0; side < 2; side++) {
      const isBuy = side === 0;
      for (let i = 0; i < q.levels; i++) {
        const ticks = isBuy ? bestBid - i * q.gapTicks : bestAsk + i * q.gapTicks;
        // Drawn for every level, placed or not, so the stream does not depend on the users' book.
        const size = q.baseQty * q.growth ** i * (1 + q.jitter * (2 * q.random() - 1));
        if (ticks < 1) continue;
        const price = ticks * q.tickUnits;
        if (isBuy ? price >= userAsk : price <= userBid) continue;
        const quantity = Math.max(q.stepUnits, Math.round(size / q.stepUnits) * q.stepUnits);
        const events = replay.apply({ type: 'PlaceOrder', accountId: this.accountId, symbol: q.symbol, side: isBuy ? 'BUY' : 'SELL', orderType: 'LIMIT_MAKER', price, quantity });
        if (events[0]?.type === 'OrderAccepted') q.open++;
      }
    }
  }

  /** Brings the symbol's assets back to their targets when a fill moved them past the band. */
  #recentre(q: Quoted): void {
    const replay = this.#replay;
    const view = replay.engine.account(this.accountId);
    if (view === undefined) return;
    for (const asset of [q.base, q.quote]) {
      const target = this.#targets[asset] ?? 0;
      const balance = view.balances.find((b) => b.asset === asset);
      if (balance === undefined) continue;
      const total = balance.free + balance.locked;
      if (Math.abs(total - target) <= this.#band * target) continue;
      // Withdrawals come from free balance only (another symbol's quotes may lock some of it).
      const delta = Math.max(target - total, -balance.free);
      if (delta === 0) continue;
      replay.apply({ type: 'AdjustBalance', accountId: this.accountId, asset, delta });
      this.stats.rebalances++;
    }
  }

  /** One random-walk step of a walk-anchored symbol, then a re-quote. */
  #step(q: Quoted): void {
    q.walkTicks = Math.max(1, (q.walkTicks as number) + Math.round(q.walkSigma * standardNormal(q.walkRandom as RandomSource)));
    this.#requote(q);
  }

  /** Current mid of a walk-anchored symbol (price units), or null. */
  walkMid(symbol: string): number | null {
    const q = this.#symbols.get(symbol);
    return q === undefined || q.walkTicks === null ? null : q.walkTicks * q.tickUnits;
  }
}

function refused(events: readonly EngineEvent[], what: string): void {
  const first = events[0];
  if (first !== undefined && first.type === 'OrderRejected') throw new Error(`${what}: refused (${first.reason})`);
}
