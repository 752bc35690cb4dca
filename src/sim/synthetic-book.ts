/**
 * The synthetic book as a replay sets it up: the engine's liquidity model of each symbol, either
 * the order-flow book that lives between prints (`SetOrderFlowBook`,
 * src/engine/liquidity/order-flow.ts: a depth book stepped every 100 ms of simulated time by a
 * seeded process, consumed by prints) or the static ladder redrawn at each print
 * (`SetSyntheticBook`, src/engine/liquidity/synthetic-ladder.ts), anchored from the first
 * instant of the replay so an order at the window's first µs meets a two-sided book:
 *
 * - on a tape: at the tape's first print (a mid, `SetSyntheticAnchor`); from then on every print
 *   anchors it inside the engine at O(1) cost (no commands, nothing journaled per print);
 * - in pure exchange mode (no tape), around a seeded random walk: the mid starts at
 *   `startPrice` and moves every `intervalMicros` by round(sigmaTicks × Z) ticks (never below one
 *   tick), drawn from the stream `${seed}/synthetic-book/${symbol}/walk`, each move one
 *   `SetSyntheticAnchor` on the journal.
 *
 * All commands go through the replay's `apply`, so the journal shows the set-up and the walk.
 */
import type { FlowProfile, LadderProfile } from '../engine/index.ts';
import type { Replay } from './replay.ts';
import { randomStream, type RandomSource } from './latency/random-source.ts';
import { standardNormal } from './latency/latency-distribution.ts';

/** A symbol's depth profile (engine units), and optionally the random walk it quotes around. */
export interface SyntheticBookProfile extends LadderProfile {
  /**
   * The order flow that moves the book between prints (rate in events per simulated second, step
   * in µs); absent: the static ladder, drawn anew at each print. Not with `walk`.
   */
  readonly flow?: Pick<FlowProfile, 'rate' | 'stepMicros'>;
  /**
   * Quote around a seeded random walk instead of the tape (pure exchange mode): the mid starts
   * at `startPrice` (price units) and moves every `intervalMicros` by round(sigmaTicks × Z)
   * ticks (never below one tick).
   */
  readonly walk?: { readonly startPrice: number; readonly intervalMicros: number; readonly sigmaTicks: number };
}

export interface SyntheticBookOptions {
  /** The symbols it quotes, each with its profile. */
  readonly symbols: Readonly<Record<string, SyntheticBookProfile>>;
}

interface Walk {
  ticks: number;
  readonly tickUnits: number;
  readonly sigma: number;
  readonly random: RandomSource;
}

export class SyntheticBook {
  readonly #replay: Replay;
  readonly #walks = new Map<string, Walk>();

  /**
   * Sets up each symbol's synthetic book on the engine and anchors it: at the first print of the
   * symbol's tape, or at the walk's start price. Async: it reads the first batch of each tape.
   */
  static async attach(replay: Replay, options: SyntheticBookOptions): Promise<SyntheticBook> {
    const book = new SyntheticBook(replay);
    for (const [symbol, profile] of Object.entries(options.symbols)) await book.#attachSymbol(symbol, profile);
    return book;
  }

  private constructor(replay: Replay) {
    this.#replay = replay;
  }

  async #attachSymbol(symbol: string, profile: SyntheticBookProfile): Promise<void> {
    const replay = this.#replay;
    const spec = replay.engine.symbolSpec(symbol);
    if (spec === undefined) throw new Error(`synthetic book: unknown symbol ${symbol}`);
    const { walk, flow, ...ladder } = profile;
    if (walk !== undefined && !(walk.startPrice > 0 && Number.isSafeInteger(walk.intervalMicros) && walk.intervalMicros >= 1 && walk.sigmaTicks >= 0)) {
      throw new RangeError(`${symbol}: walk needs startPrice > 0, intervalMicros >= 1 (integer), sigmaTicks >= 0`);
    }
    if (walk !== undefined && flow !== undefined) throw new RangeError(`${symbol}: a random walk quotes the static ladder, not an order-flow book`);
    const set = replay.apply(
      flow === undefined ? { type: 'SetSyntheticBook', symbol, profile: ladder, seed: replay.seed } : { type: 'SetOrderFlowBook', symbol, profile: { ...ladder, ...flow }, seed: replay.seed },
    );
    if (set[0]?.type === 'OrderRejected') throw new RangeError(`synthetic book of ${symbol}: refused (${set[0].reason}); check the profile`);
    if (walk === undefined) {
      const first = await replay.nextPrintPrice(symbol);
      if (first !== null) replay.apply({ type: 'SetSyntheticAnchor', symbol, price: first });
      return;
    }
    const state: Walk = {
      ticks: Math.max(1, Math.round(walk.startPrice / spec.tickUnits)),
      tickUnits: spec.tickUnits,
      sigma: walk.sigmaTicks,
      random: randomStream(replay.seed, `synthetic-book/${symbol}/walk`),
    };
    this.#walks.set(symbol, state);
    replay.apply({ type: 'SetSyntheticAnchor', symbol, price: state.ticks * state.tickUnits });
    replay.scheduler.scheduleEvery(replay.now + walk.intervalMicros, walk.intervalMicros, () => {
      state.ticks = Math.max(1, state.ticks + Math.round(state.sigma * standardNormal(state.random)));
      replay.apply({ type: 'SetSyntheticAnchor', symbol, price: state.ticks * state.tickUnits });
    });
  }

  /** Current mid of a walk-anchored symbol (price units), or null. */
  walkMid(symbol: string): number | null {
    const walk = this.#walks.get(symbol);
    return walk === undefined ? null : walk.ticks * walk.tickUnits;
  }
}
