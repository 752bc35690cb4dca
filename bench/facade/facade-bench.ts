/**
 * Entry of the facade benches for bench/run.ts: `--only facade` runs both, `facade-inprocess`
 * or `facade-http` one of them. Human tables on stdout (progress on stderr), or with --json one
 * JSON object per row and nothing else.
 */
import { runHttpBench } from './http-bench.ts';
import { runInProcessBench } from './inprocess-bench.ts';
import { httpJsonLines, httpTable, inProcessJsonLines, inProcessTable } from './report.ts';

export { FACADE_BENCHES } from '../../src/cli/bench-rows.ts';
/** Defaults: about 10-25 s in-process (idle or shared machine) and 20 s over HTTP on the 2-core machine. */
export const DEFAULT_REQUESTS = 30_000;
export const DEFAULT_DURATION_SECONDS = 5;
const CONNECTIONS = 16;

export interface FacadeBenchOptions {
  /** undefined (every bench), 'facade', or one of FACADE_BENCHES. */
  only: string | undefined;
  json: boolean;
  runs: number;
  requests: number;
  duration: number;
  log: (message: string) => void;
}

export async function runFacadeBenches(o: FacadeBenchOptions): Promise<void> {
  const wants = (name: string): boolean => o.only === undefined || o.only === 'facade' || o.only === name;
  if (wants('facade-inprocess')) {
    const result = runInProcessBench({ requests: o.requests, runs: o.runs, log: o.log });
    write(o.json, inProcessJsonLines(result), inProcessTable(result));
  }
  if (wants('facade-http')) {
    const result = await runHttpBench({ duration: o.duration, connections: CONNECTIONS, log: o.log });
    write(o.json, httpJsonLines(result), httpTable(result));
  }
}

function write(json: boolean, lines: readonly string[], table: string): void {
  if (json) for (const line of lines) process.stdout.write(`${line}\n`);
  else process.stdout.write(`\n${table}\n`);
}
