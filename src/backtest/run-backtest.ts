/**
 * One backtest, in process: the composition root.
 *
 *   market data (sample or folder, cut to [from, to)) ─> Replay (fill model, seed, latency)
 *     + SyntheticBook (the engine's seeded ladder around the last print, so MARKET orders walk levels)
 *     + ExchangeContext (the REST facade over the replay; the strategy's HMAC key)
 *     + StrategyRuntime (the strategy's async code, its sleeps and calls on the Scheduler)
 *     + BacktestRecorder (per-second closes, equity samples) ─> BacktestResult
 *
 * The strategy trades as account 1 with the demo key. Same
 * data + strategy + params + seed => the same journal (SHA-256 in the result) and the same
 * report bytes; the only wall-clock reading is the caller's progress bar.
 */
import { statSync } from 'node:fs';
import { ExchangeContext } from '../api-facade/index.ts';
import { Engine, fapiSymbolOf, futuresEngineSymbol, isFuturesSymbol, type AccountTradeView, type BalanceView, type CreateAccount, type OrderView } from '../engine/index.ts';
import { accountCommand, resolveAccount, type AccountChoices, type AccountSetup } from './account-setup.ts';
import { klineOriginOfReason, Replay, SyntheticBook, tapeTradeOfReason, type JournalSink, type LatencyConfig, type ReplayedTrade } from '../sim/index.ts';
import { fillModelText, makeFillModel, parseFillModel, type FillModelName } from './parse-fill-model.ts';
import { formatRecordingGap, formatUtcMicros, windowedDepth, type DepthStream, type ReadNotes, type SymbolTape, type WindowedDepth } from '../data/index.ts';
import { DEMO_CREDENTIALS } from '../sample/index.ts';
import { InputError } from './input-error.ts';
import { bookProfileFor, bookText, DEFAULT_BOOK, parseBook, type BookSetting } from './parse-book.ts';
import { chooseSymbols, openMarketData, resolveWindow, tapeFromShared, windowedTape, windowGaps, type DataGap, type MarketSource, type SharedTape } from './market-data.ts';
import { computeMetrics, roundTripTable, type TradeTable, type TradingMetrics } from './metrics.ts';
import { BacktestRecorder } from './recorder.ts';
import { StrategyRuntime } from './strategy-runtime.ts';
import { Valuation } from './valuation.ts';
import { FuturesTracker, futuresFundingText, parseFuturesIntervals, parseFuturesSymbols, perpetualFunding, perpetualMarks, perpetualTape, withFutures, type FuturesSummary, type PerpetualFunding, type PerpetualTape } from './futures-setup.ts';
import { FuturesMarket, futuresPrintsText, startFuturesClock } from '../futures/index.ts';
import type { RestMethod, RestResponse } from './strategy.ts';
import type { LoadedStrategy } from './load-strategy.ts';

export const STRATEGY_ACCOUNT_ID = 1;
/** Depth files this large (packed) are parsed on a worker thread: below, starting one costs more than it saves. */
export const THREADED_DEPTH_BYTES = 8 * 1024 * 1024;

function depthBytes(depth: WindowedDepth): number {
  return depth.files.reduce((sum, f) => sum + statSync(f.path).size, 0);
}
/** The strategy signs as the demo key of the sample market (one definition: src/sample). */
export const STRATEGY_API_KEY = DEMO_CREDENTIALS.apiKey;
export const STRATEGY_SECRET = DEMO_CREDENTIALS.secretKey;

export { FILL_MODELS, makeFillModel, type FillModelName } from './parse-fill-model.ts';

export { DEFAULT_BALANCES } from './account-setup.ts';

export interface BacktestOptions {
  readonly strategy: LoadedStrategy;
  /** Overrides of the strategy's `params`. */
  readonly params?: Readonly<Record<string, string>>;
  /** `sample` or a folder. Default `sample`. */
  readonly data?: string;
  /** µs; default: the first and last day the first symbol's trades files cover. */
  readonly from?: number;
  readonly to?: number;
  readonly symbols?: readonly string[];
  readonly fillModel?: FillModelName;
  /** The synthetic book's profile (parse-book.ts); null: no synthetic book. Default: DEFAULT_BOOK. */
  readonly book?: BookSetting | null;
  /** Per-leg latency; none: calls are answered at once. */
  readonly latency?: LatencyConfig;
  readonly seed?: string;
  /** Balances, fees, BNB discount as the command line gives them (over the strategy module's exports). */
  readonly account?: AccountChoices;
  /** Where the journal goes (a hashing sink at least: the result's `journalHash`). */
  readonly journal?: JournalSink;
  /** Equity sample period, µs. Default one minute. */
  readonly sampleMicros?: number;
  /** Called with every replayed print (the tape's fingerprint). */
  readonly onPrint?: (trade: ReplayedTrade) => void;
  /** Called every `progressEvery` prints (and at the end) with simulated now. */
  readonly onProgress?: (progress: { now: number; from: number; to: number; prints: number }) => void;
  readonly progressEvery?: number;
  /** Called before the replay with each stretch of the window no data file covers. */
  readonly onDataGap?: (gap: DataGap) => void;
  /**
   * Called after the replay with one line per thing the data reader read past: a recording's gap
   * (the book emptied until a snapshot resynchronised it, trade ids skipped), a torn recording
   * file, Tardis rows restamped (counted once per symbol).
   */
  readonly onDataWarning?: (line: string) => void;
  /** The symbols' tapes already loaded in shared memory (a sweep's workers); default: read the data. */
  readonly sharedTapes?: readonly SharedTape[];
  /** Let the strategy use host timers and Date.now, with a warning; default: they fail the run (host-time-guard.ts). */
  readonly allowHostTime?: boolean;
  /** USDⓈ-M perpetuals traded beside their spot symbols (futures-setup.ts); default the strategy's `futures` export. */
  readonly futures?: readonly string[];
  /** The replay's print fast path (ReplayConfig.fastPrints); default on. Off only to compare the two (tests). */
  readonly fastPrints?: boolean;
  /** Called once the data is open, before the replay starts: what is run on what (the command line's first line). */
  readonly onStart?: (start: BacktestStart) => void;
}

/** What `onStart` is told: the run as the summary will name it. */
export interface BacktestStart {
  readonly strategyName: string;
  readonly symbols: readonly string[];
  readonly from: number;
  readonly to: number;
  /** Per symbol: what the prints are made from (as BacktestResult.sources). */
  readonly sources: Readonly<Record<string, string>>;
  readonly fillModel: string;
  readonly seed: string;
}

export interface DepthStats {
  readonly messages: number;
  readonly crossedLevelsDropped: number;
  readonly updatesBeforeSnapshot: number;
}

/** What the readers of a symbol's data read past (recording gaps, torn files, restamped Tardis rows). */
export interface DataNotes {
  /** Recording gaps in the window, as one line each (formatRecordingGap). */
  readonly gaps: readonly string[];
  readonly warnings: readonly string[];
  /** Tardis rows stamped up to 1 s before the row before them, moved to its time. */
  readonly restampedRows: number;
}

export interface RequestStats {
  total: number;
  refused: number;
  byStatus: Record<string, number>;
  /** Error codes of refused calls, with counts. */
  byCode: Record<string, number>;
}

export interface BacktestResult {
  readonly strategyName: string;
  readonly description: string;
  readonly params: Readonly<Record<string, string>>;
  readonly symbols: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly seed: string;
  readonly fillModel: FillModelName;
  /** The synthetic book's profile as `--book` writes it, or "off" (it serves the symbols without recorded depth). */
  readonly syntheticBook: string;
  /**
   * What each symbol's book is: its recorded depth's label (`recorded L2 (tardis
   * incremental_book_L2)`), else the synthetic book's (`synthetic order flow (...)`, `synthetic
   * ladder (...)`), else `none (users' orders only)`.
   */
  readonly books: Readonly<Record<string, string>>;
  /** Per symbol with recorded depth: messages replayed, stale levels dropped from crossed messages, L2 updates skipped before a file's first snapshot. */
  readonly depth: Readonly<Record<string, DepthStats>>;
  /** Per symbol whose readers read past something (absent symbols had nothing to say). */
  readonly dataNotes: Readonly<Record<string, DataNotes>>;
  readonly latency: LatencyConfig | null;
  readonly valuationAsset: string;
  /** Stretches of the window without data (the replay jumps over them). */
  readonly dataGaps: readonly DataGap[];
  /** What each symbol's prints were made from (the finest source its window has). */
  readonly sources: Readonly<Record<string, MarketSource>>;
  /** Where each symbol's exchange rules came from (market-folder.ts `ruleSources`). */
  readonly rules: Readonly<Record<string, string>>;
  /**
   * The print behind each fill of a resting order by the market, by `${symbol} ${tradeId}`:
   * `trade 123`, `aggTrade 45`, or for a kline tape the bar, path and leg
   * (`kline 2024-01-01T00:05:00.000000Z adaptive:OLHC L-H`). Fills against the book have none.
   */
  readonly fillPrints: ReadonlyMap<string, string>;
  /**
   * The rule behind each fill of a resting order by the market, by `${symbol} ${tradeId}`: the
   * fill model's reason (`QUEUE_POSITION tapeTrade=... queueAhead=1.5->0 ...`, `DEPTH_CROSS ...`).
   */
  readonly fillRules: ReadonlyMap<string, string>;
  /** The strategy account's balances and fee schedule, and where each came from. */
  readonly account: AccountSetup;
  readonly startBalances: readonly BalanceView[];
  readonly endBalances: readonly BalanceView[];
  readonly orders: readonly OrderView[];
  readonly fills: readonly AccountTradeView[];
  readonly recorder: BacktestRecorder;
  readonly metrics: TradingMetrics;
  /** The round trips (trades.csv), whose statistics are `metrics.trades`. */
  readonly trades: TradeTable;
  readonly requests: RequestStats;
  readonly log: readonly string[];
  /**
   * depthMessages / depthUpdates: recorded depth messages and the level updates in them replayed;
   * depthCrossFills: market fills of own orders a recorded book crossed (DEPTH_CROSS).
   */
  readonly replayStats: { prints: number; marketFills: number; segments: number; depthMessages: number; depthUpdates: number; depthCrossFills: number };
  readonly assetPrecision: (asset: string) => number;
  /** Decimals of each symbol's prices, and its base asset. */
  readonly quotePrecision: Readonly<Record<string, number>>;
  readonly baseAsset: Readonly<Record<string, string>>;
  /** What the run did in USDⓈ-M futures; null when it traded none. */
  readonly futures: FuturesSummary | null;
}

export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const data = openMarketData(options.data ?? 'sample');
  const symbols = chooseSymbols(data, options.symbols);
  const { from, to } = await resolveWindow(data, symbols, options.from, options.to);
  const gaps: DataGap[] = [];
  for (const symbol of symbols) gaps.push(...(await windowGaps(data, symbol, from, to)));
  for (const gap of gaps) options.onDataGap?.(gap);
  const tapes: SymbolTape[] = [];
  if (options.sharedTapes !== undefined) for (const shared of options.sharedTapes) tapes.push(tapeFromShared(shared));
  else for (const symbol of symbols) tapes.push(await windowedTape(data, symbol, from, to));
  const sources: Record<string, MarketSource> = Object.fromEntries(tapes.map((t) => [t.symbol, t.source]));
  // Where depth was recorded, the recorded book is the book (and nothing synthetic on top).
  const depths = new Map<string, { depth: WindowedDepth; stream: DepthStream }>();
  for (const symbol of symbols) {
    const depth = await windowedDepth(data, symbol, from, to);
    // A large recorded book is parsed on a worker thread while the replay runs (the same batches).
    if (depth !== null) depths.set(symbol, { depth, stream: depthBytes(depth) >= THREADED_DEPTH_BYTES ? depth.openThreaded() : depth.open() });
  }
  // Perpetuals: their margin symbols, prints from the folder's futures/um files, else derived from their spot tapes (read a second time).
  const futures = parseFuturesSymbols(options.futures ?? options.strategy.futures);
  const intervals = parseFuturesIntervals(options.futures ?? options.strategy.futures);
  for (const name of futures) if (!symbols.includes(name)) throw new InputError(`--futures ${name}: the run does not replay spot ${name} (the futures model's mark and funding come from it); add it to --symbols`);
  const engineConfig = withFutures(data.config, futures, intervals);
  // The futures model of the contracts' prints and marks: the one the exchange's /fapi answers
  // use (same default seed, same spot histories), built before the replay that feeds it.
  let replayRef: Replay | null = null;
  let futuresMarket: FuturesMarket | null = null;
  const perpetuals: { symbol: string; tape: PerpetualTape }[] = [];
  // Each perpetual's funding: its interval and the folder's recorded fundingRate dumps, if any.
  const fundings: { symbol: string; funding: PerpetualFunding }[] = [];
  for (const name of futures) fundings.push({ symbol: name, funding: await perpetualFunding(data, name, from, to, intervals[name]) });
  const futuresFunding = Object.fromEntries(fundings.map((f) => [f.symbol, f.funding.setup]));
  // Each perpetual's mark: along the folder's recorded 1m mark klines, if any (spot price units).
  const marks: { symbol: string; text: string; mark: ((t: number) => number | null) | null }[] = [];
  const spotRules = futures.length === 0 ? null : new Engine(engineConfig);
  for (const name of futures) marks.push({ symbol: name, ...(await perpetualMarks(data, name, from, to, spotRules!.symbolSpec(name)!.quotePrecision)) });
  const futuresMarks = Object.fromEntries(marks.flatMap((m) => (m.mark === null ? [] : [[m.symbol, m.mark] as const])));
  if (futures.length > 0) {
    const contracts = new Engine(engineConfig);
    const spotSpecs = contracts.symbolNames().filter((name) => !isFuturesSymbol(name)).map((name) => contracts.symbolSpec(name)!);
    const market = new FuturesMarket({ specs: spotSpecs, history: (symbol) => replayRef!.history(symbol), funding: futuresFunding, marks: futuresMarks });
    futuresMarket = market;
    for (const name of futures) {
      const spot = async () => (options.sharedTapes !== undefined ? tapeFromShared(options.sharedTapes.find((t) => t.symbol === name)!) : await windowedTape(data, name, from, to));
      const perpetual = await perpetualTape(data, name, (symbol) => contracts.symbolSpec(symbol)!, from, to, spot, () => market);
      perpetuals.push({ symbol: name, tape: perpetual });
      tapes.push(perpetual.tape);
      // The perpetual's recorded book, when the folder has USDⓈ-M depth (Tardis binance-futures, futures/um bookTicker): it is its book, nothing synthetic on top.
      const depth = await windowedDepth(data, name, from, to, contracts.symbolSpec(futuresEngineSymbol(name))!);
      if (depth !== null) depths.set(depth.symbol, { depth, stream: depth.open() });
    }
  }
  const seed = options.seed ?? '1';
  const fillModel = fillModelText(parseFillModel(options.fillModel ?? 'queue'));
  const sampleMicros = options.sampleMicros ?? 60_000_000;
  const strategy = options.strategy;
  const params = { ...strategy.params, ...(options.params ?? {}) };
  for (const key of Object.keys(options.params ?? {})) {
    if (!(key in strategy.params)) throw new InputError(`strategy ${strategy.name} has no parameter "${key}" (it has ${Object.keys(strategy.params).join(', ') || 'none'})`);
  }

  options.onStart?.({ strategyName: strategy.name, symbols, from, to, sources, fillModel, seed });
  const replay = (replayRef = new Replay({
    engine: engineConfig,
    tapes: tapes.map((t) => {
      const recorded = depths.get(t.symbol);
      // Tardis trades and recordings keep the venue's trade ids (as long as no user trade takes one).
      return { symbol: t.symbol, trades: t.trades, keepTradeIds: t.venueIds, ...(recorded === undefined ? {} : { depth: recorded.stream }) };
    }),
    fillModel: makeFillModel(fillModel),
    seed,
    startTime: from,
    journal: options.journal ?? null,
    ...(options.fastPrints === false ? { fastPrints: false } : {}),
    ...(options.latency === undefined ? {} : { latency: options.latency }),
  }));
  const valued = new Valuation(replay.engine, symbols);
  const account = resolveAccount(options.account ?? {}, strategy, (asset) => valued.reaches(asset), strategy.name);
  const assets = data.config.assets ?? [];
  replay.apply(accountCommand(account, STRATEGY_ACCOUNT_ID, (asset) => assets.find((a) => a.asset === asset)?.precision ?? 8) as Omit<CreateAccount, 'time'>);
  const book = options.book === undefined ? parseBook(DEFAULT_BOOK) : options.book;
  const synthetic = [...symbols, ...futures.map(futuresEngineSymbol)].filter((s) => !depths.has(s));
  if (book !== null && synthetic.length > 0) await SyntheticBook.attach(replay, { symbols: Object.fromEntries(synthetic.map((s) => [s, bookProfileFor(book, replay.engine.symbolSpec(s)!)])) });
  const books: Record<string, string> = Object.fromEntries(
    [...symbols, ...futures.map(futuresEngineSymbol).filter((s) => depths.has(s))].map((s) => [s, depths.get(s)?.depth.info.label ?? (book === null ? "none (users' orders only)" : `synthetic ${book.model === 'flow' ? 'order flow' : 'ladder'} (${bookText(book)})`)]),
  );
  const exchange = new ExchangeContext({
    backend: replay,
    apiKeys: [{ apiKey: STRATEGY_API_KEY, keyType: 'HMAC', secretKey: STRATEGY_SECRET, accountId: STRATEGY_ACCOUNT_ID }],
    ...(futures.length === 0 ? {} : { futuresFunding, futuresMarks }),
  });
  const tracker = futures.length === 0 ? null : new FuturesTracker(replay.engine, STRATEGY_ACCOUNT_ID);
  if (tracker !== null) {
    startFuturesClock(
      {
        get now() {
          return replay.now;
        },
        schedule: (time, action) => replay.schedule(time, action),
        apply: (command) => {
          const events = replay.applyMarket(command);
          tracker.observe(events);
          return events;
        },
        symbolSpec: (symbol) => replay.engine.symbolSpec(symbol),
      },
      () => futuresMarket!,
      futures,
    );
  }
  const fillPrints = new Map<string, string>();
  const fillRules = new Map<string, string>();
  replay.onMarketFill((fill) => {
    if (fill.accountId !== STRATEGY_ACCOUNT_ID) return;
    // A perpetual's prints are derived from its spot symbol's tape (no source of its own).
    const source = sources[fill.symbol] ?? sources[fapiSymbolOf(fill.symbol) ?? fill.symbol]!;
    fillPrints.set(`${fill.symbol} ${fill.tradeId}`, describePrint(source, fill.reason));
    fillRules.set(`${fill.symbol} ${fill.tradeId}`, fill.reason);
  });
  const recorder = new BacktestRecorder(replay.engine, STRATEGY_ACCOUNT_ID, symbols, from, sampleMicros, [...symbols, ...futures.map(futuresEngineSymbol)]);
  const startBalances = replay.engine.account(STRATEGY_ACCOUNT_ID)!.balances;
  recorder.holdBalances(startBalances);
  const requests: RequestStats = { total: 0, refused: 0, byStatus: {}, byCode: {} };
  const progressEvery = options.progressEvery ?? 65_536;
  let prints = 0;
  const onProgress = options.onProgress;
  const onPrint = options.onPrint;
  const runtime = new StrategyRuntime({
    replay,
    exchange,
    apiKey: STRATEGY_API_KEY,
    symbols,
    params,
    from,
    to,
    seed,
    withLatency: options.latency !== undefined,
    hostTime: options.allowHostTime === true ? 'warn' : 'fail',
    onResponse: (_method: RestMethod, _path: string, response: RestResponse) => countRequest(requests, response),
    afterTrade: (trade: ReplayedTrade) => {
      recorder.onTrade(trade);
      onPrint?.(trade);
      if (onProgress !== undefined && ++prints % progressEvery === 0) onProgress({ now: trade.time, from, to, prints });
    },
  });
  await runtime.drive(strategy.run);
  recorder.finish(to);
  onProgress?.({ now: to, from, to, prints: replay.stats.tapeTrades });

  const engine = replay.engine;
  engine.checkInvariants();
  const dataNotes = collectNotes(symbols.map((symbol) => [symbol, [tapes.find((t) => t.symbol === symbol)?.notes, depths.get(symbol)?.stream.notes]]));
  for (const [symbol, notes] of Object.entries(dataNotes)) {
    for (const line of [...notes.gaps, ...notes.warnings]) options.onDataWarning?.(line);
    if (notes.restampedRows > 0) options.onDataWarning?.(`${symbol}: ${notes.restampedRows} Tardis rows stamped up to 1 s before the row before them were moved to its time (Tardis orders files by receive time)`);
  }
  // Orders, fills and round trips of the perpetuals too, under their engine names (um:BTCUSDT).
  const traded = [...symbols, ...futures.map(futuresEngineSymbol)];
  const orders = traded.flatMap((s) => engine.allOrders(STRATEGY_ACCOUNT_ID, s));
  const fills = traded.flatMap((s) => engine.accountTrades(STRATEGY_ACCOUNT_ID, s)).sort((a, b) => a.time - b.time || a.id - b.id);
  const endBalances = engine.account(STRATEGY_ACCOUNT_ID)!.balances;
  const metricsInput = { engine, recorder, symbols: traded, orders, fills, startBalances, endBalances, sampleMicros, from, to };
  const trades = roundTripTable(metricsInput, (symbol, orderId, clientOrderId) => runtime.tags.reasonOf(symbol, orderId, clientOrderId));
  const metrics = computeMetrics({ ...metricsInput, trades });
  return {
    strategyName: strategy.name,
    description: strategy.description,
    params,
    symbols,
    from,
    to,
    seed,
    fillModel,
    syntheticBook: book === null ? 'off' : bookText(book),
    books,
    dataNotes,
    depth: Object.fromEntries(
      [...depths].map(([symbol, { stream }]) => {
        const stats = engine.depthBookStats(symbol);
        return [symbol, { messages: stats?.messages ?? 0, crossedLevelsDropped: stats?.repairs ?? 0, updatesBeforeSnapshot: stream.skippedUpdates }];
      }),
    ),
    latency: options.latency ?? null,
    valuationAsset: recorder.valuation.asset,
    dataGaps: gaps,
    sources,
    rules: Object.fromEntries(symbols.map((s) => [s, data.ruleSources?.[s] ?? 'sample market'])),
    fillPrints,
    fillRules,
    account,
    startBalances,
    endBalances,
    orders,
    fills,
    recorder,
    metrics,
    trades,
    requests,
    log: runtime.logLines,
    replayStats: { prints: replay.stats.tapeTrades, marketFills: replay.stats.marketFills, segments: runtime.segments, depthMessages: replay.stats.depthMessages, depthUpdates: replay.stats.depthUpdates, depthCrossFills: replay.stats.depthCrossFills },
    assetPrecision: (asset) => recorder.valuation.precision(asset),
    // Every traded symbol's, the perpetuals' (um:…) included: orders.csv and fills.csv format their rows by them.
    quotePrecision: Object.fromEntries(traded.map((s) => [s, engine.symbolSpec(s)!.quotePrecision])),
    baseAsset: Object.fromEntries(traded.map((s) => [s, engine.symbolSpec(s)!.baseAsset])),
    futures: tracker === null ? null : tracker.summary(futures, futuresPrintsText(perpetuals.map((p) => ({ symbol: p.symbol, text: p.tape.describe() }))), futuresFundingText(fundings.map((f) => ({ symbol: f.symbol, text: f.funding.text }))), futuresFundingText(marks), from, to),
  };
}

/** Each symbol's notes from its prints' and its depth's readers, merged; symbols with nothing to say left out. */
function collectNotes(perSymbol: readonly (readonly [string, readonly (ReadNotes | undefined)[]])[]): Record<string, DataNotes> {
  const out: Record<string, DataNotes> = {};
  for (const [symbol, sources] of perSymbol) {
    const gaps: string[] = [];
    const warnings = new Set<string>(); // a torn file is read by both the trades and the depth reader
    let restampedRows = 0;
    for (const notes of sources) {
      if (notes === undefined) continue;
      for (const gap of notes.gaps) gaps.push(formatRecordingGap(gap));
      for (const warning of notes.warnings) warnings.add(warning);
      restampedRows += notes.restampedRows;
    }
    if (gaps.length > 0 || warnings.size > 0 || restampedRows > 0) out[symbol] = { gaps, warnings: [...warnings], restampedRows };
  }
  return out;
}

/** The print named in a market fill's reason, as fills.csv explains it. */
function describePrint(source: MarketSource, reason: string): string {
  if (source.startsWith('klines:')) {
    const origin = klineOriginOfReason(reason);
    if (origin !== null) return `kline ${formatUtcMicros(origin.klineOpenTime)} ${origin.tag} ${origin.legName}`;
  }
  const id = tapeTradeOfReason(reason);
  return id === null ? '' : `${source === 'aggTrades' ? 'aggTrade' : 'trade'} ${id}`;
}

function countRequest(stats: RequestStats, response: RestResponse): void {
  stats.total++;
  stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;
  if (response.status >= 400) {
    stats.refused++;
    const code = String((response.json as { code?: unknown } | null)?.code ?? response.status);
    stats.byCode[code] = (stats.byCode[code] ?? 0) + 1;
  }
}



