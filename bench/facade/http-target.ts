/**
 * The server side of the HTTP bench, run as a child process so that it has a core of its own and
 * the load generator (autocannon, in the parent) the other.
 *
 *   node --import tsx bench/facade/http-target.ts exsim|bare
 *
 * - exsim: ExsimHttpServer as `exsim serve` builds it (realtime pacing: simulated time follows
 *   the wall clock, read on every request; client timestamps judged by pacedClientTime) over the
 *   bench exchange (bench-exchange.ts), with every rate limit raised out of reach: the one
 *   loopback IP of the load generator stands in for thousands of clients.
 * - bare: a node:http server answering every request with a constant JSON body the size and
 *   shape of a bookTicker answer, with the same Content-Type: the floor of node:http on this box.
 * IPC protocol: the child sends {url, startMs}; the parent sends 'cpu' (answered with the
 * process's CPU µs so far) and 'stop'. Nothing is written to stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { PacedBackend, pacedClientTime, systemWallClock } from '../../src/serve/index.ts';
import { Pacing } from '../../src/clock/index.ts';
import { SAMPLE_CONFIG } from '../../src/sample/sample-market.ts';
import { apiKeys, DEFAULT_TRADERS, makeTraders, raisedRateLimits, setupCommands } from './bench-exchange.ts';

export type TargetKind = 'exsim' | 'bare';
export interface TargetReady {
  readonly url: string;
}
export interface TargetCpu {
  readonly cpuUs: number;
}

/** What the bare server answers: a bookTicker answer's shape and size. */
export const BARE_BODY = JSON.stringify({ symbol: 'BTCUSDT', bidPrice: '49990.00000000', bidQty: '0.10000000', askPrice: '50010.00000000', askQty: '0.10000000' });

async function startExsim(): Promise<{ url: string; close: () => Promise<void> }> {
  const start = Math.round(systemWallClock() * 1000); // anchors the paced clock, as exsim serve does
  const pacing = new Pacing('realtime', { simulatedStart: start, wallClock: systemWallClock });
  const traders = makeTraders(DEFAULT_TRADERS);
  const backend = new PacedBackend(SAMPLE_CONFIG, pacing, setupCommands(traders, start));
  const ctx = new ExchangeContext({ backend, apiKeys: apiKeys(traders), rateLimits: raisedRateLimits(), clientTime: pacedClientTime(pacing) });
  // The WebSocket API's per-connection message bound raised too (bench/ws-api: one connection sends every order).
  const server = new ExsimHttpServer(ctx, { wsApiLimits: { messagesPerSecond: Number.MAX_SAFE_INTEGER } });
  const url = await server.listen(0, '127.0.0.1');
  return { url, close: () => server.close() };
}

async function startBare(): Promise<{ url: string; close: () => Promise<void> }> {
  const length = String(Buffer.byteLength(BARE_BODY));
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': length });
    res.end(BARE_BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  const kind = process.argv[2];
  if (kind !== 'exsim' && kind !== 'bare') throw new Error(`usage: http-target.ts exsim|bare (got ${String(kind)})`);
  if (process.send === undefined) throw new Error('http-target.ts runs as a child with an IPC channel');
  const send: (message: TargetReady | TargetCpu) => void = process.send.bind(process);
  const target = kind === 'exsim' ? await startExsim() : await startBare();
  process.on('message', (message) => {
    if (message === 'cpu') {
      const cpu = process.cpuUsage(); // determinism-ok: bench timing
      send({ cpuUs: cpu.user + cpu.system } satisfies TargetCpu);
    } else if (message === 'stop') {
      void target.close().then(() => process.disconnect?.());
    }
  });
  send({ url: target.url } satisfies TargetReady);
}

await main();
