/**
 * The numbers a backtest report gives, from what the run recorded and the engine's final state.
 * Money is exact (decimal.js) and leaves as decimal strings at the valuation asset's precision;
 * ratios (return, drawdown fraction, Sharpe, markouts in basis points) are plain numbers rounded
 * to fixed decimals so the JSON is byte-identical between runs.
 *
 * Definitions:
 * - equity: Σ (free + locked) of every valued asset × its rate at the last prices (valuation.ts).
 * - pnl = end equity − start equity (mark to market: inventory revaluation included);
 *   return = pnl / start equity.
 * - benchmarks: `hold` (the opening balances untouched, valued at the end prices: holdPnl; its
 *   own Sharpe, Sortino and max drawdown from the same samples, as the strategy's are computed)
 *   and `cash` (everything in the valuation asset at the start: PnL 0); excessReturn = return − the
 *   benchmark's return, pnlVsHold = pnl − holdPnl (what trading added over holding).
 * - maxDrawdown: the largest fall from a running peak of the sampled equity (amount, and fraction
 *   of that peak), with the peak's and the trough's times, and its duration: from the peak to the
 *   first sample back at or above it (or to the end, `recovered` false). `longestUnderwaterSeconds`:
 *   the longest stretch below a previous peak.
 * - ratios, from the per-sample simple returns (one sample a minute by default), annualised by
 *   √(periodsPerYear) (525,600 for minutes: 365 days): sharpeAnnualised = mean / standard deviation
 *   (n − 1); sortinoAnnualised = mean / downside deviation (√(Σ min(r, 0)² / n), target 0);
 *   null when the denominator is 0. annualisedReturn = return × (year / window), simple (no
 *   compounding: a short window would explode); calmar = annualisedReturn / maxDrawdown.fraction.
 * - trades: round trips per symbol (round-trips.ts), the rows trades.csv lists (roundTripTable),
 *   their PnL valued at the end rates: count, wins, losses, winRate, profitFactor (Σ wins /
 *   |Σ losses|, null without losses), total, average, best and worst, the average duration;
 *   exposure = the fraction of the window with a trip open.
 * - fees: commissions per asset; `valued`: a base-asset commission at its fill's price, then
 *   every asset at the end rates.
 * - turnover: traded quote volume (valued at the end rates) and volume / start equity.
 * - fillRatio: orders with any fill / orders accepted; executed / ordered quantity per symbol
 *   (MARKET orders by quote amount have no ordered quantity and are left out of the latter).
 * - markouts: for each fill and horizon h, the move of the last price known at fill time + h
 *   (per-second closes, no look-ahead past t + h) in basis points of the fill price, signed so
 *   that positive is in the fill's favour (price up after a buy); mean and quote-volume-weighted
 *   mean over the fills whose horizon ends inside the window.
 */
import { Decimal } from 'decimal.js';
import type { AccountTradeView, BalanceView, OrderView } from '../engine/index.ts';
import type { Engine } from '../engine/index.ts';
import type { BacktestRecorder, EquitySample, PriceSeries } from './recorder.ts';
import { roundTrips, type TripFill } from './round-trips.ts';

export const MARKOUT_HORIZONS_S: readonly number[] = [1, 5, 30, 60, 300];

const YEAR_US = 365 * 86_400_000_000;

/** Rounds a ratio for the JSON (null stays null). */
export const ratio = (x: number | null, places = 6): number | null => (x === null || !Number.isFinite(x) ? null : Number(x.toFixed(places)));

export interface Markout {
  readonly horizonSeconds: number;
  readonly fills: number;
  readonly meanBps: number | null;
  readonly volumeWeightedBps: number | null;
}

export interface Drawdown {
  readonly amount: string;
  readonly fraction: number | null;
  readonly peakTime: number | null;
  readonly troughTime: number | null;
  /** From the peak to the recovery (or the end of the run). */
  readonly durationSeconds: number | null;
  readonly recovered: boolean;
  readonly longestUnderwaterSeconds: number;
}

export interface Benchmark {
  readonly pnl: string;
  readonly return: number | null;
}

/** Holding the opening balances, judged as the strategy is: its own Sharpe, Sortino and drawdown from the same samples. */
export interface HoldBenchmark extends Benchmark {
  readonly sharpeAnnualised: number | null;
  readonly sortinoAnnualised: number | null;
  readonly maxDrawdown: { readonly amount: string; readonly fraction: number | null };
}

export interface RiskRatios {
  /** The return period (equity sample) and how many make a year (365 days). */
  readonly sampleSeconds: number;
  readonly periodsPerYear: number;
  readonly samples: number;
  readonly sharpeAnnualised: number | null;
  readonly sortinoAnnualised: number | null;
  /** Simple: return × year / window. */
  readonly annualisedReturn: number | null;
  readonly calmar: number | null;
}

export interface TradeStats {
  readonly roundTrips: number;
  readonly wins: number;
  readonly losses: number;
  readonly winRate: number | null;
  readonly profitFactor: number | null;
  /** Σ of the trips' PnL (valued), and its mean. */
  readonly totalPnl: string | null;
  readonly averagePnl: string | null;
  readonly bestPnl: string | null;
  readonly worstPnl: string | null;
  /** Mean time from a trip's first fill to its closing fill. */
  readonly averageDurationSeconds: number | null;
  /** Fraction of the window with a round trip open. */
  readonly exposure: number | null;
  /** A trip still open at the end (not counted above). */
  readonly openAtEnd: boolean;
}

export interface TradingMetrics {
  readonly startEquity: string;
  readonly endEquity: string;
  readonly pnl: string;
  readonly return: number | null;
  /** What holding the opening balances would have made (their value at the end prices − start equity), and pnl − that. */
  readonly holdPnl: string;
  readonly pnlVsHold: string;
  readonly benchmarks: { readonly hold: HoldBenchmark; readonly cash: Benchmark };
  readonly excessReturn: { readonly vsHold: number | null; readonly vsCash: number | null };
  readonly fees: { readonly byAsset: Readonly<Record<string, string>>; readonly valued: string };
  readonly maxDrawdown: Drawdown;
  readonly ratios: RiskRatios;
  readonly trades: TradeStats;
  readonly turnover: { readonly volume: string; readonly ratio: number | null };
  readonly orders: Readonly<Record<string, number>>;
  readonly fillRatio: { readonly orders: number | null; readonly quantityBySymbol: Readonly<Record<string, number | null>> };
  readonly makerTaker: { readonly makerFills: number; readonly takerFills: number; readonly makerVolume: string; readonly takerVolume: string; readonly makerShare: number | null };
  readonly markouts: readonly Markout[];
}

export interface MetricsInput {
  readonly engine: Engine;
  readonly recorder: BacktestRecorder;
  readonly symbols: readonly string[];
  readonly orders: readonly OrderView[];
  readonly fills: readonly AccountTradeView[];
  readonly startBalances: readonly BalanceView[];
  readonly endBalances: readonly BalanceView[];
  readonly sampleMicros: number;
  /** The window, µs. */
  readonly from: number;
  readonly to: number;
  /** The round trips (roundTripTable), when the caller has them already; computed otherwise. */
  readonly trades?: TradeTable;
}

export function computeMetrics(input: MetricsInput): TradingMetrics {
  const { engine, recorder, fills, orders } = input;
  const valuation = recorder.valuation;
  const places = valuation.precision(valuation.asset);
  const money = (d: Decimal) => d.toFixed(places, Decimal.ROUND_HALF_EVEN);
  const first = recorder.equity[0];
  const startEquity = first?.equity ?? new Decimal(0);
  const endEquity = recorder.equity[recorder.equity.length - 1]?.equity ?? startEquity;
  const pnl = endEquity.sub(startEquity);
  const holdPnl = (valuation.equity(input.startBalances) ?? startEquity).sub(startEquity);

  const feeUnits = new Map<string, number>();
  let feesValued = new Decimal(0);
  let makerVolume = new Decimal(0);
  let takerVolume = new Decimal(0);
  let makerFills = 0;
  for (const fill of fills) {
    const spec = engine.symbolSpec(fill.symbol)!;
    feeUnits.set(fill.commissionAsset, (feeUnits.get(fill.commissionAsset) ?? 0) + fill.commission);
    const quoteRate = valuation.rate(spec.quoteAsset) ?? new Decimal(0);
    const volume = units(fill.quoteQty, spec.quotePrecision).mul(quoteRate);
    if (fill.isMaker) {
      makerFills++;
      makerVolume = makerVolume.add(volume);
    } else takerVolume = takerVolume.add(volume);
    const commission = units(fill.commission, valuation.precision(fill.commissionAsset));
    if (fill.commissionAsset === spec.baseAsset) feesValued = feesValued.add(commission.mul(units(fill.price, spec.quotePrecision)).mul(quoteRate));
    else feesValued = feesValued.add(commission.mul(valuation.rate(fill.commissionAsset) ?? new Decimal(0)));
  }
  const volume = makerVolume.add(takerVolume);
  const byAsset: Record<string, string> = {};
  for (const asset of [...feeUnits.keys()].sort()) byAsset[asset] = units(feeUnits.get(asset)!, valuation.precision(asset)).toFixed(valuation.precision(asset));

  const statusCounts: Record<string, number> = { accepted: orders.length };
  for (const order of orders) statusCounts[order.status] = (statusCounts[order.status] ?? 0) + 1;
  const withFills = orders.filter((o) => o.executedQty > 0).length;
  const quantityBySymbol: Record<string, number | null> = {};
  for (const symbol of input.symbols) {
    const own = orders.filter((o) => o.symbol === symbol && o.origQty > 0);
    const ordered = own.reduce((s, o) => s + o.origQty, 0);
    quantityBySymbol[symbol] = ordered === 0 ? null : ratio(own.reduce((s, o) => s + o.executedQty, 0) / ordered);
  }

  const returns = sampleReturns(recorder.equity);
  const toReturn = (gain: Decimal) => (startEquity.isZero() ? null : ratio(gain.div(startEquity).toNumber(), 8));
  const strategyReturn = toReturn(pnl);
  const holdReturn = toReturn(holdPnl);
  const drawdown = maxDrawdown(recorder.equity, money);
  const holdSamples = recorder.equity.flatMap((sample) => (sample.hold === null ? [] : [{ time: sample.time, equity: sample.hold }]));
  const holdDrawdown = maxDrawdown(holdSamples, money);
  const holdRatios = riskRatios(sampleReturns(holdSamples), input.sampleMicros, holdReturn, input.to - input.from, holdDrawdown.fraction);
  const excess = (benchmark: number | null) => (strategyReturn === null || benchmark === null ? null : ratio(strategyReturn - benchmark, 8));
  return {
    startEquity: money(startEquity),
    endEquity: money(endEquity),
    pnl: money(pnl),
    return: strategyReturn,
    holdPnl: money(holdPnl),
    pnlVsHold: money(pnl.sub(holdPnl)),
    benchmarks: {
      hold: {
        pnl: money(holdPnl),
        return: holdReturn,
        sharpeAnnualised: holdRatios.sharpeAnnualised,
        sortinoAnnualised: holdRatios.sortinoAnnualised,
        maxDrawdown: { amount: holdDrawdown.amount, fraction: holdDrawdown.fraction },
      },
      cash: { pnl: money(new Decimal(0)), return: startEquity.isZero() ? null : 0 } },
    excessReturn: { vsHold: excess(holdReturn), vsCash: excess(startEquity.isZero() ? null : 0) },
    fees: { byAsset, valued: money(feesValued) },
    maxDrawdown: drawdown,
    ratios: riskRatios(returns, input.sampleMicros, strategyReturn, input.to - input.from, drawdown.fraction),
    trades: tradeStats(input, input.trades ?? roundTripTable(input), money),
    turnover: { volume: money(volume), ratio: startEquity.isZero() ? null : ratio(volume.div(startEquity).toNumber()) },
    orders: statusCounts,
    fillRatio: { orders: orders.length === 0 ? null : ratio(withFills / orders.length), quantityBySymbol },
    makerTaker: {
      makerFills,
      takerFills: fills.length - makerFills,
      makerVolume: money(makerVolume),
      takerVolume: money(takerVolume),
      makerShare: volume.isZero() ? null : ratio(makerVolume.div(volume).toNumber()),
    },
    markouts: MARKOUT_HORIZONS_S.map((h) => markout(fills, recorder.prices, engine, h)),
  };
}

function units(n: number, precision: number): Decimal {
  return new Decimal(n).div(new Decimal(10).pow(precision));
}

function sampleReturns(equity: readonly Pick<EquitySample, 'equity'>[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < equity.length; i++) {
    const before = equity[i - 1]!.equity;
    if (!before.isZero()) out.push(equity[i]!.equity.div(before).sub(1).toNumber());
  }
  return out;
}

/** Sharpe, Sortino (annualised by √ periods a year), the simple annualised return and Calmar. */
export function riskRatios(returns: readonly number[], sampleMicros: number, totalReturn: number | null, windowMicros: number, drawdownFraction: number | null): RiskRatios {
  const periodsPerYear = YEAR_US / sampleMicros;
  const n = returns.length;
  const mean = n === 0 ? 0 : returns.reduce((s, r) => s + r, 0) / n;
  const variance = n < 2 ? 0 : returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (n - 1);
  const downside = n === 0 ? 0 : returns.reduce((s, r) => s + Math.min(r, 0) ** 2, 0) / n;
  const annualisedReturn = totalReturn === null || windowMicros <= 0 ? null : totalReturn * (YEAR_US / windowMicros);
  return {
    sampleSeconds: sampleMicros / 1_000_000,
    periodsPerYear: ratio(periodsPerYear, 4)!,
    samples: n,
    sharpeAnnualised: n < 2 || !(variance > 0) ? null : ratio((mean / Math.sqrt(variance)) * Math.sqrt(periodsPerYear), 4),
    sortinoAnnualised: n < 2 || !(downside > 0) ? null : ratio((mean / Math.sqrt(downside)) * Math.sqrt(periodsPerYear), 4),
    annualisedReturn: ratio(annualisedReturn, 6),
    calmar: annualisedReturn === null || drawdownFraction === null || drawdownFraction === 0 ? null : ratio(annualisedReturn / drawdownFraction, 4),
  };
}

/**
 * One round trip as trades.csv lists it (round-trips.ts says what each field counts). Prices,
 * quantity, PnL and fees are decimal strings in the symbol's assets; `pnlValued` is the PnL in the
 * valuation asset at the end rates, what the summary's statistics add up.
 */
export interface TradeRow {
  readonly symbol: string;
  readonly side: 'long' | 'short';
  /** µs. */
  readonly entryTime: number;
  readonly exitTime: number;
  readonly quantity: string;
  readonly entryPrice: string;
  readonly exitPrice: string;
  readonly quoteAsset: string;
  readonly pnl: string;
  readonly fees: string;
  readonly pnlValued: Decimal;
  readonly entryOrderId: number;
  readonly entryClientOrderId: string;
  readonly exitOrderId: number;
  readonly exitClientOrderId: string;
  /** The reasons the strategy tagged the two orders with (`ctx.tag`), '' when none. */
  readonly entryReason: string;
  readonly exitReason: string;
}

export interface TradeTable {
  /** In the order the trips closed (by time, then symbol). */
  readonly rows: readonly TradeRow[];
  /** µs: when each trip still open at the end began (one per symbol at most). */
  readonly openSince: readonly number[];
}

/** Every symbol's round trips (round-trips.ts), as rows; `reasonOf` gives an order's tag. */
export function roundTripTable(input: MetricsInput, reasonOf: (symbol: string, orderId: number, clientOrderId: string) => string = () => ''): TradeTable {
  const { engine, recorder } = input;
  const valuation = recorder.valuation;
  const rows: TradeRow[] = [];
  const openSince: number[] = [];
  const clientIds = new Map(input.orders.map((o) => [`${o.symbol} ${o.orderId}`, o.clientOrderId]));
  for (const symbol of input.symbols) {
    const spec = engine.symbolSpec(symbol)!;
    const base = (n: number) => units(n, spec.basePrecision);
    const quote = (n: number) => units(n, spec.quotePrecision);
    const quoteRate = valuation.rate(spec.quoteAsset) ?? new Decimal(0);
    const fills: TripFill[] = input.fills
      .filter((f) => f.symbol === symbol)
      .map((f) => {
        const price = quote(f.price);
        const fee = units(f.commission, valuation.precision(f.commissionAsset));
        const baseFee = f.commissionAsset === spec.baseAsset ? fee : new Decimal(0);
        const quoteFee = f.commissionAsset === spec.quoteAsset ? fee : new Decimal(0);
        const other = baseFee.isZero() && quoteFee.isZero() && !fee.isZero() ? fee.mul(valuation.rate(f.commissionAsset) ?? 0).div(quoteRate.isZero() ? 1 : quoteRate) : new Decimal(0);
        return {
          time: f.time,
          price,
          qty: base(f.qty),
          isBuyer: f.isBuyer,
          baseDelta: (f.isBuyer ? base(f.qty) : base(f.qty).neg()).sub(baseFee),
          quoteDelta: (f.isBuyer ? quote(f.quoteQty).neg() : quote(f.quoteQty)).sub(quoteFee),
          otherFees: other,
          fee: baseFee.mul(price).add(quoteFee).add(other),
          orderId: f.orderId,
          clientOrderId: clientIds.get(`${symbol} ${f.orderId}`) ?? '',
        };
      });
    const minQty = Math.max(spec.stepUnits, spec.lotSize?.min ?? spec.stepUnits);
    const { trips, openSince: since } = roundTrips(fills, base(minQty));
    const amount = (d: Decimal, places: number) => d.toFixed(places, Decimal.ROUND_HALF_EVEN);
    for (const trip of trips) {
      // The statistics add up what the row shows: its PnL as written, valued.
      const pnl = amount(trip.pnl, spec.quotePrecision);
      rows.push({
        symbol,
        side: trip.side,
        entryTime: trip.open,
        exitTime: trip.close,
        quantity: amount(trip.quantity, spec.basePrecision),
        entryPrice: amount(trip.entryPrice, spec.quotePrecision),
        exitPrice: amount(trip.exitPrice, spec.quotePrecision),
        quoteAsset: spec.quoteAsset,
        pnl,
        fees: amount(trip.fees, spec.quotePrecision),
        pnlValued: new Decimal(pnl).mul(quoteRate),
        entryOrderId: trip.entryOrder.orderId,
        entryClientOrderId: trip.entryOrder.clientOrderId,
        exitOrderId: trip.exitOrder.orderId,
        exitClientOrderId: trip.exitOrder.clientOrderId,
        entryReason: reasonOf(symbol, trip.entryOrder.orderId, trip.entryOrder.clientOrderId),
        exitReason: reasonOf(symbol, trip.exitOrder.orderId, trip.exitOrder.clientOrderId),
      });
    }
    if (since !== null) openSince.push(since);
  }
  rows.sort((a, b) => a.exitTime - b.exitTime || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return { rows, openSince };
}

/** The round-trip statistics, from the rows trades.csv lists, valued in the valuation asset at the end rates. */
function tradeStats(input: MetricsInput, table: TradeTable, money: (d: Decimal) => string): TradeStats {
  const pnls = table.rows.map((r) => r.pnlValued);
  let exposed = 0;
  for (const row of table.rows) exposed += row.exitTime - row.entryTime;
  for (const since of table.openSince) exposed += input.to - since;
  const wins = pnls.filter((p) => p.gt(0));
  const losses = pnls.filter((p) => p.lt(0));
  const sum = (xs: Decimal[]) => xs.reduce((s, x) => s.add(x), new Decimal(0));
  const window = input.to - input.from;
  const n = pnls.length;
  return {
    roundTrips: n,
    wins: wins.length,
    losses: losses.length,
    winRate: n === 0 ? null : ratio(wins.length / n),
    profitFactor: losses.length === 0 ? null : ratio(sum(wins).div(sum(losses).abs()).toNumber(), 4),
    totalPnl: n === 0 ? null : money(sum(pnls)),
    averagePnl: n === 0 ? null : money(sum(pnls).div(n)),
    bestPnl: n === 0 ? null : money(Decimal.max(...pnls)),
    worstPnl: n === 0 ? null : money(Decimal.min(...pnls)),
    averageDurationSeconds: n === 0 ? null : ratio(table.rows.reduce((s, r) => s + (r.exitTime - r.entryTime), 0) / n / 1_000_000, 3),
    exposure: window <= 0 ? null : ratio(Math.min(exposed, window * input.symbols.length) / (window * input.symbols.length)),
    openAtEnd: table.openSince.length > 0,
  };
}

export function maxDrawdown(equity: readonly Pick<EquitySample, 'time' | 'equity'>[], money: (d: Decimal) => string): Drawdown {
  let peak: Pick<EquitySample, 'time' | 'equity'> | undefined;
  let worst = new Decimal(0);
  let worstPeak: Pick<EquitySample, 'time' | 'equity'> | undefined;
  let trough: Pick<EquitySample, 'time' | 'equity'> | undefined;
  let longest = 0;
  for (const sample of equity) {
    if (peak === undefined || sample.equity.gte(peak.equity)) peak = sample;
    longest = Math.max(longest, sample.time - peak.time);
    const fall = peak.equity.sub(sample.equity);
    if (fall.gt(worst)) {
      worst = fall;
      worstPeak = peak;
      trough = sample;
    }
  }
  const recovery = trough === undefined ? undefined : equity.find((s) => s.time > trough!.time && s.equity.gte(worstPeak!.equity));
  const end = equity[equity.length - 1]?.time;
  return {
    amount: money(worst),
    fraction: worstPeak === undefined || worstPeak.equity.isZero() ? (equity.length > 0 ? 0 : null) : ratio(worst.div(worstPeak.equity).toNumber()),
    peakTime: worstPeak?.time ?? null,
    troughTime: trough?.time ?? null,
    durationSeconds: worstPeak === undefined ? null : ((recovery?.time ?? end!) - worstPeak.time) / 1_000_000,
    recovered: recovery !== undefined,
    longestUnderwaterSeconds: longest / 1_000_000,
  };
}

/** Index of the last second whose close is known at `time` (the second ended by then), or -1. */
export function closeKnownAt(series: PriceSeries, time: number): number {
  let lo = 0;
  let hi = series.seconds.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (series.seconds[mid]! + 1_000_000 <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function markout(fills: readonly AccountTradeView[], prices: ReadonlyMap<string, PriceSeries>, engine: Engine, horizonSeconds: number): Markout {
  let n = 0;
  let sum = 0;
  let weighted = 0;
  let weights = 0;
  for (const fill of fills) {
    const series = prices.get(fill.symbol);
    if (series === undefined || series.seconds.length === 0) continue;
    const at = fill.time + horizonSeconds * 1_000_000;
    // Only horizons that end inside the recorded tape (the last second's end).
    if (at > series.seconds[series.seconds.length - 1]! + 1_000_000) continue;
    const index = closeKnownAt(series, at);
    if (index < 0) continue;
    const later = series.closes[index]!;
    const bps = ((later - fill.price) / fill.price) * 10_000 * (fill.isBuyer ? 1 : -1);
    const weight = fill.quoteQty / 10 ** engine.symbolSpec(fill.symbol)!.quotePrecision;
    n++;
    sum += bps;
    weighted += bps * weight;
    weights += weight;
  }
  return { horizonSeconds, fills: n, meanBps: n === 0 ? null : ratio(sum / n, 4), volumeWeightedBps: weights === 0 ? null : ratio(weighted / weights, 4) };
}
