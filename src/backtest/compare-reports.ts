/**
 * `exsim report compare DIR DIR...`: report folders side by side. Each folder's summary.json
 * gives the key metrics (one table row per folder) and its equity.csv the curve; the HTML page
 * overlays the curves as returns from each run's start (runs with different opening balances
 * stay comparable), drawn by the same inlined uPlot as report.html: nothing to fetch. The page
 * names each run by its folder's name (the path from the first folder where two names are
 * alike), and its table fits a 1400 px window: folder names, parameter lists and sources wrap
 * (after a comma where they can), a number and its unit at the space between them; a number itself
 * never breaks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { InputError } from './input-error.ts';
import { CHART_SCRIPT_PRELUDE, escapeHtml, uplot } from './report-html.ts';
import type { BacktestSummary } from './report-summary.ts';

export interface ComparedRun {
  readonly dir: string;
  readonly summary: BacktestSummary;
  /** Seconds since the epoch, and equity in the run's valuation asset. */
  readonly times: readonly number[];
  readonly equity: readonly number[];
}

export function readReportFolder(dir: string): ComparedRun {
  const summaryPath = join(dir, 'summary.json');
  const equityPath = join(dir, 'equity.csv');
  if (!existsSync(summaryPath) || !existsSync(equityPath)) throw new InputError(`${dir} is not a backtest report folder (no summary.json or equity.csv)`);
  let summary: BacktestSummary;
  try {
    summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as BacktestSummary;
  } catch (error) {
    throw new InputError(`${summaryPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (summary.metrics === undefined || summary.strategy === undefined) throw new InputError(`${summaryPath}: not a backtest summary`);
  const times: number[] = [];
  const equity: number[] = [];
  for (const line of readFileSync(equityPath, 'utf8').trim().split('\n').slice(1)) {
    const [time, value] = line.split(',');
    times.push(Date.parse(time!.replace(/(\.\d{3})\d*Z$/, '$1Z')) / 1000);
    equity.push(Number(value));
  }
  return { dir, summary, times, equity };
}

const COLUMNS = ['run', 'strategy', 'params', 'source', 'pnl', 'return', 'excess vs hold', 'max drawdown', 'sharpe (ann.)', 'round trips', 'fees'] as const;
/** Columns whose text may be long (a folder path, a parameter list): they wrap so the numbers stay in view. */
const WRAPPED: ReadonlySet<string> = new Set(['run', 'params', 'source']);

function cells(run: ComparedRun): string[] {
  const s = run.summary;
  const m = s.metrics;
  const v = s.valuationAsset;
  return [
    run.dir,
    s.strategy.name,
    Object.entries(s.strategy.params).map(([k, x]) => `${k}=${x}`).join(',') || '-',
    typeof s.market.source === 'string' ? s.market.source : s.market.source === undefined ? '-' : Object.values(s.market.source).join('/'),
    `${m.pnl} ${v}`,
    String(m.return ?? '-'),
    String(m.excessReturn.vsHold ?? '-'),
    `${m.maxDrawdown.amount} (${m.maxDrawdown.fraction ?? '-'})`,
    String(m.ratios.sharpeAnnualised ?? '-'),
    String(m.trades.roundTrips),
    `${m.fees.valued} ${v}`,
  ];
}

/** The runs as an aligned text table. */
export function compareTable(runs: readonly ComparedRun[]): string[] {
  const rows = runs.map(cells);
  const widths = COLUMNS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: readonly string[]) => row.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Short names of the runs: their folders' names, or their paths from the common parent where two names are alike. */
export function runLabels(dirs: readonly string[]): string[] {
  const names = dirs.map((d) => basename(resolve(d)));
  if (new Set(names).size === names.length) return names;
  const parent = commonParent(dirs.map((d) => resolve(d)));
  return dirs.map((d) => relative(parent, resolve(d)) || basename(resolve(d)));
}

function commonParent(paths: readonly string[]): string {
  const parts = paths.map((p) => p.split('/'));
  const common: string[] = [];
  for (let i = 0; parts.every((p) => i < p.length - 1 && p[i] === parts[0]![i]); i++) common.push(parts[0]![i]!);
  return common.join('/') || '/';
}

/** The page: the table and the runs' returns from their starts, overlaid on one time axis. */
export function renderCompareHtml(runs: readonly ComparedRun[]): string {
  const { script, css } = uplot();
  const times = [...new Set(runs.flatMap((r) => r.times))].sort((a, b) => a - b);
  const series = runs.map((r) => {
    const at = new Map(r.times.map((t, i) => [t, r.equity[i]!]));
    const start = r.equity[0]!;
    return times.map((t) => (at.has(t) && start !== 0 ? Number((at.get(t)! / start - 1).toFixed(8)) : null));
  });
  const labels = runLabels(runs.map((r) => r.dir));
  const data = JSON.stringify({ times, series, labels }).replace(/</g, '\\u003c');
  const rows = runs.map((run, i) => [labels[i]!, ...cells(run).slice(1)]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>exsim: ${runs.length} backtests compared</title>
<style>${css}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
h1{font-size:20px}
table{border-collapse:collapse;max-width:1340px}th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top;font-variant-numeric:tabular-nums}
th{font-weight:600;color:#555}
td.wrap{white-space:normal;overflow-wrap:anywhere;min-width:120px;max-width:260px}
</style></head>
<body data-rendered="0">
<h1>exsim: ${runs.length} backtests compared</h1>
<table><tr>${COLUMNS.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>
${rows.map((r) => `<tr>${r.map((c, i) => (WRAPPED.has(COLUMNS[i]!) ? `<td class="wrap">${escapeHtml(c).replace(/,/g, ',<wbr>')}</td>` : `<td>${escapeHtml(c)}</td>`)).join('')}</tr>`).join('\n')}
</table>
<h2>Return from each run's start (equity / first equity - 1)</h2><div id="equity"></div>
<script>${script}</script>
<script type="application/json" id="chart-data">${data}</script>
<script>
(function () {
  ${CHART_SCRIPT_PRELUDE}
  var series = [{}].concat(d.labels.map(function (label, i) { return { label: label, stroke: colours[i % colours.length], spanGaps: true }; }));
  new uPlot({ width: width, height: 360, tzDate: utc, axes: [{}, percent], scales: { x: { time: true } }, series: series }, [d.times].concat(d.series), document.getElementById('equity'));
  document.body.setAttribute('data-rendered', '1');
})();
</script>
</body></html>
`;
}
