/**
 * The backtest's progress line on stderr: simulated time covered, prints per wall-clock second,
 * and the time left. Shown only when stderr is a terminal (nothing in pipes, logs or CI), redrawn
 * at most 10 times a second, erased when done. The only wall-clock readings of a backtest are
 * here and in the elapsed time the command prints; neither reaches a report file.
 */
import { formatUtcMicros } from '../data/index.ts';

export interface Progress {
  readonly now: number;
  readonly from: number;
  readonly to: number;
  readonly prints: number;
}

export class ProgressBar {
  readonly #stream: NodeJS.WriteStream;
  readonly #enabled: boolean;
  readonly #started = performance.now(); // determinism-ok: wall-clock progress for a human, never in a report
  #lastDraw = 0;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.#stream = stream;
    this.#enabled = stream.isTTY === true;
  }

  update(p: Progress): void {
    if (!this.#enabled) return;
    const wall = performance.now(); // determinism-ok: wall-clock progress for a human, never in a report
    if (wall - this.#lastDraw < 100) return;
    this.#lastDraw = wall;
    const done = Math.min(1, Math.max(0, (p.now - p.from) / (p.to - p.from)));
    const elapsed = (wall - this.#started) / 1000;
    const rate = elapsed > 0 ? p.prints / elapsed : 0;
    const eta = done > 0 ? (elapsed * (1 - done)) / done : NaN;
    const width = 24;
    const bar = '#'.repeat(Math.round(done * width)).padEnd(width, '.');
    const line = `[${bar}] ${(done * 100).toFixed(0).padStart(3)}%  ${formatUtcMicros(p.now).slice(0, 19)}  ${Math.round(rate).toLocaleString('en-US')} trades/s  ETA ${Number.isFinite(eta) ? `${eta.toFixed(0)}s` : '?'}`;
    this.#stream.write(`\r${line.slice(0, (this.#stream.columns ?? 100) - 1)}\x1b[K`);
  }

  done(): void {
    if (this.#enabled) this.#stream.write('\r\x1b[K');
  }
}
