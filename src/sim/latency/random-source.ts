/**
 * A uniform random stream in [0, 1). The market model's streams are seedrandom's alea, each
 * seeded with a string derived from the replay's seed and the stream's purpose, so adding a
 * stream never shifts the numbers another one draws.
 */
import seedrandom from 'seedrandom';

export type RandomSource = () => number;

/** The stream named `${seed}/${purpose}`. */
export function randomStream(seed: string, purpose: string): RandomSource {
  return seedrandom.alea(`${seed}/${purpose}`);
}
