/**
 * `exsim report compare DIR DIR...`: the table on stdout, the overlaid equity curves in an HTML page
 * (compare-reports.ts), written to --out or else beside the first report's report.html.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareTable, InputError, readReportFolder, renderCompareHtml } from '../backtest/index.ts';

export async function reportCompareCommand(dirs: readonly string[], out: string | undefined, print: (line: string) => void = console.log): Promise<void> {
  if (dirs.length === 0) throw new InputError('report compare needs at least one report folder');
  const runs = dirs.map(readReportFolder);
  for (const line of compareTable(runs)) print(line);
  const page = out ?? join(dirs[0]!, 'compare.html');
  writeFileSync(page, renderCompareHtml(runs));
  print(`equity curves: ${page}${out === undefined ? ' (beside the first report; --out FILE to put it elsewhere)' : ''}`);
}
