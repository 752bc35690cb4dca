/**
 * One backtest of the end-to-end bench, in a child process of its own (so its peak RSS is its
 * own): `node --import tsx bench/backtest/backtest-child.ts STRATEGY DATA_DIR OUT_DIR [TO [journal]]`
 * (TO: the window's end, as --to takes it, `-` for the data's end; `journal`: also the full journal file, as --journal).
 * Runs what `exsim backtest STRATEGY --data DATA_DIR --out OUT_DIR` runs (data read from the dump
 * files, the strategy through the in-process REST client, the synthetic book, the default journal
 * hash, the report folder written) and prints one JSON line: prints, seconds (from reading the
 * data to the report written; module loading not included), peak RSS.
 */
import { parseBacktestRequest, runBacktestRequest } from '../../src/backtest/backtest-request.ts';

const [strategy, data, out, to, journal] = process.argv.slice(2);
if (strategy === undefined || data === undefined || out === undefined) throw new Error('usage: backtest-child.ts STRATEGY DATA_DIR OUT_DIR [TO [journal]]');
const request = parseBacktestRequest(strategy, { data, fillModel: 'queue', latency: 'none', seed: '1', ...(to === undefined || to === '-' ? {} : { to }) });
const started = performance.now(); // determinism-ok: a bench's stopwatch
const { result, summary } = await runBacktestRequest(request, out, undefined, journal === 'journal');
const seconds = (performance.now() - started) / 1000; // determinism-ok: as above
process.stdout.write(
  `${JSON.stringify({
    prints: result.replayStats.prints,
    seconds,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    fills: result.fills.length,
    journalSha256: summary.journal.sha256,
  })}\n`,
);
