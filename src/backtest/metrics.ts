/**
 * The numbers a backtest report gives, from what the run recorded and the engine's final state.
 * Money is exact (decimal.js) and leaves as decimal strings at the valuation asset's precision;
 * ratios (return, drawdown fraction, Sharpe, markouts in basis points) are plain numbers rounded
 * to fixed decimals so the JSON is byte-identical between runs.
 *
 * Definitions:
 * - equity: Σ (free + locked) of every valued asset × its rate at the last prices (valuation.ts).
 * - pnl = end equity − start equity (mark to market: inventory revaluation included);
 *   return = pnl / start equity; holdPnl = what the opening balances gained by the end prices
 *   alone, pnlVsHold = pnl − holdPnl (what trading added).
 * - maxDrawdown: the largest fall from a running peak of the sampled equity (amount, and fraction
 *   of that peak), with the peak's and the trough's times.
 * - sharpe: mean / standard deviation of the per-sample simple returns, × √(samples per year);
 *   null when the returns do not vary.
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
}

export interface TradingMetrics {
  readonly startEquity: string;
  readonly endEquity: string;
  readonly pnl: string;
  readonly return: number | null;
  /** What holding the opening balances would have made (their value at the end prices − start equity), and pnl − that. */
  readonly holdPnl: string;
  readonly pnlVsHold: string;
  readonly fees: { readonly byAsset: Readonly<Record<string, string>>; readonly valued: string };
  readonly maxDrawdown: Drawdown;
  readonly sharpe: { readonly value: number | null; readonly sampleSeconds: number; readonly samples: number };
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
  return {
    startEquity: money(startEquity),
    endEquity: money(endEquity),
    pnl: money(pnl),
    return: startEquity.isZero() ? null : ratio(pnl.div(startEquity).toNumber(), 8),
    holdPnl: money(holdPnl),
    pnlVsHold: money(pnl.sub(holdPnl)),
    fees: { byAsset, valued: money(feesValued) },
    maxDrawdown: maxDrawdown(recorder.equity, money),
    sharpe: { value: ratio(sharpe(returns, input.sampleMicros), 4), sampleSeconds: input.sampleMicros / 1_000_000, samples: returns.length },
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

function sampleReturns(equity: readonly EquitySample[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < equity.length; i++) {
    const before = equity[i - 1]!.equity;
    if (!before.isZero()) out.push(equity[i]!.equity.div(before).sub(1).toNumber());
  }
  return out;
}

function sharpe(returns: readonly number[], sampleMicros: number): number | null {
  if (returns.length < 2) return null;
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1);
  if (!(variance > 0)) return null;
  return (mean / Math.sqrt(variance)) * Math.sqrt(YEAR_US / sampleMicros);
}

function maxDrawdown(equity: readonly EquitySample[], money: (d: Decimal) => string): Drawdown {
  let peak: EquitySample | undefined;
  let worst = new Decimal(0);
  let worstPeak: EquitySample | undefined;
  let trough: EquitySample | undefined;
  for (const sample of equity) {
    if (peak === undefined || sample.equity.gt(peak.equity)) peak = sample;
    const fall = peak.equity.sub(sample.equity);
    if (fall.gt(worst)) {
      worst = fall;
      worstPeak = peak;
      trough = sample;
    }
  }
  return {
    amount: money(worst),
    fraction: worstPeak === undefined || worstPeak.equity.isZero() ? (equity.length > 0 ? 0 : null) : ratio(worst.div(worstPeak.equity).toNumber()),
    peakTime: worstPeak?.time ?? null,
    troughTime: trough?.time ?? null,
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
