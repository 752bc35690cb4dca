/**
 * The backend a served exchange with `--journal` answers from: the one it built (a paced engine
 * or a replay), wrapped so every command the facade applies goes to the write-ahead log with the
 * simulated time and the tape position it ran at. Queries, time, history and every hook are the
 * inner backend's (WrappedBackend forwards each hook the inner one has: the streams of a logged
 * replay still pump after each print and at their boundaries).
 */
import { WrappedBackend, type FacadeCommand, type MarketBackend } from '../../api-facade/index.ts';
import type { EngineEvent } from '../../engine/index.ts';
import type { WriteAheadLog } from '../durability/write-ahead-log.ts';

/** How far a replay has come (tape prints replayed); undefined for a bare engine. */
export type TapePosition = () => number | undefined;

export class LoggedBackend extends WrappedBackend {
  readonly #log: WriteAheadLog;
  readonly #position: TapePosition;

  constructor(inner: MarketBackend, log: WriteAheadLog, position: TapePosition) {
    super(inner);
    this.#log = log;
    this.#position = position;
  }

  override apply(command: FacadeCommand): readonly EngineEvent[] {
    const time = this.inner.now;
    const events = this.inner.apply(command);
    this.#log.command(command, time, this.#position());
    return events;
  }
}
