/**
 * Notes the served exchange keeps with the facade's state: small named strings that are the
 * host's own state, not the exchange's, journaled, snapshotted and restored with the facade's
 * (facade-lines.ts puts them on the same f/F lines). The only one today: the control plane's
 * pacing (`pacing`: the clock's mode, and the mode a pause holds), so a restart runs the clock as
 * it was left, not as its command line says.
 *
 * A change is journaled with the next facade line (takeChanged).
 */
export class HostNotes {
  readonly #notes = new Map<string, string>();
  readonly #changed = new Set<string>();

  get(name: string): string | undefined {
    return this.#notes.get(name);
  }

  set(name: string, value: string): void {
    if (this.#notes.get(name) === value) return;
    this.#notes.set(name, value);
    this.#changed.add(name);
  }

  /** Every note, in the order they were first set. */
  entries(): [string, string][] {
    return [...this.#notes];
  }

  /** The notes set to a new value since the last call. */
  takeChanged(): [string, string][] {
    const changed: [string, string][] = [];
    for (const name of this.#changed) changed.push([name, this.#notes.get(name)!]);
    this.#changed.clear();
    return changed;
  }

  /** Puts back journaled notes (a restore): they count as journaled already. */
  restore(entries: readonly (readonly [string, string])[]): void {
    for (const [name, value] of entries) this.#notes.set(name, value);
    this.#changed.clear();
  }
}
