/**
 * USDⓈ-M futures in a backtest (`--futures BTCUSDT`, or a strategy module's `futures` export):
 * each perpetual is traded in the engine as its margin symbol `um:<symbol>` beside its spot
 * symbol (docs/usdm-futures.md), with
 * - the contract's rules (src/futures/trading/contract-rules.ts) and the futures wallet asset,
 * - prints from the data folder's USDⓈ-M futures files for the window when it has them
 *   (`futures/um/...` dumps, Tardis `binance-futures` trades; futures-tape.ts), else derived from
 *   the spot tape (derived-futures-tape.ts), so resting futures orders fill by the same fill model,
 * - the synthetic book of the run's profile on the contract's grid (a MARKET order has a book),
 * - the mark each simulated second and funding at each funding time of its interval (8 h, or
 *   `--futures BTCUSDT:4h`), at the recorded rates where the folder has USDⓈ-M fundingRate dumps
 *   (perpetualFunding; futures-clock.ts, funding-schedule.ts).
 * The strategy reaches it through `/fapi` and `/sapi/v1/asset/transfer` on `ctx.client`, exactly
 * as a bot does over HTTP. What the run did in futures is summary.json's `futures` section.
 */
import { Decimal } from 'decimal.js';
import type { EngineConfig, Engine, EngineEvent, SymbolSpec } from '../engine/index.ts';
import { fapiSymbolOf, futuresEngineSymbol, spotAssetOf } from '../engine/index.ts';
import { DERIVED_FUTURES_SOURCE, derivedFuturesTape, FUNDING_INTERVALS, futuresDumpTape, futuresSymbolConfig, type FundingSetup, type FuturesMarket } from '../futures/index.ts';
import { readFundingRates, readMarkKlines, type MarkBar, type MarketData, type SymbolTape } from '../data/index.ts';
import { chooseVertexOrder } from '../sim/index.ts';
import { adaptiveKlinePrints } from './market-data.ts';
import { InputError } from './input-error.ts';

/** A perpetual a run trades and its funding interval when one is given (`BTCUSDT:4h`). */
export interface FuturesEntry {
  readonly symbol: string;
  /** 1, 4 or 8 (hours); undefined: Binance's default 8, or as the data folder's fundingRate dumps record. */
  readonly intervalHours?: number;
}

const ENTRY = /^([A-Z0-9]{2,20})(?::(\d+)H)?$/;

/**
 * The perpetuals a run trades (`--futures BTCUSDT,ETHUSDT:4h`, or a strategy module's `futures`
 * export): Binance names, upper case, each once, in the order given; `:1h`, `:4h` or `:8h` after a
 * name sets its funding interval (GET /fapi/v1/fundingInfo `fundingIntervalHours`).
 */
export function parseFuturesEntries(text: string | readonly string[] | undefined): FuturesEntry[] {
  if (text === undefined) return [];
  const names = (typeof text === 'string' ? text.split(',') : [...text]).map((s) => s.trim().toUpperCase()).filter((s) => s !== '');
  const entries: FuturesEntry[] = [];
  for (const name of names) {
    const match = ENTRY.exec(name);
    if (match === null) throw new InputError(`--futures: "${name}" is not a symbol (e.g. BTCUSDT, or BTCUSDT:4h for a 4-hour funding interval)`);
    const symbol = match[1]!;
    const hours = match[2] === undefined ? undefined : Number(match[2]);
    if (hours !== undefined && !FUNDING_INTERVALS.includes(hours)) throw new InputError(`--futures ${name}: the funding interval is ${FUNDING_INTERVALS.map((h) => `${h}h`).join(', ')} (Binance's), not ${match[2]}h`);
    const seen = entries.find((e) => e.symbol === symbol);
    if (seen === undefined) entries.push(hours === undefined ? { symbol } : { symbol, intervalHours: hours });
    else if (seen.intervalHours !== hours) throw new InputError(`--futures names ${symbol} twice with different funding intervals`);
  }
  return entries;
}

/** The perpetuals' names of `text` (parseFuturesEntries). */
export function parseFuturesSymbols(text: string | readonly string[] | undefined): string[] {
  return parseFuturesEntries(text).map((e) => e.symbol);
}

/** `text` checked and normalized (`BTCUSDT`, `ETHUSDT:4h`): what a request passes on to the run. */
export function futuresEntryTexts(text: string | readonly string[] | undefined): string[] {
  return parseFuturesEntries(text).map((e) => (e.intervalHours === undefined ? e.symbol : `${e.symbol}:${e.intervalHours}h`));
}

/** The funding intervals `text` sets, by perpetual. */
export function parseFuturesIntervals(text: string | readonly string[] | undefined): Record<string, number> {
  return Object.fromEntries(parseFuturesEntries(text).flatMap((e) => (e.intervalHours === undefined ? [] : [[e.symbol, e.intervalHours] as const])));
}

/**
 * `config` with the perpetuals of `fapiSymbols` (each needs its spot symbol in `config`) and their
 * futures wallet assets; `intervals`: funding intervals set (hours) by perpetual, 8 for the others.
 */
export function withFutures(config: EngineConfig, fapiSymbols: readonly string[], intervals: Readonly<Record<string, number>> = {}): EngineConfig {
  if (fapiSymbols.length === 0) return config;
  const symbols = fapiSymbols.map((name) => {
    if (!config.symbols.some((s) => s.symbol === name)) throw new InputError(`--futures ${name}: the data has no spot ${name} to derive the perpetual from`);
    const hours = Object.hasOwn(intervals, name) ? intervals[name] : undefined;
    return futuresSymbolConfig(name, hours === undefined ? {} : { fundingIntervalHours: hours });
  });
  const assets = [...(config.assets ?? [])];
  for (const symbol of symbols) {
    const wallet = symbol.quoteAsset;
    if (!assets.some((a) => a.asset === wallet)) assets.push({ asset: wallet, precision: assets.find((a) => a.asset === spotAssetOf(wallet))?.precision ?? 8 });
  }
  return { ...config, assets, symbols: [...config.symbols, ...symbols] };
}

/** A perpetual's prints in a replay and how they were made (summary.json `futures.prints`, once read). */
export interface PerpetualTape {
  readonly tape: SymbolTape;
  describe(): string;
}

/**
 * The prints of the perpetual `fapiSymbol` over [from, to) µs: the data folder's USDⓈ-M futures
 * files for the window when it has any (finest kind first: trades, aggTrades, klines), else
 * derived from its spot tape (`spot()`, read a second time) by the futures model `market()`.
 * `specOf` gives the engine rules of the spot symbol and of the margin symbol `um:<symbol>`.
 */
export async function perpetualTape(
  data: MarketData,
  fapiSymbol: string,
  specOf: (engineSymbol: string) => SymbolSpec,
  from: number,
  to: number,
  spot: () => Promise<SymbolTape>,
  market: () => FuturesMarket,
): Promise<PerpetualTape> {
  const futuresSpec = specOf(futuresEngineSymbol(fapiSymbol));
  const dumps = await futuresDumpTape(data, fapiSymbol, futuresSpec, from, to, adaptiveKlinePrints);
  if (dumps !== null) return dumps;
  return { tape: derivedFuturesTape(await spot(), specOf(fapiSymbol), futuresSpec, fapiSymbol, market), describe: () => DERIVED_FUTURES_SOURCE };
}

/** A perpetual's funding in a run: what the futures model and clock take (FuturesMarket `funding`), and its source for summary.json. */
export interface PerpetualFunding {
  readonly setup: FundingSetup;
  readonly text: string;
}

/**
 * The funding of the perpetual `fapiSymbol` over [from, to) µs: the data folder's USDⓈ-M
 * fundingRate dumps (`futures/um/monthly/fundingRate/...`) when it has any for the window (their
 * times, intervals and rates; the model where they have none), else the model's rate every
 * `intervalHours` (default 8).
 */
export async function perpetualFunding(data: MarketData, fapiSymbol: string, from: number, to: number, intervalHours?: number): Promise<PerpetualFunding> {
  const hours = intervalHours ?? 8;
  const model = `the futures model's rate every ${hours} h`;
  const recorded = await readFundingRates(data.dir, fapiSymbol, from, to);
  const base = intervalHours === undefined ? {} : { intervalHours };
  if (recorded === null) return { setup: base, text: model };
  const n = recorded.files.length;
  const inWindow = recorded.rows.filter((r) => r.time >= from && r.time < to).length;
  return {
    setup: { ...base, recorded: recorded.rows },
    text: `futures/um fundingRate dumps: ${n} file${n === 1 ? '' : 's'}, ${inWindow} funding${inWindow === 1 ? '' : 's'} in the window (recorded times and rates; ${model} outside them)`,
  };
}

/** A perpetual's mark in a run: the recorded mark function for the futures model (FuturesMarket `marks`), if any, and its source for summary.json. */
export interface PerpetualMarks {
  readonly mark: ((t: number) => number | null) | null;
  readonly text: string;
}

export const MODEL_MARKS = 'the futures model: index (the last spot price) × (1 + seeded premium)';

/** Seconds of a minute at which the recorded mark is at the bar's open, first extreme, second extreme and close. */
const MARK_KNOTS = [0, 20, 40, 59] as const;
const MINUTE_US = 60_000_000;
const SECOND_US = 1_000_000;

/**
 * The mark at t along recorded one-minute mark bars, or null in a minute without a bar. Within a
 * minute (**chosen**, as the kline tapes walk a bar): open at second 0, the extreme nearer the open
 * at second 20 and the other at second 40 (src/sim/kline-path.ts `chooseVertexOrder` 'adaptive'),
 * the close from second 59, linear (floored to a unit) in between; so the mark touches the bar's
 * real high and low, where liquidations happen.
 */
export function markAlongBars(bars: readonly MarkBar[]): (t: number) => number | null {
  const byMinute = new Map(bars.map((b) => [b.openTime, b]));
  return (t) => {
    const start = Math.floor(t / MINUTE_US) * MINUTE_US;
    const bar = byMinute.get(start);
    if (bar === undefined) return null;
    const highFirst = chooseVertexOrder(bar, 'adaptive') === 'OHLC';
    const prices = [bar.open, highFirst ? bar.high : bar.low, highFirst ? bar.low : bar.high, bar.close];
    const second = Math.floor((t - start) / SECOND_US);
    for (let k = 0; k < 3; k++) {
      const from = MARK_KNOTS[k]!;
      const to = MARK_KNOTS[k + 1]!;
      if (second < to) return prices[k]! + Math.floor(((prices[k + 1]! - prices[k]!) * (second - from)) / (to - from));
    }
    return bar.close;
  };
}

/**
 * The mark of the perpetual `fapiSymbol` over [from, to) µs: along the data folder's USDⓈ-M 1m
 * markPriceKlines dumps (`futures/um/.../markPriceKlines/<S>/1m/...`) when it has any for the
 * window (markAlongBars), prices at `precision` decimals (the spot symbol's); else the model's.
 */
export async function perpetualMarks(data: MarketData, fapiSymbol: string, from: number, to: number, precision: number): Promise<PerpetualMarks> {
  const recorded = await readMarkKlines(data.dir, fapiSymbol, from, to, precision);
  if (recorded === null) return { mark: null, text: MODEL_MARKS };
  const n = recorded.files.length;
  const minutes = recorded.bars.filter((b) => b.openTime >= from && b.openTime < to).length;
  return {
    mark: markAlongBars(recorded.bars),
    text: `futures/um markPriceKlines 1m dumps: ${n} file${n === 1 ? '' : 's'}, ${minutes} minute${minutes === 1 ? '' : 's'} in the window (each minute open → nearer extreme → other extreme → close at seconds 0, 20, 40, 59; ${MODEL_MARKS} in minutes without a bar)`,
  };
}

/** summary.json's `futures.funding` (and `futures.marks`): each perpetual's source (just the text when one perpetual, or when all are the same). */
export function futuresFundingText(sources: readonly { readonly symbol: string; readonly text: string }[]): string {
  if (sources.length === 1 || sources.every((s) => s.text === sources[0]!.text)) return sources[0]?.text ?? '';
  return sources.map((s) => `${s.symbol}: ${s.text}`).join('; ');
}

export interface FuturesSymbolSummary {
  readonly symbol: string;
  /** The position at the end (one-way: signed; hedge: LONG + SHORT), base asset. */
  readonly positionAmt: string;
  readonly entryPrice: string;
  readonly markPrice: string;
  readonly unrealizedProfit: string;
  readonly realizedPnl: string;
  readonly commission: string;
  /** Funding received (+) and paid (−) over the run. */
  readonly fundingReceived: string;
  readonly fundingPaid: string;
  readonly fundings: number;
  readonly liquidations: number;
  /** The account's commission rates on the contract (fractions, 1e-8 precision). */
  readonly makerCommissionRate: string;
  readonly takerCommissionRate: string;
}

export interface FuturesSummary {
  /** How the contracts' prints were made. */
  readonly prints: string;
  /** Where the fundings came from: the data folder's fundingRate dumps or the futures model (and its interval). */
  readonly funding: string;
  /** Where the mark came from: the data folder's markPriceKlines dumps or the futures model. */
  readonly marks: string;
  readonly marginAsset: string;
  readonly symbols: readonly FuturesSymbolSummary[];
  /** The largest initial margin (positions + open orders) seen at a mark, margin asset. */
  readonly maxMarginUsed: string;
  readonly marginCalls: number;
  readonly liquidations: number;
  /** The insurance fund of the margin asset at the end (it took the liquidations' clearance). */
  readonly insuranceFund: string;
}

/** Decimals of a grid step of `units` at `precision` (a tick of 10 units at 8 decimals: 7). */
function gridDecimals(units: number, precision: number): number {
  let places = precision;
  for (let u = units; places > 0 && u % 10 === 0; u /= 10) places -= 1;
  return places;
}

/** Watches the strategy account's futures over a run: margin used at each mark, calls and liquidations. */
export class FuturesTracker {
  readonly #engine: Engine;
  readonly #accountId: number;
  #maxMargin = 0;
  #marginCalls = 0;
  readonly #liquidations = new Map<string, number>();

  constructor(engine: Engine, accountId: number) {
    this.#engine = engine;
    this.#accountId = accountId;
  }

  /** After each mark or funding command: its events and the margin then in use. */
  observe(events: readonly EngineEvent[]): void {
    for (const e of events) {
      if (e.type === 'MarginCalled' && e.accountId === this.#accountId) this.#marginCalls += 1;
      if (e.type === 'PositionLiquidated' && e.accountId === this.#accountId) this.#liquidations.set(e.symbol, (this.#liquidations.get(e.symbol) ?? 0) + 1);
    }
    for (const wallet of this.#engine.futuresBalances(this.#accountId)) if (wallet.initialMargin > this.#maxMargin) this.#maxMargin = wallet.initialMargin;
  }

  summary(fapiSymbols: readonly string[], prints: string, funding: string, marks: string, from: number, to: number): FuturesSummary {
    const engine = this.#engine;
    const marginAsset = engine.symbolSpec(futuresEngineSymbol(fapiSymbols[0]!))!.quoteAsset;
    const precision = engine.symbolSpec(futuresEngineSymbol(fapiSymbols[0]!))!.quotePrecision;
    const money = (units: number) => new Decimal(units).div(new Decimal(10).pow(precision)).toFixed(precision);
    const income = engine.futuresIncome(this.#accountId, { startTime: from, endTime: to });
    const symbols = fapiSymbols.map((fapiSymbol): FuturesSymbolSummary => {
      const engineSymbol = futuresEngineSymbol(fapiSymbol);
      const spec = engine.symbolSpec(engineSymbol)!;
      // As /fapi shows them: prices with the tick's decimals (the mark with the margin asset's), quantities with the step's.
      const price = (units: number, places = gridDecimals(spec.tickUnits, spec.quotePrecision)) => new Decimal(units).div(new Decimal(10).pow(spec.quotePrecision)).toFixed(places);
      const qty = (units: number) => new Decimal(units).div(new Decimal(10).pow(spec.basePrecision)).toFixed(gridDecimals(spec.stepUnits, spec.basePrecision));
      const positions = engine.futuresPositions(this.#accountId, engineSymbol);
      const rates = engine.futuresCommissionRates(this.#accountId, engineSymbol);
      const rate = (units: number) => new Decimal(units).div(1e8).toFixed(8);
      const open = positions.filter((p) => p.positionAmt !== 0);
      const sum = (type: string, sign: 1 | -1 | 0) =>
        income.filter((row) => row.symbol === engineSymbol && row.incomeType === type && (sign === 0 || Math.sign(row.income) === sign)).reduce((total, row) => total + row.income, 0);
      return {
        symbol: fapiSymbolOf(engineSymbol) ?? fapiSymbol,
        positionAmt: qty(positions.reduce((total, p) => total + p.positionAmt, 0)),
        entryPrice: open.length === 1 ? price(open[0]!.entryPrice) : price(0),
        markPrice: price(engine.futuresMarkPrice(engineSymbol)?.markPrice ?? 0, spec.quotePrecision),
        unrealizedProfit: money(positions.reduce((total, p) => total + p.unrealizedProfit, 0)),
        realizedPnl: money(sum('REALIZED_PNL', 0)),
        commission: money(sum('COMMISSION', 0)),
        fundingReceived: money(sum('FUNDING_FEE', 1)),
        fundingPaid: money(sum('FUNDING_FEE', -1)),
        fundings: income.filter((row) => row.symbol === engineSymbol && row.incomeType === 'FUNDING_FEE').length,
        liquidations: this.#liquidations.get(engineSymbol) ?? 0,
        makerCommissionRate: rate(rates?.maker ?? 0),
        takerCommissionRate: rate(rates?.taker ?? 0),
      };
    });
    const fund = engine.futuresInsuranceFund().find((f) => f.asset === marginAsset)?.balance ?? 0;
    return {
      prints,
      funding,
      marks,
      marginAsset: spotAssetOf(marginAsset) ?? marginAsset,
      symbols,
      maxMarginUsed: money(this.#maxMargin),
      marginCalls: this.#marginCalls,
      liquidations: [...this.#liquidations.values()].reduce((a, b) => a + b, 0),
      insuranceFund: money(fund),
    };
  }
}
