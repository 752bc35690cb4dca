/**
 * walk-forward.html: a walk-forward run on one page, self-contained like report.html (uPlot
 * inlined, the data as one JSON block, `data-rendered` set once the charts are drawn):
 * - the windows as a table: the stretches, the parameters chosen on each training stretch and
 *   their score there, and what they did on the test stretch against holding;
 * - in- and out-of-sample curves: each window's chosen run as its return from the stretch's start,
 *   on its training stretch (dashed) and on its test stretch (solid), on one time axis;
 * - the stitched out-of-sample equity: the test stretches' returns compounded one after the
 *   other, beside holding the opening balances compounded the same way (walk-forward.ts adds PnLs
 *   and compounds returns the same way for the summary line).
 */
import { CHART_SCRIPT_PRELUDE, escapeHtml, uplot } from './report-html.ts';
import type { EquityCurve } from './equity-curve.ts';
import type { WalkForwardResult, WindowCurves } from './walk-forward.ts';

const round8 = (x: number): number => Number(x.toFixed(8));

/** A curve as its return from its first sample (null where the start is 0 or the value unknown). */
function returns(values: readonly (number | null)[]): (number | null)[] {
  const start = values[0] ?? null;
  return values.map((v) => (v === null || start === null || start === 0 ? null : round8(v / start - 1)));
}

/** The test curves chained: each stretch's growth multiplied onto where the previous one ended. */
export function stitchedReturns(curves: readonly EquityCurve[], pick: (curve: EquityCurve) => readonly (number | null)[]): { times: number[]; values: (number | null)[] } {
  const times: number[] = [];
  const values: (number | null)[] = [];
  let growth = 1;
  for (const curve of curves) {
    const series = pick(curve);
    const start = series[0] ?? null;
    let last = growth;
    curve.times.forEach((t, i) => {
      const v = series[i] ?? null;
      if (times.length > 0 && t <= times[times.length - 1]!) return; // a stretch's first sample is the previous one's last
      const value = v === null || start === null || start === 0 ? null : growth * (v / start);
      if (value !== null) last = value;
      times.push(t);
      values.push(value === null ? null : round8(value - 1));
    });
    growth = last;
  }
  return { times, values };
}

/** One time axis for several series of (times, values): the union of the times, null where a series has no sample. */
function aligned(series: readonly { times: readonly number[]; values: readonly (number | null)[] }[]): { times: number[]; columns: (number | null)[][] } {
  const times = [...new Set(series.flatMap((s) => s.times))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const columns = series.map((s) => {
    const column: (number | null)[] = new Array<number | null>(times.length).fill(null);
    s.times.forEach((t, i) => {
      column[index.get(t)!] = s.values[i] ?? null;
    });
    return column;
  });
  return { times, columns };
}

export function renderWalkForwardHtml(result: WalkForwardResult, curves: readonly WindowCurves[], title: string): string {
  const { script, css } = uplot();
  const windows = aligned(curves.flatMap((c) => [
    { times: c.train.times, values: returns(c.train.equity) },
    { times: c.test.times, values: returns(c.test.equity) },
  ]));
  const stitched = aligned([stitchedReturns(curves.map((c) => c.test), (c) => c.equity), stitchedReturns(curves.map((c) => c.test), (c) => c.hold)]);
  const data = JSON.stringify({ windows, stitched, count: curves.length }).replace(/</g, '\\u003c');
  const header = ['#', 'train (UTC)', 'test (UTC)', 'chosen', `train ${result.select}`, 'test PnL', 'test return', 'holding', 'excess vs hold', 'fills'];
  const day = (from: string, to: string) => `${from.slice(0, 16).replace('T', ' ')} .. ${to.slice(0, 16).replace('T', ' ')}`;
  const rows = result.windows.map((w, i) => [
    String(i + 1),
    day(w.trainFrom, w.trainTo),
    day(w.testFrom, w.testTo),
    Object.entries(w.chosen).map(([k, v]) => `${k}=${v}`).join(', ') || '(defaults)',
    String(w.trainScore ?? '-'),
    w.test.pnl,
    String(w.test.return ?? '-'),
    String(w.test.holdReturn ?? '-'),
    String(w.test.excessReturn ?? '-'),
    String(w.test.fills),
  ]);
  const o = result.outOfSample;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>exsim walk-forward: ${escapeHtml(title)}</title>
<style>${css}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin:18px 0 6px}
table{border-collapse:collapse}th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;font-variant-numeric:tabular-nums;white-space:nowrap}
th{font-weight:600;color:#555}
td.wrap{white-space:normal;overflow-wrap:anywhere;max-width:320px}
.chart{margin:12px 0}
</style></head>
<body data-rendered="0">
<h1>exsim walk-forward: ${escapeHtml(title)}</h1>
<p>train ${escapeHtml(result.train)}, test ${escapeHtml(result.test)}, chosen by ${escapeHtml(result.select)} on each training stretch; ${result.windows.length} windows.<br>
Out of sample ${escapeHtml(o.from)} .. ${escapeHtml(o.to)}: PnL ${escapeHtml(o.pnl)} (vs holding ${escapeHtml(o.vsHold)}), return ${escapeHtml(String(o.return ?? '-'))} compounded, holding ${escapeHtml(String(o.holdReturn ?? '-'))}, excess ${escapeHtml(String(o.excessReturn ?? '-'))}.</p>
<table><tr>${header.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>
${rows.map((r) => `<tr>${r.map((c, i) => `<td${i === 3 ? ' class="wrap"' : ''}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n')}
</table>
<h2>Each window's chosen run: return from the stretch's start, in sample (training, dashed) and out of sample (test, solid)</h2><div class="chart" id="windows"></div>
<h2>Stitched out-of-sample equity: the test stretches' returns compounded, against holding the opening balances</h2><div class="chart" id="stitched"></div>
<script>${script}</script>
<script type="application/json" id="chart-data">${data}</script>
<script>
(function () {
  ${CHART_SCRIPT_PRELUDE}
  var series = [{}];
  for (var i = 0; i < d.count; i++) {
    var colour = colours[i % colours.length];
    series.push({ label: 'window ' + (i + 1) + ' in sample', stroke: colour, dash: [5, 4], width: 1, spanGaps: true });
    series.push({ label: 'window ' + (i + 1) + ' out of sample', stroke: colour, width: 2, spanGaps: true });
  }
  new uPlot({ width: width, height: 320, tzDate: utc, axes: [{}, percent], scales: { x: { time: true } }, series: series }, [d.windows.times].concat(d.windows.columns), document.getElementById('windows'));
  new uPlot({ width: width, height: 280, tzDate: utc, axes: [{}, percent], scales: { x: { time: true } }, series: [{}, { label: 'out of sample, stitched', stroke: '#2166ac', width: 2, spanGaps: true }, { label: 'holding, stitched', stroke: '#999', dash: [6, 4], spanGaps: true }] },
    [d.stitched.times].concat(d.stitched.columns), document.getElementById('stitched'));
  document.body.setAttribute('data-rendered', '2');
})();
</script>
</body></html>
`;
}
