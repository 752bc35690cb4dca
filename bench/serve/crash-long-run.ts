/**
 * The journal crash test at length (test/serve/serve-crash.test.ts runs 50 kill points in CI):
 *
 *   node --import tsx bench/serve/crash-long-run.ts [--rounds R (default 10)] [--kills N (default 50)] [--operations M (default 300)] [--seed S]
 *
 * Per round (seed S-<round>), the same seeded operations (signed orders, cancels, market orders
 * over 4 accounts) go to a server that never crashes and to one SIGKILLed at N seeded points and
 * restarted each time with its journal; after every restart each acknowledged order must be there
 * as acknowledged, and the two final state hashes must be equal. Rounds rather than one longer
 * sequence: the manual clock stands still, so one IP's request weight for the minute (6,000) and
 * each account's unfilled order count (100 per 10 s) bound a single sequence. Prints one line per
 * round and a summary (R x N kill points, 500 by default); exit 1 on any difference.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crashRun, killPoints } from '../../test/support/crash-run.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, kills: { type: 'string' }, operations: { type: 'string' }, seed: { type: 'string' } } });
const rounds = Number(values.rounds ?? 10);
const kills = Number(values.kills ?? 50);
const operationsCount = Number(values.operations ?? 300);
const seed = values.seed ?? 'long';
if (!(Number.isInteger(rounds) && rounds > 0 && Number.isInteger(kills) && kills > 0 && Number.isInteger(operationsCount) && operationsCount > kills)) {
  console.error('usage: crash-long-run.ts [--rounds R] [--kills N] [--operations M > N] [--seed S]');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'exsim-crash-long-'));
const serve = { data: 'sample', clock: 'manual', seed: '5' };
let totalKills = 0;
let failures = 0;
try {
  const started = performance.now(); // determinism-ok: bench timing
  for (let round = 1; round <= rounds; round++) {
    const roundSeed = `${seed}-${round}`;
    const reference = await crashRun({ journal: join(dir, `reference-${round}.jsonl`), seed: roundSeed, operations: operationsCount, killPoints: [], serve });
    const crashed = await crashRun({ journal: join(dir, `crashed-${round}.jsonl`), seed: roundSeed, operations: operationsCount, killPoints: killPoints(roundSeed, operationsCount, kills), serve });
    totalKills += crashed.kills;
    const same = crashed.stateHash === reference.stateHash;
    if (!same || crashed.problems.length > 0) failures++;
    console.log(`round ${round} (${roundSeed}): ${crashed.kills} kills (${crashed.inFlightLanded} in-flight requests had landed), ${crashed.acknowledged} acknowledged orders, ${crashed.problems.length} problems, state hash ${same ? 'equal to' : 'DIFFERENT from'} the uncrashed run (${crashed.stateHash.slice(0, 16)})`);
    for (const problem of crashed.problems) console.log(`  ${problem}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0); // determinism-ok: bench timing
  console.log(`${totalKills} kill points in ${rounds} rounds, ${failures} rounds with differences, ${seconds} s`);
  if (failures > 0) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
