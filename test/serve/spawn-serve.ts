/**
 * `exsim serve` as a user starts it: the compiled CLI in a child process (bin/exsim.js, so
 * `npm run build` first), ready once the banner has printed its URL and "(Ctrl-C stops)". The
 * child is handed back at once, before it is ready, so a test's afterAll can kill it whatever
 * happens next; `ready` rejects with the output when it exits first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface SpawnedServe {
  readonly child: ChildProcessWithoutNullStreams;
  /** The served URL and everything the process printed so far (stdout and stderr). */
  readonly ready: Promise<{ url: string; out: () => string }>;
}

/** `exsim serve <args>` (add `--port 0` to take a free port). */
export function spawnServe(args: readonly string[]): SpawnedServe {
  const child = spawn(process.execPath, ['bin/exsim.js', 'serve', ...args]);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const ready = new Promise<{ url: string; out: () => string }>((resolve, reject) => {
    const poll = setInterval(() => {
      const url = /at (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined && out.includes('(Ctrl-C stops)')) {
        clearInterval(poll);
        resolve({ url, out: () => out });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`serve exited ${code}: ${out}`));
    });
  });
  return { child, ready };
}
