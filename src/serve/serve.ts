/**
 * `exsim serve`: the simulated exchange over HTTP and WebSocket, for bots and official client
 * libraries. This file wires the served exchange together; its parts:
 * - the backend (backends/): the static sample market (a PacedBackend: an engine whose simulated
 *   time follows the pacing, read before every request, with the market maker's ladder), or a
 *   replay of `--data` (replay-backend.ts) warmed up to `--from` and caught up with the pacing by
 *   its pacer (replay-pacer.ts); with `--journal`, wrapped to log every command (LoggedBackend);
 * - durability (durability/): the write-ahead log, restored before the port opens, its commit
 *   points and snapshots;
 * - the control plane (control/) at /exsim/v1/... behind `--admin-key`;
 * - the client clock rule (client-clock.ts) and the accounts file (accounts-file.ts).
 * The demo key `exsim-demo-key` / secret `exsim-demo-secret` trades as account 1 unless an
 * accounts file says otherwise.
 *
 * Wall clock: read here once to start a new server, by the pacing (wall-clock.ts) and by the
 * replay pacer's and the log's ticks; the exchange itself sees only simulated time.
 */
import { ExchangeContext, ExsimHttpServer, type ClientTimeRule, type MarketBackend, type FaultOptions } from '../api-facade/index.ts';
import { Pacing } from '../clock/index.ts';
import type { CreateAccount } from '../engine/index.ts';
import { SAMPLE_CONFIG, sampleAccounts, DEMO_ACCOUNT_ID, DEMO_CREDENTIALS } from '../sample/index.ts';
import { InputError, openMarketData, servedSampleDir } from '../data/index.ts';
import type { Replay, TapeEndMode, TapeEndState } from '../sim/index.ts';
import { loadServedAccounts, type ServedAccounts } from './accounts-file.ts';
import { PacedBackend } from './backends/paced-backend.ts';
import { openServedReplay, type ServedReplay } from './backends/replay-backend.ts';
import { paceReplay } from './backends/replay-pacer.ts';
import { staticMarket } from './backends/static-market.ts';
import { ClientClock, replayClientTime } from './client-clock.ts';
import { ServeControl } from './control/control-plane.ts';
import { attachWriteAheadLog } from './durability/commit.ts';
import { HostNotes } from './durability/host-notes.ts';
import { openWriteAheadLog, replayWriteAheadLog, type RestoredServing } from './durability/restore.ts';
import { DEFAULT_SNAPSHOT_EVERY, type SnapshotWritten } from './durability/snapshots.ts';
import type { FsyncPolicy } from './durability/write-ahead-log.ts';
import { systemWallClock } from './wall-clock.ts';

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
  /** Accounts file (accounts-file.ts); absent: the demo account. */
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
  /** Write-ahead log (durability/write-ahead-log.ts): restored when it exists, appended to. */
  journal?: string;
  /** The journal's fsync policy (default `batch`) and the batch period, ms. */
  fsync?: FsyncPolicy;
  fsyncMs?: number;
  /** Snapshots every n commands (durability/snapshots.ts; default DEFAULT_SNAPSHOT_EVERY, 0: only at a clean stop). */
  snapshotEvery?: number;
  /** What a replay does when its tape runs out (src/sim/tape-end.ts). Default 'stop'. */
  atEnd?: TapeEndMode;
  /** With --data: USDⓈ-M perpetuals traded through /fapi beside their spot symbols. */
  futures?: readonly string[];
}

/** A running server: its URL, and `close` (stops pacing, closes sockets, flushes the journal). */
export interface ServeHandle {
  readonly url: string;
  readonly server: ExsimHttpServer;
  /** The control plane in process (the clock, status, accounts; control/control-plane.ts). */
  readonly control: ServeControl;
  /** The end of the replayed tape, live (null without --data): for logs and status answers. */
  readonly tapeEnd: TapeEndState | null;
  close(): Promise<void>;
}

const DEMO_KEY = DEMO_CREDENTIALS;

export async function serve(given: ServeOptions, print: (line: string) => void = console.log): Promise<ServeHandle> {
  // `--data sample` serves the sample at a liquid pair's density, generated once into a cache (src/data/served-sample.ts).
  const options: ServeOptions = given.data === 'sample' ? { ...given, data: await servedSampleDir(print) } : given;
  // A new live server anchors simulated time to the wall clock once (a log keeps its own start).
  const wallStart = Math.round(systemWallClock() * 1000);
  const journal = options.journal === undefined ? null : await openWriteAheadLog({ ...options, journal: options.journal }, wallStart);
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
  let futuresFunding: ServedReplay['futuresFunding'] | undefined;
  let futuresMarks: ServedReplay['futuresMarks'] | undefined;
  if (options.data === undefined && options.futures !== undefined && options.futures.length > 0) throw new InputError('--futures needs --data: the perpetuals trade on prints derived from the replayed spot tape');
  if (options.data === undefined && options.atEnd !== undefined && options.atEnd !== 'stop') throw new InputError(`--at-end ${options.atEnd} needs --data: the static sample market has no tape`);
  if (options.data === undefined) {
    // The simulation starts at the wall clock's present, so wall-clock and server-time stamps agree at first.
    const start = journal?.header.start ?? wallStart;
    pacing = new Pacing(options.clock, { simulatedStart: start, wallClock: systemWallClock });
    served = accounts(start);
    const paced = new PacedBackend(SAMPLE_CONFIG, pacing, staticMarket(served, options.accounts !== undefined, start));
    backend = paced;
    if (journal !== null) journaled = await replayWriteAheadLog(journal, { engine: paced, start });
    clientTime = clientClock(pacing).rule;
  } else {
    const built = await openServedReplay({ data: options.data, seed: options.seed, from: options.from, atEnd: options.atEnd, futures: options.futures }, accounts, print);
    served = built.served;
    tapeEnd = built.tapeEnd;
    futuresFunding = built.futuresFunding;
    futuresMarks = built.futuresMarks;
    const replay = built.replay;
    if (journal !== null) journaled = await replayWriteAheadLog(journal, { replay });
    pacing = new Pacing(options.clock, { simulatedStart: built.start, wallClock: systemWallClock });
    backend = replay;
    const pacer = paceReplay(replay, pacing);
    catchUp = pacer.catchUp;
    stopPacing = pacer.stop;
    clientTime = replayClientTime(clientClock(pacing).rule, pacing);
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
    ...(futuresFunding === undefined ? {} : { futuresFunding }),
    ...(futuresMarks === undefined ? {} : { futuresMarks }),
  });
  const snapshotLog = (s: SnapshotWritten): void => print(`journal: snapshot at ${s.commands} commands, ${(s.bytes / 1e6).toFixed(1)} MB in ${Math.round(s.ms)} ms`);
  // The host's own state journaled with the facade's (today the control plane's pacing).
  const notes = new HostNotes();
  const journaling = journal === null || journaled === null ? null : attachWriteAheadLog(journal, ctx, notes, journaled, options.fsyncMs, { every: options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY, log: snapshotLog });
  const config = options.data === undefined ? SAMPLE_CONFIG : openMarketData(options.data).config;
  const control = new ServeControl({
    pacing,
    ctx,
    notes,
    config,
    catchUp,
    createAccount: (command) => (backend instanceof PacedBackend ? backend.applyRaw({ ...command, time: backend.now }) : (backend as Replay).apply(withoutTime(command))),
    ...(options.adminKey === undefined ? {} : { adminKey: options.adminKey }),
    ...(journaling === null ? {} : { commit: journaling.commitControl }),
    status: () => ({ replay: options.data === undefined ? null : { data: given.data!, position: Math.floor(backend.now / 1000), atEnd: tapeEnd }, connections: server.streamConnections }),
  });
  // The pacing the control plane last set, if the journal holds one, replaces the command line's --clock.
  const restoredPacing = journaling === null ? null : control.restorePacing(pacing.anchor.simulated);
  const server = new ExsimHttpServer(ctx, { control, ...(journaling === null ? {} : { beforeAnswer: journaling.beforeAnswer }) });
  const url = await server.listen(options.port, options.host);
  const market = options.data === undefined ? 'the sample market (BTCUSDT, ETHBTC)' : `a replay of ${given.data} (${backend.engine.symbolNames().join(', ')}) from ${new Date(pacing.anchor.simulated / 1000).toISOString()}, seed ${options.seed ?? '1'}`;
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
  if (options.futures !== undefined && options.futures.length > 0) {
    // A `futures` entry may carry its funding interval (`BTCUSDT:4h`).
    const perpetual = options.futures[0]!.split(':')[0]!.toLowerCase();
    print(`futures streams (fstream.binance.com's paths under /fstream): ${url.replace('http:', 'ws:')}/fstream/ws/${perpetual}@markPrice@1s, /fstream/stream?streams=${perpetual}@depth@100ms/${perpetual}@aggTrade/!forceOrder@arr/..., or /ws/<listenKey from POST /fapi/v1/listenKey>`);
    print(`futures stream URL for clients (the root: /market/stream, /public/stream, /private/stream?listenKey=...): ${url.replace('http:', 'ws:')}`);
  }
  print(`WebSocket API: ${url.replace('http:', 'ws:')}/ws-api/v3`);
  if (options.futures !== undefined && options.futures.length > 0) print(`futures WebSocket API: ${url.replace('http:', 'ws:')}/ws-fapi/v1`);
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
