/** `exsim report compare DIR DIR...`: the table on stdout, the overlaid equity curves in an HTML page (compare-reports.ts). */
import { writeFileSync } from 'node:fs';
import { compareTable, InputError, readReportFolder, renderCompareHtml } from '../backtest/index.ts';

export async function reportCompareCommand(dirs: readonly string[], out: string, print: (line: string) => void = console.log): Promise<void> {
  if (dirs.length === 0) throw new InputError('report compare needs at least one report folder');
  const runs = dirs.map(readReportFolder);
  for (const line of compareTable(runs)) print(line);
  writeFileSync(out, renderCompareHtml(runs));
  print(`equity curves: ${out}`);
}
