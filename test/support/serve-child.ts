/**
 * `exsim serve` for the crash test: the same serve() the CLI runs, with the options as JSON in
 * argv[2], printing what the CLI prints. It loads its modules at once but starts serving only
 * when a line arrives on stdin, so the test can load the next server while the current one is
 * still serving and restart in well under a second after a SIGKILL. SIGTERM stops it as the CLI
 * does (the journal closed, the state hash printed).
 */
import { serve, type ServeOptions } from '../../src/serve/serve.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as ServeOptions;
process.stdin.once('data', () => {
  serve(options).then(
    (handle) => process.once('SIGTERM', () => void handle.close().then(() => process.exit(0))),
    (error: unknown) => {
      console.error(`exsim: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
});
