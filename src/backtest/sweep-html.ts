/**
 * sweep.html: a sweep's runs ranked by excess return over holding the opening balances (what
 * trading added), and a heat map of that excess over the first two parameters the sweep varies
 * (with more, each cell shows the best run over the others). Plain HTML and CSS, no script: it
 * opens offline and two sweeps give the same bytes. With --sweep-reports each row links to its
 * run's report.html.
 */
import { escapeHtml } from './report-html.ts';
import { isSweepFailure, type SweepResult, type SweepRow } from './sweep.ts';

export interface SweepPage {
  readonly sweep: SweepResult;
  /** The strategy and the window, for the title. */
  readonly title: string;
  /** Each row's report folder relative to the page (grid order), when --sweep-reports wrote them. */
  readonly runFolders?: readonly string[];
}

/** Grid indexes of the finished rows, best excess return first (no excess last; ties in grid order). */
export function rankRows(rows: SweepResult['rows']): number[] {
  const finished = rows.flatMap((r, i) => (isSweepFailure(r) ? [] : [i]));
  const key = (i: number) => (rows[i] as SweepRow).excessReturn ?? -Infinity;
  return finished.sort((a, b) => key(b) - key(a) || a - b);
}

export function renderSweepHtml(page: SweepPage): string {
  const { sweep } = page;
  const order = rankRows(sweep.rows);
  const link = (i: number, text: string) => (page.runFolders === undefined ? escapeHtml(text) : `<a href="${escapeHtml(`${page.runFolders[i]!}/report.html`)}">${escapeHtml(text)}</a>`);
  const header = ['rank', ...sweep.varied, 'excess return vs hold', 'vs hold', 'pnl', 'return', 'max drawdown', 'sharpe (ann.)', 'fills', 'fees'];
  const body = order.map((i, rank) => {
    const r = sweep.rows[i] as SweepRow;
    const cells = [String(rank + 1), ...sweep.varied.map((k) => r.params[k] ?? ''), String(r.excessReturn ?? '-'), r.vsHold, r.pnl, String(r.return ?? '-'), r.maxDrawdown, String(r.sharpe ?? '-'), String(r.fills), r.fees];
    return `<tr>${cells.map((c, j) => `<td>${j === 0 ? link(i, c) : escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const failures = sweep.rows.flatMap((r) => (isSweepFailure(r) ? [`<li>${escapeHtml(Object.entries(r.params).map(([k, v]) => `${k}=${v}`).join(','))}: ${escapeHtml(r.error)}</li>`] : []));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>exsim sweep: ${escapeHtml(page.title)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin:18px 0 6px}
table{border-collapse:collapse}th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:right;font-variant-numeric:tabular-nums}
th{font-weight:600;color:#555}
.heat td{border:1px solid #fff;min-width:70px;text-align:center}
</style></head>
<body>
<h1>exsim sweep: ${escapeHtml(page.title)}</h1>
<p>${sweep.rows.length} runs; ranked by excess return over holding the opening balances.</p>
${heatMap(sweep)}
<h2>Runs</h2>
<table><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>
${body.join('\n')}
</table>
${failures.length === 0 ? '' : `<h2>Failed runs</h2><ul>${failures.join('')}</ul>`}
</body></html>
`;
}

/** The excess return over the first two varied parameters (rows: the first, columns: the second); '' with fewer than two. */
function heatMap(sweep: SweepResult): string {
  if (sweep.varied.length < 2) return '';
  const [ya, xa] = sweep.varied as [string, string];
  const ys = distinct(sweep.rows.map((r) => r.params[ya]!));
  const xs = distinct(sweep.rows.map((r) => r.params[xa]!));
  const best = new Map<string, number | null>();
  for (const r of sweep.rows) {
    if (isSweepFailure(r)) continue;
    const key = `${r.params[ya]}\u0000${r.params[xa]}`;
    const old = best.get(key);
    if (old === undefined || (r.excessReturn !== null && (old === null || r.excessReturn > old))) best.set(key, r.excessReturn);
  }
  const scale = Math.max(1e-12, ...[...best.values()].map((v) => Math.abs(v ?? 0)));
  const cell = (v: number | null | undefined) => {
    if (v === undefined || v === null) return '<td>-</td>';
    // Green above holding, red below, the strongest at the sweep's largest |excess|.
    const alpha = (Math.abs(v) / scale).toFixed(3);
    const colour = v >= 0 ? `rgba(26,152,80,${alpha})` : `rgba(215,48,39,${alpha})`;
    return `<td style="background:${colour}">${escapeHtml(String(v))}</td>`;
  };
  const more = sweep.varied.length > 2 ? ` (best over ${sweep.varied.slice(2).join(', ')})` : '';
  return `<h2>Excess return vs hold: ${escapeHtml(ya)} (rows) × ${escapeHtml(xa)} (columns)${escapeHtml(more)}</h2>
<table class="heat"><tr><th>${escapeHtml(ya)} \\ ${escapeHtml(xa)}</th>${xs.map((x) => `<th>${escapeHtml(x)}</th>`).join('')}</tr>
${ys.map((y) => `<tr><th>${escapeHtml(y)}</th>${xs.map((x) => cell(best.get(`${y}\u0000${x}`))).join('')}</tr>`).join('\n')}
</table>`;
}

/** Values in first-seen (grid) order. */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}
