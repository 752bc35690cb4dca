/**
 * The self-contained HTML report: the summary as tables, and three charts drawn by uPlot
 * (price of the first symbol with the strategy's buys and sells, equity, drawdown). uPlot's
 * script and stylesheet are inlined from node_modules, so the file opens offline, from an email
 * or an artifact store, with nothing to fetch. uPlot because it is ~50 kB minified, draws
 * hundreds of thousands of points on a canvas without lag, and has no dependencies.
 *
 * The data travels as one JSON block (`<script type="application/json">`, with `<` escaped so
 * no value can close the tag); the page script builds the charts from it and marks
 * `<body data-rendered="3">` with the number of charts drawn, which the render check reads.
 * Fill markers: one per fill up to MAX_FILL_MARKERS (markers 7 px wide side by side fill a 1400 px
 * chart at 200); a run with
 * more fills than that has them aggregated by bar (report-summary.ts `fillMarkers`), so markers
 * never pile up into a smear, and the chart says so. fills.csv has every fill.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BacktestSummary } from './report-summary.ts';

export const MAX_FILL_MARKERS = 200;

/** A price-chart marker: seconds since the epoch, price, and how many fills it stands for. */
export type FillMarker = readonly [number, number, number];

export interface ChartData {
  readonly symbol: string;
  /** Seconds since the epoch (uPlot's x unit), per-minute closes. */
  readonly priceTimes: readonly number[];
  readonly prices: readonly number[];
  readonly buys: readonly FillMarker[];
  readonly sells: readonly FillMarker[];
  /** null: a marker per fill; else the bar (seconds) fills are aggregated by, at their volume-weighted price. */
  readonly markerBucketSeconds: number | null;
  readonly equityTimes: readonly number[];
  readonly equity: readonly number[];
  /** The benchmark at the same times: the opening balances held (null before it has a price). */
  readonly holdEquity: readonly (number | null)[];
  /** Equity / running peak − 1 (<= 0): equity.csv's drawdown_fraction, negated. */
  readonly drawdown: readonly number[];
}

const require = createRequire(import.meta.url);
let uplotAssets: { script: string; css: string } | undefined;

export function uplot(): { script: string; css: string } {
  uplotAssets ??= {
    script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    css: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
  return uplotAssets;
}

/**
 * The start of the pages' chart scripts (compare.html, walk-forward.html): the chart data, a
 * palette, the chart width for the window (at most 1400 px), UTC on the time axis and a y axis
 * of returns in percent (uPlot's default would round 0.0004 to 0).
 */
export const CHART_SCRIPT_PRELUDE = `var d = JSON.parse(document.getElementById('chart-data').textContent);
  var colours = ['#2166ac', '#b2182b', '#1a9850', '#762a83', '#e08214', '#4d4d4d', '#35978f', '#c51b7d'];
  var width = Math.max(600, Math.min(1400, window.innerWidth - 60));
  var utc = function (ts) { return uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'); };
  var percent = { size: 90, values: function (u, vs) { return vs.map(function (v) { return +(v * 100).toFixed(4) + '%'; }); } };`;

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A two-column table of scalar fields (nested objects flattened with dots). */
function table(title: string, rows: readonly (readonly [string, unknown])[]): string {
  const body = rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v === null ? '-' : String(v))}</td></tr>`).join('');
  return `<section><h2>${escapeHtml(title)}</h2><table>${body}</table></section>`;
}

/** USDⓈ-M futures: one row per perpetual (position at the end, PnL, fees, funding, liquidations), then the account's margin. */
function futuresTable(f: NonNullable<BacktestSummary['futures']>): string {
  const head = ['perpetual', 'position', 'entry', 'mark', 'unrealized PnL', 'realized PnL', 'commission', 'funding received', 'funding paid', 'fundings', 'liquidations', 'maker / taker'];
  const rows = f.symbols.map((s) => [s.symbol, s.positionAmt, s.entryPrice, s.markPrice, s.unrealizedProfit, s.realizedPnl, s.commission, s.fundingReceived, s.fundingPaid, s.fundings, s.liquidations, `${s.makerCommissionRate} / ${s.takerCommissionRate}`]);
  const cells = (row: readonly unknown[], tag: string) => `<tr>${row.map((c) => `<${tag}>${escapeHtml(String(c))}</${tag}>`).join('')}</tr>`;
  const account = `max margin used ${f.maxMarginUsed} ${f.marginAsset}, margin calls ${f.marginCalls}, liquidations ${f.liquidations}, insurance fund at the end ${f.insuranceFund} ${f.marginAsset}; prints ${f.prints}; funding ${f.funding}`;
  return `<section><h2>USDⓈ-M futures (${escapeHtml(f.marginAsset)}-margined)</h2><table>${cells(head, 'th')}${rows.map((r) => cells(r, 'td')).join('')}</table><p>${escapeHtml(account)}</p></section>`;
}

function flatten(prefix: string, value: unknown, out: [string, unknown][]): [string, unknown][] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(prefix === '' ? k : `${prefix}.${k}`, v, out);
  } else out.push([prefix, Array.isArray(value) ? JSON.stringify(value) : value]);
  return out;
}

export function renderHtmlReport(summary: BacktestSummary, chart: ChartData): string {
  const { script, css } = uplot();
  const m = summary.metrics;
  const data = JSON.stringify(chart).replace(/</g, '\\u003c');
  const v = summary.valuationAsset;
  const r = m.ratios;
  const t = m.trades;
  const fees = summary.account.fees;
  const headline: [string, unknown][] = [
    ['PnL', `${m.pnl} ${v}`],
    ['return', m.return],
    ['benchmark: holding the opening balances', `${m.benchmarks.hold.pnl} ${v} (return ${m.benchmarks.hold.return ?? '-'})`],
    ['excess over holding', `${m.pnlVsHold} ${v} (return ${m.excessReturn.vsHold ?? '-'})`],
    ['benchmark: cash (excess return)', m.excessReturn.vsCash],
    ['max drawdown', `${m.maxDrawdown.amount} ${v} (${m.maxDrawdown.fraction ?? '-'} of the peak), ${m.maxDrawdown.durationSeconds ?? '-'} s${m.maxDrawdown.recovered ? '' : ', not recovered'}`],
    [`Sharpe (annualised: mean/sd of ${r.sampleSeconds} s returns × √${r.periodsPerYear})`, r.sharpeAnnualised],
    [`Sortino (annualised the same way, target 0)`, r.sortinoAnnualised],
    ['Calmar (simple annualised return / max drawdown)', r.calmar],
    ['round trips (win rate, profit factor)', `${t.roundTrips} (${t.winRate ?? '-'}, ${t.profitFactor ?? '-'})${t.openAtEnd ? ', one open at the end' : ''}`],
    ['total / average / best / worst round trip', `${t.totalPnl ?? '-'} / ${t.averagePnl ?? '-'} / ${t.bestPnl ?? '-'} / ${t.worstPnl ?? '-'} ${v} (trades.csv)`],
    ['average round trip duration', t.averageDurationSeconds === null ? '-' : `${t.averageDurationSeconds} s`],
    ['exposure (time in a round trip)', t.exposure],
    ['fees', `${m.fees.valued} ${v} (${Object.entries(m.fees.byAsset).map(([a, q]) => `${q} ${a}`).join(', ') || 'none'})`],
    ['fee schedule', `${fees.tier ?? 'custom'}: maker ${fees.effectiveMaker}, taker ${fees.effectiveTaker}${fees.bnbDiscount ? ' (BNB discount)' : ''}`],
    ['opening balances', `${Object.entries(summary.balances.start).map(([a, q]) => `${q} ${a}`).join(', ')} (${summary.account.balancesSource})`],
    ['turnover', `${m.turnover.volume} (${m.turnover.ratio ?? '-'}x)`],
    ['fill ratio (orders)', m.fillRatio.orders],
    ['maker share', m.makerTaker.makerShare],
  ];
  const hold = m.benchmarks.hold;
  const versus = `<section><h2>Strategy against holding the opening balances</h2><table><tr><th></th><th>strategy</th><th>holding</th></tr>${[
    ['PnL', `${m.pnl} ${v}`, `${hold.pnl} ${v}`],
    ['return', m.return, hold.return],
    ['Sharpe (annualised)', r.sharpeAnnualised, hold.sharpeAnnualised],
    ['Sortino (annualised)', r.sortinoAnnualised, hold.sortinoAnnualised],
    [`max drawdown (${v})`, m.maxDrawdown.amount, hold.maxDrawdown.amount],
    ['max drawdown (fraction of the peak)', m.maxDrawdown.fraction, hold.maxDrawdown.fraction],
  ]
    .map((row) => `<tr>${row.map((c, i) => `<${i === 0 ? 'th' : 'td'}>${escapeHtml(c === null ? '-' : String(c))}</${i === 0 ? 'th' : 'td'}>`).join('')}</tr>`)
    .join('')}</table></section>`;
  const markerNote =
    chart.markerBucketSeconds === null
      ? "with the strategy's fills"
      : `with the strategy's fills aggregated by ${chart.markerBucketSeconds / 60}-minute bar (one marker per side and bar, at its volume-weighted price: too many fills to draw one by one; fills.csv has each)`;
  const markouts = m.markouts.map((k): [string, unknown] => [`${k.horizonSeconds}s`, `${k.meanBps ?? '-'} bps mean, ${k.volumeWeightedBps ?? '-'} bps volume-weighted (${k.fills} fills)`]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>exsim backtest: ${escapeHtml(summary.strategy.name)}</title>
<style>${css}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
h1{font-size:20px}h2{font-size:16px;margin:18px 0 6px}
.tables{display:flex;flex-wrap:wrap;gap:24px}
table{border-collapse:collapse}th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left;font-variant-numeric:tabular-nums}
th{font-weight:600;color:#555}
.chart{margin:12px 0}
</style></head>
<body data-rendered="0">
<h1>exsim backtest: ${escapeHtml(summary.strategy.name)} on ${escapeHtml(summary.market.symbols.join(', '))}</h1>
<p>${escapeHtml(summary.strategy.description)}<br>${escapeHtml(summary.market.from)} .. ${escapeHtml(summary.market.to)}, fill model ${escapeHtml(summary.market.fillModel)}, seed ${escapeHtml(summary.market.seed)}, exchange rules from ${escapeHtml(typeof summary.market.rules === 'string' ? summary.market.rules : Object.entries(summary.market.rules).map(([s, r]) => `${s}: ${r}`).join(', '))}; journal sha256 <code>${escapeHtml(summary.journal.sha256)}</code></p>
<div class="tables">
${table('Result', headline)}
${versus}
${table('Markouts (positive: in the fill\'s favour)', markouts)}
${summary.futures === undefined ? '' : futuresTable(summary.futures)}
${table('Parameters', Object.entries(summary.strategy.params))}
${table('Orders and requests', [...flatten('orders', m.orders, []), ...flatten('requests', summary.requests, [])])}
</div>
<h2>Price of ${escapeHtml(chart.symbol)} (per-minute close) ${escapeHtml(markerNote)}</h2><div class="chart" id="price"></div>
<h2>Equity (${escapeHtml(summary.valuationAsset)}) against holding the opening balances</h2><div class="chart" id="equity"></div>
<h2>Drawdown: equity / running peak − 1 (−0.05 = 5% below the peak; equity.csv has it as drawdown_fraction, and in ${escapeHtml(summary.valuationAsset)} as drawdown_${escapeHtml(summary.valuationAsset)})</h2><div class="chart" id="drawdown"></div>
<script>${script}</script>
<script type="application/json" id="chart-data">${data}</script>
<script>
(function () {
  var d = JSON.parse(document.getElementById('chart-data').textContent);
  var width = Math.max(600, Math.min(1400, window.innerWidth - 60));
  // Price, buys and sells share one x axis: the union of the minute times and the fill times.
  var xs = d.priceTimes.slice(), buys = {}, sells = {};
  d.buys.forEach(function (f) { xs.push(f[0]); buys[f[0]] = f[1]; });
  d.sells.forEach(function (f) { xs.push(f[0]); sells[f[0]] = f[1]; });
  xs.sort(function (a, b) { return a - b; });
  xs = xs.filter(function (x, i) { return i === 0 || x !== xs[i - 1]; });
  var priceAt = {};
  d.priceTimes.forEach(function (t, i) { priceAt[t] = d.prices[i]; });
  var col = function (map) { return xs.map(function (x) { return x in map ? map[x] : null; }); };
  var dots = function (label, color) { return { label: label, stroke: color, fill: color, width: 0, paths: function () { return null; }, points: { show: true, size: 7, stroke: color, fill: color } }; };
  var perBar = d.markerBucketSeconds === null ? '' : ' (per ' + (d.markerBucketSeconds / 60) + '-min bar)';
  var drawn = 0;
  // UTC on the time axis (the report's times are UTC), and y labels wide enough for prices.
  var utc = function (ts) { return uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'); };
  var axes = [{}, { size: 90 }];
  new uPlot({ width: width, height: 320, tzDate: utc, axes: axes, scales: { x: { time: true } }, series: [{}, { label: 'price', stroke: '#555', spanGaps: true }, dots('buy' + perBar, '#1a9850'), dots('sell' + perBar, '#d73027')] },
    [xs, col(priceAt), col(buys), col(sells)], document.getElementById('price')); drawn++;
  new uPlot({ width: width, height: 240, tzDate: utc, axes: axes, scales: { x: { time: true } }, series: [{}, { label: 'strategy', stroke: '#2166ac' }, { label: 'holding the opening balances', stroke: '#999', dash: [6, 4] }] },
    [d.equityTimes, d.equity, d.holdEquity], document.getElementById('equity')); drawn++;
  new uPlot({ width: width, height: 200, tzDate: utc, axes: axes, scales: { x: { time: true } }, series: [{}, { label: 'drawdown (fraction of the peak)', stroke: '#b2182b', fill: 'rgba(178,24,43,0.15)' }] },
    [d.equityTimes, d.drawdown], document.getElementById('drawdown')); drawn++;
  document.body.setAttribute('data-rendered', String(drawn));
})();
</script>
</body></html>
`;
}
