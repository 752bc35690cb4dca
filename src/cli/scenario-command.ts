/**
 * `exsim scenario run FILE...`: runs each scenario file (scenarios/schema.json) and checks its
 * expectations. Prints `ok  NAME  (N steps, journal <sha256>)` per passing file and one line per
 * failed expectation (`FILE: step 3 (note): status: expected 400, got 200`); exits 1 if any
 * expectation failed. A file that cannot run (missing, invalid) is a one-line InputError.
 */
import { loadScenario, runScenario } from '../scenario/index.ts';

export async function scenarioRunCommand(files: readonly string[], print: (line: string) => void = console.log, printError: (line: string) => void = console.error): Promise<number> {
  let failed = 0;
  for (const file of files) {
    const scenario = loadScenario(file);
    const result = await runScenario(scenario, file);
    if (result.failures.length === 0) print(`ok    ${scenario.name}  (${result.steps} steps, journal ${result.journalSha256})`);
    else {
      failed++;
      print(`FAIL  ${scenario.name}  (${result.failures.length} failed expectations)`);
      for (const failure of result.failures) printError(`${file}: ${failure}`);
    }
  }
  if (files.length > 1) print(`${files.length} scenarios: ${files.length - failed} ok, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
