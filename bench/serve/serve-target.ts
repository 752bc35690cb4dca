/**
 * The server side of the serve benches, run as a child process (one core for it, the other for
 * the load generator in the parent), built as `exsim serve` builds its server: realtime pacing,
 * the bench exchange (bench/facade/bench-exchange.ts), every rate limit raised out of reach and
 * the stream limits raised too (one loopback IP stands in for every client).
 *
 *   node --import tsx bench/serve/serve-target.ts [JOURNAL_FILE FSYNC]
 *
 * With JOURNAL_FILE the server journals as `exsim serve --journal JOURNAL_FILE --fsync FSYNC`
 * does (src/serve/durability: a new file, every command and the counters written before the answer).
 *
 * IPC: the child sends {url, listenKey} (a live key of the first trader); the parent sends
 * 'streams' (answered with {streams: open stream connections, cpuMicros: its CPU time so far})
 * and 'stop'. Nothing on stdout.
 */
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { attachWriteAheadLog, HostNotes, openWriteAheadLog, PacedBackend, pacedClientTime, replayWriteAheadLog, systemWallClock, type FsyncPolicy } from '../../src/serve/index.ts';
import { Pacing } from '../../src/clock/index.ts';
import { SAMPLE_CONFIG } from '../../src/sample/sample-market.ts';
import { apiKeys, DEFAULT_TRADERS, makeTraders, raisedRateLimits, setupCommands } from '../facade/bench-exchange.ts';

export interface ServeTargetReady {
  readonly url: string;
  readonly listenKey: string;
}
export interface ServeTargetStreams {
  readonly streams: number;
  /** The server process's CPU time so far (user + system), µs. */
  readonly cpuMicros: number;
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('serve-target.ts runs as a child with an IPC channel');
  const send: (message: ServeTargetReady | ServeTargetStreams) => void = process.send.bind(process);
  const start = Math.round(systemWallClock() * 1000); // anchors the paced clock, as exsim serve does
  const pacing = new Pacing('realtime', { simulatedStart: start, wallClock: systemWallClock });
  const traders = makeTraders(DEFAULT_TRADERS);
  const paced = new PacedBackend(SAMPLE_CONFIG, pacing, setupCommands(traders, start));
  const [journalFile, fsync] = process.argv.slice(2);
  const journal = journalFile === undefined ? null : await openWriteAheadLog({ journal: journalFile, fsync: (fsync ?? 'batch') as FsyncPolicy, seed: 'bench' }, start);
  const journaled = journal === null ? null : await replayWriteAheadLog(journal, { engine: paced, start });
  const backend = journaled?.backend ?? paced;
  const ctx = new ExchangeContext({ backend, apiKeys: apiKeys(traders), rateLimits: raisedRateLimits(), clientTime: pacedClientTime(pacing) });
  const attached = journal === null || journaled === null ? null : attachWriteAheadLog(journal, ctx, new HostNotes(), journaled);
  const server = new ExsimHttpServer(ctx, {
    streamLimits: { attemptsPerIp: 1_000_000, openPerIp: 1_000_000 },
    ...(attached === null ? {} : { beforeAnswer: attached.beforeAnswer }),
  });
  const url = await server.listen(0, '127.0.0.1');
  const listenKey = ctx.listenKeys.open(traders[0]!.accountId, ctx.now());
  process.on('message', (message) => {
    if (message === 'streams') {
      const cpu = process.cpuUsage();
      send({ streams: server.streamConnections, cpuMicros: cpu.user + cpu.system });
    }
    else if (message === 'stop') void server.close().then(async () => {
      await attached?.close();
      process.disconnect?.();
    });
  });
  send({ url, listenKey });
}

await main();
