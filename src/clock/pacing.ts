/**
 * Pacing: how simulated time relates to real time, for a live server.
 *
 * - `manual`: simulated time moves only when told (tests, in-process backtests). Real time maps
 *   to nothing: every real instant reads as the anchor's simulated time.
 * - `speed:N`: N simulated seconds per real second (N > 0, e.g. `speed:10`, `speed:0.5`).
 * - `realtime`: `speed:1`.
 *
 * The mapping is affine around an anchor (a real instant paired with a simulated instant):
 *   simulated = anchor.simulated + (real - anchor.real) × 1000 × speed      (µs = ms × 1000)
 * rounded to the nearest µs (nearest rather than down, so that a value like
 * 0.7 ms × 1000 landing a hair under an integer does not lose a µs, and so that mapping a
 * simulated time to real time and back returns it). `reanchor` moves the anchor (after a pause, a jump or a manual
 * advance) without changing the speed.
 *
 * Resolution: real instants are epoch milliseconds in a double, which resolves about 0.24 µs of
 * real time in this century, so at speed N simulated time read from real time is good to about
 * 0.24 × N µs (250 µs at speed:1000). Ample for pacing a server; simulated time itself (the
 * scheduler's) stays exact integers whatever the speed.
 *
 * Real time comes only through the `WallClock` the caller passes (real milliseconds since the
 * Unix epoch): the served exchange passes the system's (src/serve/wall-clock.ts), tests a fake
 * one, so this module reads no clock itself and stays deterministic.
 */
import { MICROS_PER_MILLI, assertMicros } from './time-units.ts';

export type PacingMode =
  | { readonly kind: 'manual' }
  | { readonly kind: 'realtime' }
  | { readonly kind: 'speed'; readonly speed: number };

/** Real time in milliseconds since the Unix epoch (fractions allowed). */
export type WallClock = () => number;

const SPEED_PATTERN = /^speed:(\d+(?:\.\d+)?|\.\d+)$/;
const MODE_HELP = 'expected manual, realtime or speed:N with N a positive number (e.g. speed:10, speed:0.5)';

/** Parses a clock mode exactly as the CLI passes it (`--clock`): case-sensitive, no spaces. */
export function parsePacingMode(text: string): PacingMode {
  if (text === 'manual') return { kind: 'manual' };
  if (text === 'realtime') return { kind: 'realtime' };
  const match = SPEED_PATTERN.exec(text);
  if (match === null) throw new Error(`invalid clock mode ${JSON.stringify(text)}: ${MODE_HELP}`);
  const speed = Number(match[1]);
  if (!(speed > 0) || !Number.isFinite(speed)) {
    throw new Error(`invalid clock mode ${JSON.stringify(text)}: speed must be greater than 0 (${MODE_HELP})`);
  }
  return { kind: 'speed', speed };
}

/** The mode as the CLI spells it; `parsePacingMode(formatPacingMode(m))` equals `m`. */
export function formatPacingMode(mode: PacingMode): string {
  return mode.kind === 'speed' ? `speed:${mode.speed}` : mode.kind;
}

/** Simulated seconds per real second: 0 for manual, 1 for realtime. */
export function pacingSpeed(mode: PacingMode): number {
  switch (mode.kind) {
    case 'manual':
      return 0;
    case 'realtime':
      return 1;
    case 'speed':
      return mode.speed;
  }
}

function checkedMode(mode: PacingMode | string): PacingMode {
  const parsed = typeof mode === 'string' ? parsePacingMode(mode) : mode;
  const speed = pacingSpeed(parsed);
  if (parsed.kind === 'speed' && !(speed > 0 && Number.isFinite(speed))) throw new RangeError(`speed must be a positive finite number, got ${speed}`);
  return parsed;
}

export interface PacingOptions {
  /** Simulated time (µs) at the anchor: where the simulation starts. */
  simulatedStart: number;
  /** Real time source, ms since the epoch (a live server: src/serve's `systemWallClock`). */
  wallClock: WallClock;
  /** Real time (ms) at the anchor. Default: read from the wall clock at construction. */
  realStart?: number;
}

/** A real instant paired with the simulated instant it maps to. */
export interface PacingAnchor {
  /** ms since the epoch */
  readonly real: number;
  /** µs since the epoch */
  readonly simulated: number;
}

export class Pacing {
  #mode: PacingMode;
  /** Simulated seconds per real second (0 in manual mode). */
  #speed: number;
  readonly #wallClock: WallClock;
  #anchor: PacingAnchor;

  constructor(mode: PacingMode | string, options: PacingOptions) {
    this.#mode = checkedMode(mode);
    this.#speed = pacingSpeed(this.#mode);
    this.#wallClock = options.wallClock;
    assertMicros(options.simulatedStart, 'simulated start');
    this.#anchor = { real: options.realStart ?? this.#wallClock(), simulated: options.simulatedStart };
  }

  get mode(): PacingMode {
    return this.#mode;
  }

  /** Simulated seconds per real second (0 in manual mode). */
  get speed(): number {
    return this.#speed;
  }

  /**
   * Changes the mode from now on (pause: `manual`; resume or a new speed: `speed:N`, `realtime`):
   * simulated time continues from where it is at `realNow`, never jumping.
   */
  retime(mode: PacingMode | string, realNow: number = this.#wallClock()): void {
    const next = checkedMode(mode);
    const simulated = this.realNowToSimulated(realNow);
    this.#mode = next;
    this.#speed = pacingSpeed(next);
    this.#anchor = { real: realNow, simulated };
  }

  get anchor(): PacingAnchor {
    return this.#anchor;
  }

  /** Reads the wall clock (ms since the epoch). */
  realNow(): number {
    return this.#wallClock();
  }

  /** Simulated time (µs) at real time `realNow` (ms), by default read from the wall clock now. */
  simulatedNow(realNow: number = this.#wallClock()): number {
    return this.realNowToSimulated(realNow);
  }

  /**
   * Maps a real instant (ms since the epoch) to simulated time (µs, to the nearest µs). Instants
   * before the anchor map before the anchor's simulated time. In manual mode every instant maps
   * to the anchor's simulated time. Use it to place a client's request timestamp on the
   * simulated time line.
   */
  realNowToSimulated(realMs: number): number {
    const anchor = this.#anchor;
    if (this.#speed === 0) return anchor.simulated;
    return anchor.simulated + Math.round((realMs - anchor.real) * MICROS_PER_MILLI * this.#speed);
  }

  /**
   * Maps simulated time (µs) to the real instant (ms since the epoch, fractional) at which the
   * pacing reaches it: the inverse of `realNowToSimulated`. Use it to express
   * server time in the client's clock, or to know how long to sleep until a timer is due.
   * Throws in manual mode, where simulated time is not tied to real time.
   */
  simulatedToReal(simulatedUs: number): number {
    if (this.speed === 0) throw new Error('manual pacing does not map simulated time to real time');
    const anchor = this.#anchor;
    return anchor.real + (simulatedUs - anchor.simulated) / (MICROS_PER_MILLI * this.speed);
  }

  /**
   * Re-pairs simulated time `simulated` with real time `realNow` (default: the wall clock now).
   * Call it after moving the simulation by other means (a manual jump, a pause), so pacing
   * continues from there rather than from the original start.
   */
  reanchor(simulated: number, realNow: number = this.#wallClock()): void {
    assertMicros(simulated, 'simulated time');
    this.#anchor = { real: realNow, simulated };
  }
}
