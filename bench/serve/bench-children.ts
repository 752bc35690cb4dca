/**
 * The child processes the serve benches start, and the two waits they share: until an
 * `exsim serve` child prints that it serves, and until a holder child (idle-stream-holder.ts,
 * slow-reader-holder.ts) has closed its connections and exited when told 'close'.
 */
import type { ChildProcess } from 'node:child_process';

/** Resolves once `child` (an `exsim serve` with its stdout piped) prints its "exsim serving" line; rejects if it exits first. */
export function untilServing(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('exsim serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exsim serve exited (${code}) before serving`)));
  });
}

/** Tells a holder child to close its connections and waits for it to exit (at once if it has). */
export async function closeHolder(holder: ChildProcess | undefined): Promise<void> {
  if (holder === undefined || holder.exitCode !== null) return;
  await new Promise((resolve) => {
    holder.once('exit', resolve);
    holder.send('close');
  });
}
