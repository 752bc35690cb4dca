/**
 * The backtest's progress on stderr: simulated time covered, prints per wall-clock second, and
 * the time left. On a terminal, one line redrawn at most 10 times a second and erased when done;
 * elsewhere (pipes, logs, CI), a plain line every `lineEveryMs` (15 s) of a long run, so a short
 * run prints nothing and a long one shows it is alive. The only wall-clock readings of a backtest are
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
  readonly #wall: () => number;
  readonly #started: number;
  readonly #lineEveryMs: number;
  #lastDraw = 0;

  constructor(
    stream: Pick<NodeJS.WriteStream, 'write' | 'isTTY' | 'columns'> = process.stderr,
    wall: () => number = () => performance.now(), // determinism-ok: wall-clock progress for a human, never in a report
    lineEveryMs = 15_000,
  ) {
    this.#stream = stream as NodeJS.WriteStream;
    this.#enabled = stream.isTTY === true;
    this.#wall = wall;
    this.#started = wall();
    this.#lastDraw = this.#started;
    this.#lineEveryMs = lineEveryMs;
  }

  update(p: Progress): void {
    const wall = this.#wall();
    if (wall - this.#lastDraw < (this.#enabled ? 100 : this.#lineEveryMs)) return;
    this.#lastDraw = wall;
    const done = Math.min(1, Math.max(0, (p.now - p.from) / (p.to - p.from)));
    const elapsed = (wall - this.#started) / 1000;
    const rate = elapsed > 0 ? p.prints / elapsed : 0;
    const eta = done > 0 ? (elapsed * (1 - done)) / done : NaN;
    const width = 24;
    const bar = '#'.repeat(Math.round(done * width)).padEnd(width, '.');
    const line = `[${bar}] ${(done * 100).toFixed(0).padStart(3)}%  ${formatUtcMicros(p.now).slice(0, 19)}  ${Math.round(rate).toLocaleString('en-US')} trades/s  ETA ${Number.isFinite(eta) ? `${eta.toFixed(0)}s` : '?'}`;
    if (this.#enabled) this.#stream.write(`\r${line.slice(0, (this.#stream.columns ?? 100) - 1)}\x1b[K`);
    else this.#stream.write(`progress: ${line.slice(line.indexOf(']') + 2).trim().replace(/ {2,}/g, ', ')}\n`);
  }

  done(): void {
    if (this.#enabled) this.#stream.write('\r\x1b[K');
  }
}
