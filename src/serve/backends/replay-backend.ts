/**
 * A served replay (`exsim serve --data DIR|sample`): the data's trades merged into a Replay with
 * the queue-position fill model, each symbol's book its recorded depth where the data has it
 * (nothing synthetic on top) and else the order-flow book that lives between prints (the
 * backtest's default `--book`), two-sided from the first print; trades wrapped for `--at-end`
 * (src/sim/tape-end.ts), every row read once before serving, and the history before `--from`
 * replayed at full speed before the port opens (a warm market).
 */
import { Engine, futuresEngineSymbol } from '../../engine/index.ts';
import { DERIVED_FUTURES_SOURCE, FuturesMarket, startFuturesClock, type FundingSetup } from '../../futures/index.ts';
import { bookProfileFor, DEFAULT_BOOK, futuresFundingText, InputError, parseFuturesIntervals, parseFuturesSymbols, perpetualFunding, perpetualMarks, perpetualTape, withFutures, openMarketData, parseBook, parseTime, tradeFiles, windowedTape } from '../../backtest/index.ts';
import { formatRecordingGap, windowedDepth, type ReadNotes, type WindowedDepth } from '../../data/index.ts';
import { queuePosition, Replay, SyntheticBook, tapesWithEnd, type TapeEndMode, type TapeEndState, type TapeInput } from '../../sim/index.ts';
import type { ServedAccounts } from '../accounts-file.ts';

export interface ServedReplayOptions {
  /** `sample` or a dump folder. */
  readonly data: string;
  /** Seed of the market model and the synthetic book. Default '1'. */
  readonly seed?: string | undefined;
  /** Where the served market starts (UTC text or epoch ms); default DEFAULT_WARM_UP_US into the data. */
  readonly from?: string | undefined;
  /** What the replay does when its tape runs out. Default 'stop'. */
  readonly atEnd?: TapeEndMode | undefined;
  /** USDⓈ-M perpetuals served for trading through /fapi beside their spot symbols (backtest futures-setup.ts). */
  readonly futures?: readonly string[] | undefined;
}

export interface ServedReplay {
  readonly replay: Replay;
  /** Simulated time the served market starts at (the warm-up ends here). */
  readonly start: number;
  readonly served: ServedAccounts;
  readonly tapeEnd: TapeEndState;
  /** The perpetuals' funding (interval, recorded fundings) for the exchange's futures model. */
  readonly futuresFunding: Readonly<Record<string, FundingSetup>>;
  /** The perpetuals' recorded marks (FuturesMarket `marks`), for the exchange's futures model. */
  readonly futuresMarks: Readonly<Record<string, (t: number) => number | null>>;
}

/** Default warm-up of a served replay: 4 h (200 one-minute klines with room to spare). */
export const DEFAULT_WARM_UP_US = 4 * 3_600_000_000;

/** The exchange over a replay of `options.data`, set up with `accounts` at the data's start and warmed up to `--from`. */
export async function openServedReplay(options: ServedReplayOptions, accounts: (time: number) => ServedAccounts, print: (line: string) => void): Promise<ServedReplay> {
  const data = openMarketData(options.data);
  const tapes: TapeInput[] = [];
  let start = Infinity;
  let end = -Infinity;
  for (const symbol of data.config.symbols.map((s) => s.symbol)) {
    const files = await tradeFiles(data, symbol).catch(() => null);
    if (files === null) continue;
    start = Math.min(start, files[0]!.start);
    end = Math.max(end, files[files.length - 1]!.end);
    tapes.push({ symbol, trades: [] });
  }
  if (tapes.length === 0) throw new InputError(`no trades files in ${data.dir}`);
  // Read every row once before serving, as a backtest does: a bad row anywhere is a one-line
  // error now, not a replay that stops mid-session and leaves the market frozen.
  const venueIds = new Set<string>();
  for (const tape of tapes) if (await checkTape(data, tape.symbol, start, print)) venueIds.add(tape.symbol);
  const depths = new Map<string, WindowedDepth>();
  for (const { symbol } of tapes) {
    const depth = await windowedDepth(data, symbol, start, Number.MAX_SAFE_INTEGER);
    if (depth === null) continue;
    await checkDepth(depth, print);
    depths.set(symbol, depth);
    print(`${symbol}: ${depth.info.label}`);
  }
  const atEnd = options.atEnd ?? 'stop';
  // `BTCUSDT:4h` sets a perpetual's funding interval (futures-setup.ts).
  const futures = parseFuturesSymbols(options.futures ?? []);
  const intervals = parseFuturesIntervals(options.futures ?? []);
  for (const name of futures) if (!tapes.some((t) => t.symbol === name)) throw new InputError(`--futures ${name}: the data has no spot ${name} trades for the perpetual's mark and funding (and prints, when the folder has no futures/um files)`);
  if (futures.length > 0 && atEnd !== 'stop') throw new InputError(`--at-end ${atEnd} continues the spot trades only: with --futures the served market ends with its data (--at-end stop)`);
  const config = withFutures(data.config, futures, intervals);
  if (depths.size > 0 && atEnd !== 'stop') throw new InputError(`--at-end ${atEnd} continues the trades only: with recorded depth (${[...depths.keys()].join(', ')}) the served market ends with its data (--at-end stop)`);
  const tapeEnd = tapesWithEnd(tapes.map(({ symbol }) => endingTape(data, symbol, start)), { mode: atEnd, span: end - start, seed: options.seed ?? '1', log: print });
  const replayTapes = tapeEnd.tapes.map((t) => {
    const depth = depths.get(t.symbol);
    // Tardis trades and recordings keep the venue's trade ids.
    return { ...t, keepTradeIds: venueIds.has(t.symbol), ...(depth === undefined ? {} : { depth: depth.open() }) };
  });
  // The perpetuals' prints: the folder's futures/um files when it has them, else derived from a
  // second read of their spot tapes by the futures model the /fapi answers use (same default
  // seed, the replay's spot histories).
  let replayRef: Replay | null = null;
  const contracts = new Engine(config);
  // Each perpetual's funding: its interval, at the folder's recorded fundingRate dumps where it has them.
  const fundings = await Promise.all(futures.map(async (name) => ({ symbol: name, funding: await perpetualFunding(data, name, start, Number.MAX_SAFE_INTEGER, intervals[name]) })));
  const futuresFunding = Object.fromEntries(fundings.map((f) => [f.symbol, f.funding.setup]));
  // Each perpetual's mark: along the folder's recorded 1m mark klines where it has them.
  const marks = await Promise.all(futures.map(async (name) => ({ symbol: name, ...(await perpetualMarks(data, name, start, Number.MAX_SAFE_INTEGER, contracts.symbolSpec(name)!.quotePrecision)) })));
  const futuresMarks = Object.fromEntries(marks.flatMap((m) => (m.mark === null ? [] : [[m.symbol, m.mark] as const])));
  const market = new FuturesMarket({ specs: data.config.symbols.map((s) => contracts.symbolSpec(s.symbol)!), history: (symbol) => replayRef!.history(symbol), funding: futuresFunding, marks: futuresMarks });
  const printsFrom: string[] = [];
  for (const name of futures) {
    const open = () => perpetualTape(data, name, (symbol) => contracts.symbolSpec(symbol)!, start, Number.MAX_SAFE_INTEGER, () => windowedTape(data, name, start, Number.MAX_SAFE_INTEGER), () => market);
    const perpetual = await open();
    // The perpetual's recorded book when the folder has USDⓈ-M depth (Tardis binance-futures, futures/um bookTicker), read through once now as the spot books are.
    const depth = await windowedDepth(data, name, start, Number.MAX_SAFE_INTEGER, contracts.symbolSpec(futuresEngineSymbol(name))!);
    if (depth !== null) {
      await checkDepth(depth, print);
      depths.set(depth.symbol, depth);
      print(`${depth.symbol}: ${depth.info.label}`);
    }
    replayTapes.push({ symbol: perpetual.tape.symbol, trades: perpetual.tape.trades, keepTradeIds: false, ...(depth === null ? {} : { depth: depth.open() }) });
    if (perpetual.describe() === DERIVED_FUTURES_SOURCE) {
      printsFrom.push(`${name} prints derived from the spot tape`);
      continue;
    }
    // The futures files read through once before serving, as the spot tapes are: a bad row is a
    // one-line error now, and the banner can say how many prints were put on the contract grid.
    const check = await open();
    try {
      for await (const _batch of check.tape.trades as AsyncIterable<unknown>);
    } catch (error) {
      throw error instanceof InputError ? error : new InputError(error instanceof Error ? error.message : String(error));
    }
    printsFrom.push(`${name} prints from ${check.describe()}`);
  }
  const replay = (replayRef = new Replay({ engine: config, tapes: replayTapes, fillModel: queuePosition(), seed: options.seed ?? '1', startTime: start, journal: null }));
  const served = accounts(start);
  for (const { time: _time, ...command } of served.commands) replay.apply(command);
  // The book is two-sided from the first instant: anchored at each tape's first print, and alive between prints.
  const book = parseBook(DEFAULT_BOOK)!;
  const synthetic = [...tapes.map((t) => t.symbol), ...futures.map(futuresEngineSymbol)].filter((symbol) => !depths.has(symbol));
  if (synthetic.length > 0) await SyntheticBook.attach(replay, { symbols: Object.fromEntries(synthetic.map((symbol) => [symbol, bookProfileFor(book, replay.engine.symbolSpec(symbol)!)])) });
  // The perpetuals' mark each second and funding at each funding time, from the data's start (the warm-up included).
  if (futures.length > 0) {
    startFuturesClock(
      {
        get now() {
          return replay.now;
        },
        schedule: (time, action) => replay.schedule(time, action),
        apply: (command) => replay.applyMarket(command),
        symbolSpec: (symbol) => replay.engine.symbolSpec(symbol),
      },
      () => market,
      futures,
    );
    print(`futures: ${futures.join(', ')} traded through /fapi (${printsFrom.join(', ')}; the mark each second: ${futuresFundingText(marks)}; funding: ${futuresFundingText(fundings.map((f) => ({ symbol: f.symbol, text: f.funding.text })))})`);
  }
  // A warm market: the history before `from` is replayed now, at full speed, so trades, klines,
  // tickers and the book are there the moment the port answers.
  const from = warmStart(options.from, start, end);
  await replay.runUntil(from);
  return { replay, start: from, served, tapeEnd: tapeEnd.state, futuresFunding, futuresMarks };
}

/** Where a served replay starts: `--from` within the data, or 4 h in (the data's end when shorter). */
function warmStart(from: string | undefined, start: number, end: number): number {
  if (from === undefined) return Math.min(start + DEFAULT_WARM_UP_US, end);
  const at = parseTime(from, '--from');
  if (at < start || at > end) throw new InputError(`--from ${from} is outside the data (${new Date(start / 1000).toISOString()} to ${new Date(end / 1000).toISOString()})`);
  return at;
}

/** A symbol's tape from `start`, reopenable for --at-end loop, with its grid for --at-end synthetic. */
function endingTape(data: ReturnType<typeof openMarketData>, symbol: string, start: number) {
  const spec = new Engine(data.config).symbolSpec(symbol)!;
  return {
    symbol,
    open: async () => (await windowedTape(data, symbol, start, Number.MAX_SAFE_INTEGER)).trades,
    scale: { quotePrecision: spec.quotePrecision, basePrecision: spec.basePrecision },
    tickSize: spec.tickUnits,
    stepSize: spec.stepUnits,
  };
}

/**
 * Reads a symbol's recorded depth through once: a bad row is a one-line error now, not
 * mid-session; what the reader read past (a recording's gaps, restamped Tardis rows) is said now.
 */
async function checkDepth(depth: WindowedDepth, print: (line: string) => void): Promise<void> {
  try {
    const stream = depth.open();
    for await (const _batch of stream);
    sayNotes(depth.symbol, stream.notes, print);
  } catch (error) {
    throw error instanceof InputError ? error : new InputError(error instanceof Error ? error.message : String(error));
  }
}

/** Reads a symbol's prints through once (as checkDepth); returns whether they carry the venue's trade ids. */
async function checkTape(data: ReturnType<typeof openMarketData>, symbol: string, start: number, print: (line: string) => void): Promise<boolean> {
  try {
    const tape = await windowedTape(data, symbol, start, Number.MAX_SAFE_INTEGER);
    for await (const _batch of tape.trades as AsyncIterable<unknown>);
    sayNotes(symbol, tape.notes, print);
    return tape.venueIds;
  } catch (error) {
    throw error instanceof InputError ? error : new InputError(error instanceof Error ? error.message : String(error));
  }
}

function sayNotes(symbol: string, notes: ReadNotes, print: (line: string) => void): void {
  for (const gap of notes.gaps) print(`warning: ${formatRecordingGap(gap)}`);
  for (const warning of notes.warnings) print(`warning: ${warning}`);
  if (notes.restampedRows > 0) print(`warning: ${symbol}: ${notes.restampedRows} Tardis rows stamped up to 1 s before the row before them were moved to its time`);
}
