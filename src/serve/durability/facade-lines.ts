/**
 * What an f or F line of the write-ahead log holds, and a snapshot's facade part: the facade's
 * own state (api-facade's FacadeState: limiters, fault draws, records made while serving), then
 * the host's notes (host-notes.ts), which are the served exchange's and not the facade's. The
 * notes ride as the line's last key, `notes`, where they sat when the facade carried them, so a
 * log written before reads the same and the same state writes the same bytes.
 */
import { captureFacadeChanges, captureFacadeState, FacadeStateMerger, isEmptyFacadeChange, restoreFacadeState, type ExchangeContext, type FacadeState } from '../../api-facade/index.ts';
import type { HostNotes } from './host-notes.ts';

export interface FacadeLine extends FacadeState {
  /** The host's notes, [name, value]: all of them in a full line, the ones set anew in a change; absent when none. */
  readonly notes?: [string, string][];
}

function withNotes(state: FacadeState, notes: [string, string][]): FacadeLine {
  return notes.length === 0 ? state : { ...state, notes };
}

/** Whether a change line holds nothing new, given the fault draws already journaled. */
export function isEmptyFacadeLine(line: FacadeLine, faultDrawsBefore: number): boolean {
  return line.notes === undefined && isEmptyFacadeChange(line, faultDrawsBefore);
}

/** A served exchange's facade state and notes, read as lines and put back from one. */
export class FacadeLines {
  readonly #ctx: ExchangeContext;
  readonly #notes: HostNotes;

  constructor(ctx: ExchangeContext, notes: HostNotes) {
    this.#ctx = ctx;
    this.#notes = notes;
  }

  /** Everything (an F line, a snapshot). */
  full(): FacadeLine {
    return withNotes(captureFacadeState(this.#ctx), this.#notes.entries());
  }

  /** What changed since the last call (an f line; the keys a request touched, the notes set anew). */
  change(): FacadeLine {
    return withNotes(captureFacadeChanges(this.#ctx), this.#notes.takeChanged());
  }

  /** Puts a journaled state back (a restore): it counts as journaled already. */
  restore(line: FacadeLine): void {
    restoreFacadeState(this.#ctx, line);
    this.#notes.restore(line.notes ?? []);
  }
}

/** Folds journaled lines, in order, into the whole (a restore): the facade's merge, the last value of each note. */
export class FacadeLineMerger {
  readonly #facade = new FacadeStateMerger();
  readonly #notes = new Map<string, string>();

  merge(line: FacadeLine): void {
    this.#facade.merge(line);
    for (const [name, value] of line.notes ?? []) this.#notes.set(name, value);
  }

  /** The merged line; null when nothing was merged. */
  result(): FacadeLine | null {
    const facade = this.#facade.result();
    return facade === null ? null : withNotes(facade, [...this.#notes]);
  }
}
