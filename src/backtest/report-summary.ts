/**
 * The JSON summary of a backtest (summary.json) and the series the HTML charts draw, built from
 * a BacktestResult. Nothing here depends on the machine or the wall clock (the data source is
 * named as the user gave it, times are simulated), so two runs give the same bytes.
 */
import type { FuturesSummary } from './futures-setup.ts';
import { type BalanceView, formatUnits } from '../engine/index.ts';
import { formatUtcMicros } from '../data/index.ts';
import type { LatencyConfig } from '../sim/index.ts';
import type { AccountSource, FeeSchedule } from './account-setup.ts';
import type { TradingMetrics } from './metrics.ts';
import { MAX_FILL_MARKERS, type ChartData, type FillMarker } from './report-html.ts';
import type { BacktestResult, DataNotes, DepthStats, RequestStats } from './run-backtest.ts';

export interface BacktestSummary {
  readonly strategy: { readonly name: string; readonly description: string; readonly params: Readonly<Record<string, string>> };
  readonly market: {
    readonly data: string;
    /** What the prints were made from: `trades`, `aggTrades` or `klines:<interval>` (the finest the window has), or per symbol when they differ. */
    readonly source: string | Readonly<Record<string, string>>;
    /** Where the exchange rules came from: `exsim-market.json`, `sample market`, `Binance snapshot of <date>`, or per symbol when they differ. */
    readonly rules: string | Readonly<Record<string, string>>;
    readonly symbols: readonly string[];
    readonly from: string;
    readonly to: string;
    readonly fillModel: string;
    /** The synthetic book's profile as `--book` writes it, or "off" (it serves the symbols without recorded depth). */
    readonly syntheticBook: string;
    /** What the book is (`recorded L2 (tardis incremental_book_L2)`, `synthetic order flow (...)`), or per symbol when they differ. */
    readonly book: string | Readonly<Record<string, string>>;
    /** Per symbol with recorded depth: messages replayed, stale levels dropped from crossed messages, L2 updates skipped before a file's first snapshot. */
    readonly depth?: Readonly<Record<string, DepthStats>>;
    /** Per symbol whose data readers read past something: recording gaps (one line each), torn files, Tardis rows restamped. */
    readonly dataNotes?: Readonly<Record<string, DataNotes>>;
    readonly latency: LatencyConfig | null;
    readonly seed: string;
    /** Stretches of the window no data file covers (UTC): the replay jumps over them. */
    readonly gaps: readonly { readonly symbol: string; readonly from: string; readonly to: string }[];
  };
  readonly valuationAsset: string;
  /** The strategy account: where its opening balances came from, default ones left out (no price on this run), its fees. */
  readonly account: { readonly balancesSource: AccountSource; readonly unfunded: readonly string[]; readonly fees: FeeSchedule };
  readonly balances: { readonly start: Readonly<Record<string, string>>; readonly end: Readonly<Record<string, string>> };
  readonly metrics: TradingMetrics;
  /** What the run did in USDⓈ-M futures (positions, funding, liquidations, margin used); absent when it traded none. */
  readonly futures?: FuturesSummary;
  readonly requests: RequestStats;
  readonly replay: BacktestResult['replayStats'];
  readonly journal: JournalSummary;
}

/**
 * The run's journal: `sha256` of the compact encoding of every engine command and its events
 * (backtest-digest.ts), the tape's fingerprint, the strategy's own commands (written to
 * strategy-commands.jsonl.gz) and, with --journal, the JSON-lines file and its SHA-256.
 */
export interface JournalSummary {
  readonly file: string | null;
  readonly fileSha256: string | null;
  readonly entries: number;
  readonly sha256: string;
  readonly decisionsSha256: string;
  readonly tapeSha256: string;
  readonly strategyCommands: number;
  readonly strategyCommandsSha256: string;
}

export function balancesOf(balances: readonly BalanceView[], precision: (asset: string) => number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of [...balances].sort((x, y) => (x.asset < y.asset ? -1 : x.asset > y.asset ? 1 : 0))) {
    if (b.free + b.locked !== 0) out[b.asset] = formatUnits(b.free + b.locked, precision(b.asset));
  }
  return out;
}

export function buildSummary(
  result: BacktestResult,
  dataLabel: string,
  journal: JournalSummary,
): BacktestSummary {
  return {
    strategy: { name: result.strategyName, description: result.description, params: result.params },
    market: {
      data: dataLabel,
      source: sourceOf(result.sources),
      rules: sourceOf(result.rules),
      symbols: result.symbols,
      from: formatUtcMicros(result.from),
      to: formatUtcMicros(result.to),
      fillModel: result.fillModel,
      syntheticBook: result.syntheticBook,
      book: sourceOf(result.books),
      ...(Object.keys(result.depth).length === 0 ? {} : { depth: result.depth }),
      ...(Object.keys(result.dataNotes).length === 0 ? {} : { dataNotes: result.dataNotes }),
      latency: result.latency,
      seed: result.seed,
      gaps: result.dataGaps.map((g) => ({ symbol: g.symbol, from: formatUtcMicros(g.from), to: formatUtcMicros(g.to) })),
    },
    valuationAsset: result.valuationAsset,
    account: { balancesSource: result.account.balancesSource, unfunded: result.account.unfunded, fees: result.account.fees },
    balances: { start: balancesOf(result.startBalances, result.assetPrecision), end: balancesOf(result.endBalances, result.assetPrecision) },
    metrics: result.metrics,
    ...(result.futures === null ? {} : { futures: result.futures }),
    requests: result.requests,
    replay: result.replayStats,
    journal,
  };
}

export function sourceOf(sources: Readonly<Record<string, string>>): string | Readonly<Record<string, string>> {
  const distinct = [...new Set(Object.values(sources))];
  return distinct.length === 1 ? distinct[0]! : sources;
}

/** The chart series: per-minute closes of the first symbol, its fills, equity and drawdown. */
export function buildChartData(result: BacktestResult): ChartData {
  const symbol = result.symbols[0]!;
  const series = result.recorder.prices.get(symbol)!;
  const scale = 10 ** result.quotePrecision[symbol]!;
  const priceTimes: number[] = [];
  const prices: number[] = [];
  for (let i = 0; i < series.seconds.length; i++) {
    const minute = Math.floor(series.seconds[i]! / 60_000_000) * 60;
    const close = series.closes[i]! / scale;
    if (priceTimes[priceTimes.length - 1] === minute) prices[prices.length - 1] = close;
    else {
      priceTimes.push(minute);
      prices.push(close);
    }
  }
  const { buys, sells, markerBucketSeconds } = fillMarkers(result.fills.filter((f) => f.symbol === symbol), scale, 10 ** result.assetPrecision(result.baseAsset[symbol]!), result.from, result.to);
  const equityTimes: number[] = [];
  const equity: number[] = [];
  const holdEquity: (number | null)[] = [];
  const drawdown: number[] = [];
  let peak = -Infinity;
  for (const sample of result.recorder.equity) {
    const value = sample.equity.toNumber();
    peak = Math.max(peak, value);
    equityTimes.push(sample.time / 1_000_000);
    equity.push(value);
    holdEquity.push(sample.hold === null ? null : sample.hold.toNumber());
    drawdown.push(peak > 0 ? Number((value / peak - 1).toFixed(8)) : 0);
  }
  return { symbol, priceTimes, prices, buys, sells, markerBucketSeconds, equityTimes, equity, holdEquity, drawdown };
}

/** The bars fills are aggregated by, in minutes: Binance's kline intervals up to a day. */
const MARKER_BAR_MINUTES: readonly number[] = [1, 3, 5, 15, 30, 60, 120, 240, 360, 480, 720, 1440];

/**
 * The price chart's fill markers: one per fill while they fit the chart side by side
 * (MAX_FILL_MARKERS); past that they would overlap, so the fills are aggregated by bar,
 * the shortest kline interval (1m .. 1d, then whole days) that brings the window under the cap:
 * one buy and one sell marker per bar, at the volume-weighted price of its buys (sells), with the
 * count.
 */
export function fillMarkers(
  fills: readonly { readonly time: number; readonly price: number; readonly qty: number; readonly isBuyer: boolean }[],
  priceScale: number,
  qtyScale: number,
  from: number,
  to: number,
): { buys: FillMarker[]; sells: FillMarker[]; markerBucketSeconds: number | null } {
  if (fills.length <= MAX_FILL_MARKERS) {
    const marker = (f: (typeof fills)[number]): FillMarker => [f.time / 1_000_000, f.price / priceScale, 1];
    return { buys: fills.filter((f) => f.isBuyer).map(marker), sells: fills.filter((f) => !f.isBuyer).map(marker), markerBucketSeconds: null };
  }
  const minutes = (to - from) / 60_000_000 / MAX_FILL_MARKERS;
  const bucket = (MARKER_BAR_MINUTES.find((m) => m >= minutes) ?? Math.ceil(minutes / 1440) * 1440) * 60;
  const sums = new Map<string, { time: number; value: number; qty: number; count: number }>();
  for (const f of fills) {
    const start = Math.floor(f.time / 1_000_000 / bucket) * bucket;
    const key = `${f.isBuyer ? 'b' : 's'}${start}`;
    const sum = sums.get(key) ?? { time: start, value: 0, qty: 0, count: 0 };
    sum.value += (f.price / priceScale) * (f.qty / qtyScale);
    sum.qty += f.qty / qtyScale;
    sum.count++;
    sums.set(key, sum);
  }
  const markers = (side: string): FillMarker[] =>
    [...sums].filter(([key]) => key.startsWith(side)).map(([, s]): FillMarker => [s.time, s.qty > 0 ? Number((s.value / s.qty).toPrecision(12)) : 0, s.count]).sort((a, b) => a[0] - b[0]);
  return { buys: markers('b'), sells: markers('s'), markerBucketSeconds: bucket };
}

