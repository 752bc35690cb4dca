/**
 * `exsim serve`: the simulated exchange over HTTP on the sample market, for bots and official
 * client libraries. The backend is the engine with market-data histories; its simulated time
 * follows the pacing (`realtime`, `speed:N`, or `manual`, where time stands still), read before
 * every request. The sample accounts are funded and the market maker quotes a small ladder on
 * each symbol, after one print each so MARKET orders have an average price to be checked
 * against. The demo key `exsim-demo-key` / secret `exsim-demo-secret` trades as account 1.
 *
 * Client clocks (client-clock.ts): a request's `timestamp` is read as server time, as the
 * client's wall clock, and as its wall clock plus each offset the client's IP learnt from GET
 * /api/v3/time; the reading nearest to now is judged, wall-clock readings in wall time. So
 * bots that stamp with their host clock, copy serverTime, or learnt an offset once all work at
 * any speed, and stale or replayed requests are still refused.
 */
import { ExchangeContext, EngineBackend, ExsimHttpServer, type ClientTimeRule, type MarketBackend, type FaultOptions } from '../api-facade/index.ts';
import { Pacing } from '../clock/index.ts';
import { Engine, type CreateAccount, type EngineCommand, type EngineConfig } from '../engine/index.ts';
import { MARKET_MAKER_ACCOUNT_ID, SAMPLE_CONFIG, sampleAccounts, DEMO_ACCOUNT_ID, DEMO_CREDENTIALS } from '../sample/index.ts';
import { InputError, openMarketData, parseTime, tradeFiles, windowedTape } from '../backtest/index.ts';
import { queuePosition, Replay, SyntheticBook, tapesWithEnd, type TapeEndMode, type TapeEndState, type TapeInput } from '../sim/index.ts';
import { ClientClock } from './client-clock.ts';
import { loadServedAccounts, type ServedAccounts } from './accounts-file.ts';
import { ServeControl } from './control/control-plane.ts';
import type { FsyncPolicy } from './durability/write-ahead-log.ts';
import { attachJournal, openServeJournal, restoreJournal, type RestoredServing } from './durability/journaling.ts';
import { DEFAULT_SNAPSHOT_EVERY, type SnapshotWritten } from './durability/snapshots.ts';

export interface ServeOptions {
  port: number;
  host: string;
  clock: string;
  /** Injected faults (engine timeouts, firewall); none when absent. */
  faults?: FaultOptions;
  /** Replay this data (`sample` or a dump folder) on the paced clock; absent: the static sample market. */
  data?: string;
  /** Seed of the replay's market model and synthetic book. Default '1'. */
  seed?: string;
  /** Accounts file (serve-accounts.ts); absent: the demo account. */
  accounts?: string;
  /**
   * With `data`: where the served market starts (UTC text or epoch ms, as `backtest --from`);
   * everything before it is replayed at full speed before the port opens. Default: 4 hours into
   * the data (200 one-minute klines and a day's tickers' worth of history at once), or its end
   * when shorter.
   */
  from?: string;
  /** Protects the control plane (/exsim/v1/...); without it the control plane refuses every request. */
  adminKey?: string;
  /** Write-ahead journal (serve-journal.ts): restored when it exists, appended to. */
  journal?: string;
  /** The journal's fsync policy (default `batch`) and the batch period, ms. */
  fsync?: FsyncPolicy;
  fsyncMs?: number;
  /** Journal snapshots every n commands (serve-snapshot.ts; default DEFAULT_SNAPSHOT_EVERY, 0: only at a clean stop). */
  snapshotEvery?: number;
  /** What a replay does when its tape runs out (src/sim/tape-end.ts). Default 'stop'. */
  atEnd?: TapeEndMode;
}

/** A running server: its URL, and `close` (stops pacing, closes sockets, flushes the journal). */
export interface ServeHandle {
  readonly url: string;
  readonly server: ExsimHttpServer;
  /** The control plane in process (the clock, status, accounts; serve-control.ts). */
  readonly control: ServeControl;
  /** The end of the replayed tape, live (null without --data): for logs and status answers. */
  readonly tapeEnd: TapeEndState | null;
  close(): Promise<void>;
}

/** Engine backend whose simulated time follows the pacing, caught up whenever it is read. */
export class PacedBackend extends EngineBackend {
  readonly #pacing: Pacing;

  constructor(config: EngineConfig, pacing: Pacing, setup: readonly EngineCommand[]) {
    super(config, pacing.anchor.simulated, []);
    this.#pacing = pacing;
    for (const command of setup) this.applyRaw(command);
  }

  override get now(): number {
    const paced = this.#pacing.simulatedNow();
    if (paced > super.now) this.advanceTo(paced);
    return super.now;
  }
}

/** The client clock rule (client-clock.ts) without remembered offsets: wall-clock and server-time stamps. */
export function pacedClientTime(pacing: Pacing): ClientTimeRule {
  return new ClientClock(pacing).rule;
}

/**
 * The static market's accounts and the market maker's opening ladder. With an accounts file the
 * maker is added as the sample's market maker (funded likewise) under the sample's id, or the
 * first id above the file's when the file uses that one.
 */
function staticMarket(served: ServedAccounts, fromFile: boolean, time: number): EngineCommand[] {
  if (!fromFile) return [...served.commands, ...openingBook(time, MARKET_MAKER_ACCOUNT_ID)];
  const ids = served.commands.map((c) => c.accountId);
  const makerId = ids.includes(MARKET_MAKER_ACCOUNT_ID) ? Math.max(...ids) + 1 : MARKET_MAKER_ACCOUNT_ID;
  const maker = sampleAccounts(time).find((a) => a.accountId === MARKET_MAKER_ACCOUNT_ID)!;
  return [...served.commands, { ...maker, accountId: makerId }, ...openingBook(time, makerId)];
}

/** The market maker's opening ladder: one print and 5 levels a side per symbol. */
function openingBook(time: number, makerId: number): EngineCommand[] {
  const commands: EngineCommand[] = [];
  const ladders = [
    { symbol: 'BTCUSDT', mid: 4_200_000_000_000, tick: 1_000_000, qty: 10_000_000 }, // 42,000.00, 0.1 BTC
    { symbol: 'ETHBTC', mid: 5_500_000, tick: 1_000, qty: 100_000_000 }, // 0.05500, 1 ETH
  ];
  for (const { symbol, mid, tick, qty } of ladders) {
    commands.push({ type: 'RecordMarketTrade', time, symbol, price: mid, quantity: qty, isBuyerMaker: false });
    for (let level = 1; level <= 5; level++) {
      for (const side of ['BUY', 'SELL'] as const) {
        const price = side === 'BUY' ? mid - level * 5 * tick : mid + level * 5 * tick;
        commands.push({ type: 'PlaceOrder', time, accountId: makerId, symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: qty });
      }
    }
  }
  return commands;
}

const DEMO_KEY = DEMO_CREDENTIALS;

/** The exchange over a replay of `data`, its clock paced from the data's first day (see serve-replay notes in the header). */
async function replayBackend(options: ServeOptions, accounts: (time: number) => ServedAccounts, print: (line: string) => void) {
  const data = openMarketData(options.data!);
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
  for (const tape of tapes) await checkTape(data, tape.symbol, start);
  const tapeEnd = tapesWithEnd(tapes.map(({ symbol }) => endingTape(data, symbol, start)), { mode: options.atEnd ?? 'stop', span: end - start, seed: options.seed ?? '1', log: print });
  const replay = new Replay({ engine: data.config, tapes: tapeEnd.tapes, fillModel: queuePosition(), seed: options.seed ?? '1', startTime: start, journal: null });
  const served = accounts(start);
  for (const { time: _time, ...command } of served.commands) replay.apply(command);
  // The book is two-sided from the first instant: anchored at each tape's first print.
  await SyntheticBook.attach(replay, {
    symbols: Object.fromEntries(tapes.map((t) => [t.symbol, { levels: 10, spreadTicks: [1, 3] as const, baseQty: 1000 * replay.engine.symbolSpec(t.symbol)!.stepUnits }])),
  });
  // A warm market: the history before `from` is replayed now, at full speed, so trades, klines,
  // tickers and the book are there the moment the port answers.
  const from = warmStart(options.from, start, end);
  await replay.runUntil(from);
  return { replay, start: from, served, tapeEnd: tapeEnd.state };
}

/** Default warm-up of a served replay: 4 h (200 one-minute klines with room to spare). */
export const DEFAULT_WARM_UP_US = 4 * 3_600_000_000;

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

async function checkTape(data: ReturnType<typeof openMarketData>, symbol: string, start: number): Promise<void> {
  try {
    for await (const _batch of (await windowedTape(data, symbol, start, Number.MAX_SAFE_INTEGER)).trades as AsyncIterable<unknown>);
  } catch (error) {
    throw error instanceof InputError ? error : new InputError(error instanceof Error ? error.message : String(error));
  }
}

export async function serve(options: ServeOptions, print: (line: string) => void = console.log): Promise<ServeHandle> {
  // determinism-ok: a new live server anchors simulated time to the wall clock once (a journal keeps its own start)
  const wallStart = Math.round(Date.now() * 1000);
  const journal = options.journal === undefined ? null : await openServeJournal({ ...options, journal: options.journal }, wallStart);
  let journaled: RestoredServing | null = null;
  const accounts = (time: number): ServedAccounts =>
    options.accounts === undefined ? { commands: sampleAccounts(time), apiKeys: [DEMO_KEY] } : loadServedAccounts(options.accounts, SAMPLE_CONFIG, time);
  let backend: MarketBackend;
  let pacing: Pacing;
  let served: ServedAccounts;
  let stopPacing = (): void => {};
  // Brings the backend to a simulated time (a replay reads its tape up to there; the static market's clock is read lazily).
  let catchUp = async (_target: number): Promise<void> => {};
  let clientTime: ClientTimeRule;
  // The offsets clients learn from GET /api/v3/time, remembered per IP (client-clock.ts).
  let clocks: ClientClock | undefined;
  const clientClock = (pacing: Pacing): ClientClock => (clocks = new ClientClock(pacing));
  if (options.data === undefined && options.from !== undefined) throw new InputError('--from needs --data: the static sample market has no history to start into');
  let tapeEnd: TapeEndState | null = null;
  if (options.data === undefined && options.atEnd !== undefined && options.atEnd !== 'stop') throw new InputError(`--at-end ${options.atEnd} needs --data: the static sample market has no tape`);
  if (options.data === undefined) {
    // The simulation starts at the wall clock's present, so wall-clock and server-time stamps agree at first.
    const start = journal?.header.start ?? wallStart;
    pacing = new Pacing(options.clock, { simulatedStart: start });
    served = accounts(start);
    const paced = new PacedBackend(SAMPLE_CONFIG, pacing, staticMarket(served, options.accounts !== undefined, start));
    backend = paced;
    if (journal !== null) journaled = await restoreJournal(journal, { engine: paced, start });
    clientTime = clientClock(pacing).rule;
  } else {
    const built = await replayBackend(options, accounts, print);
    served = built.served;
    tapeEnd = built.tapeEnd;
    const replay = built.replay;
    if (journal !== null) journaled = await restoreJournal(journal, { replay });
    pacing = new Pacing(options.clock, { simulatedStart: built.start });
    backend = replay;
    // The live adapter for a replay: catch the tape up with the paced clock on a host timer
    // (runUntil is async: it reads the dump files as it goes); requests in between see the
    // replay's time, at most one tick behind.
    // Runs are serialised (runUntil is not re-entrant): the timer's and the control plane's.
    let running: Promise<void> = Promise.resolve();
    let failed = false;
    catchUp = (target) => {
      running = running.then(async () => {
        if (failed || target <= replay.now) return;
        try {
          await replay.runUntil(target);
        } catch (error) {
          failed = true;
          clearInterval(timer);
          console.error(`exsim: the replay stopped: ${error instanceof Error ? error.message : String(error)}`);
        }
      });
      return running;
    };
    let busy = false;
    const timer = setInterval(() => {
      // determinism-ok: the wall-clock pacing adapter of a live server
      if (busy) return;
      const target = Math.floor(pacing.simulatedNow());
      if (target <= replay.now) return;
      busy = true;
      void catchUp(target).then(() => (busy = false));
    }, 20);
    stopPacing = () => clearInterval(timer);
    // The replay may lag the paced clock by a tick (at speed:60, 20 ms is 1.2 simulated s): judge
    // stamps against the paced now, as if the tape had caught up, so a fresh stamp is never "ahead".
    const paced = clientClock(pacing).rule;
    clientTime = (timestamp, simulatedNow, ip) => {
      const lag = Math.max(0, Math.floor(pacing.simulatedNow()) - simulatedNow);
      return paced(timestamp, simulatedNow + lag, ip) - lag;
    };
  }
  // A restored clock resumes where the journal ends (the time the server was down is skipped).
  if (journaled !== null) {
    const now = journaled.restored.now;
    if (now !== null && now > pacing.anchor.simulated) pacing.reanchor(now);
    backend = journaled.backend;
  }
  const ctx = new ExchangeContext({
    backend,
    apiKeys: served.apiKeys,
    clientTime,
    onServerTime: clocks!.noteServerTime,
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
  const snapshotLog = (s: SnapshotWritten): void => print(`journal: snapshot at ${s.commands} commands, ${(s.bytes / 1e6).toFixed(1)} MB in ${Math.round(s.ms)} ms`);
  const journaling = journal === null || journaled === null ? null : attachJournal(journal, ctx, journaled, options.fsyncMs, { every: options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY, log: snapshotLog });
  const config = options.data === undefined ? SAMPLE_CONFIG : openMarketData(options.data).config;
  const control = new ServeControl({
    pacing,
    ctx,
    config,
    catchUp,
    createAccount: (command) => (backend instanceof PacedBackend ? backend.applyRaw({ ...command, time: backend.now }) : (backend as Replay).apply(withoutTime(command))),
    ...(options.adminKey === undefined ? {} : { adminKey: options.adminKey }),
    ...(journaling === null ? {} : { commit: journaling.commitControl }),
    status: () => ({ replay: options.data === undefined ? null : { data: options.data, position: Math.floor(backend.now / 1000), atEnd: tapeEnd }, connections: server.streamConnections }),
  });
  // The pacing the control plane last set, if the journal holds one, replaces the command line's --clock.
  const restoredPacing = journaling === null ? null : control.restorePacing(pacing.anchor.simulated);
  const server = new ExsimHttpServer(ctx, { control, ...(journaling === null ? {} : { beforeAnswer: journaling.beforeAnswer }) });
  const url = await server.listen(options.port, options.host);
  const market = options.data === undefined ? 'the sample market (BTCUSDT, ETHBTC)' : `a replay of ${options.data} (${backend.engine.symbolNames().join(', ')}) from ${new Date(pacing.anchor.simulated / 1000).toISOString()}, seed ${options.seed ?? '1'}`;
  print(`exsim serving ${market} at ${url}  clock: ${restoredPacing === null ? options.clock : `${restoredPacing} (as the journal left it; --clock ${options.clock} not used)`}`);
  if (options.accounts === undefined) {
    print(`demo credentials: API key ${DEMO_KEY.apiKey}, HMAC secret ${DEMO_KEY.secretKey} (account ${DEMO_ACCOUNT_ID}; 1 BTC, 10 ETH, 100,000 USDT, 10 BNB)`);
  } else {
    print(`accounts from ${options.accounts}: ${served.commands.length} accounts, API keys ${served.apiKeys.map((k) => k.apiKey).join(', ') || 'none'}`);
  }
  if (options.faults !== undefined && ((options.faults.engineTimeoutProbability ?? 0) > 0 || options.faults.firewall === true)) {
    print(`faults: engine timeouts (-1007) with p=${options.faults.engineTimeoutProbability ?? 0}, firewall ${options.faults.firewall === true ? 'on' : 'off'}, seed ${String(options.faults.seed ?? 'exsim-faults')}`);
  }
  if (journal !== null && journaled !== null) {
    const { commands, checkpoints, droppedBytes } = journaled.restored;
    const used = journaled.snapshotUsed;
    const from = used === null ? '' : `from the snapshot at ${used.commands} (state hash verified), `;
    const restored = journal.existing ? `restored ${commands} commands (${from}${checkpoints} checkpoints verified${droppedBytes > 0 ? `, a torn last line of ${droppedBytes} bytes dropped` : ''}), ` : '';
    print(`journal: ${options.journal} (${restored}appending; fsync ${journal.policy})`);
  }
  print(`streams: ${url.replace('http:', 'ws:')}/ws/btcusdt@trade, /stream?streams=btcusdt@depth@100ms/..., or /ws/<listenKey from POST /api/v3/userDataStream>`);
  print(`WebSocket API: ${url.replace('http:', 'ws:')}/ws-api/v3`);
  print(`try: curl ${url}/api/v3/depth?symbol=BTCUSDT   (Ctrl-C stops)`);
  if (options.adminKey !== undefined) print(`control: ${url}/exsim/v1/clock, /exsim/v1/status, /exsim/v1/accounts (header X-EXSIM-ADMIN-KEY)`);
  return {
    url,
    server,
    control,
    tapeEnd,
    async close() {
      stopPacing();
      await server.close();
      if (journaling !== null && journal !== null) {
        const hash = await journaling.close();
        print(`journal: ${journal.commands} commands, state hash ${hash}`);
      }
    },
  };
}

function withoutTime(command: CreateAccount): Omit<CreateAccount, 'time'> {
  const { time: _time, ...rest } = command;
  return rest;
}
