/**
 * Slow readers over real sockets (issue 25 item 6): WebSocket API clients that send requests and
 * never read an answer (raw sockets, paused) fill their send queues; the server's one budget for
 * all queues drops them once together they pass it, each long before its own 16 MiB cap, while a
 * client that reads stays connected and served.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { BINANCE_RATE_LIMITS } from '../../src/api-facade/limits/rate-limit-config.ts';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { makeFixture } from './fixture.ts';

const MiB = 1 << 20;
const BUDGET = 4 * MiB;
let server: ExsimHttpServer;
let port: number;
beforeAll(async () => {
  const f = makeFixture({ rateLimits: BINANCE_RATE_LIMITS.map((l) => ({ ...l, limit: 1_000_000_000 })) });
  server = new ExsimHttpServer(f.ctx, { wsApiLimits: { messagesPerSecond: 1_000_000_000 }, sendBudget: { totalBytes: BUDGET } });
  port = Number(new URL(await server.listen(0)).port);
});
afterAll(() => server.close());

/** A client frame (masked, with a zero mask so the payload stays as it is), for texts under 64 KiB. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([header, Buffer.alloc(4), payload]);
}

/** A WebSocket API client that sends `requests` exchangeInfo requests and reads nothing, not even the handshake's answer. */
function neverReader(requests: number): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => undefined);
  socket.write(`GET /ws-api/v3 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${Buffer.alloc(16, 7).toString('base64')}\r\n\r\n`);
  const frame = clientFrame('{"id":1,"method":"exchangeInfo"}');
  socket.write(Buffer.concat(Array.from({ length: requests }, () => frame)));
  return socket;
}

test('never-reading clients are dropped once their queues together pass the budget; a reader is served throughout', async () => {
  const reader = new WebSocket(`ws://127.0.0.1:${port}/ws-api/v3`);
  await new Promise((r) => reader.once('open', r));
  // 3,000 answers of ~3.9 KB each: ~11 MiB per client, far more than the kernel's socket buffers hold.
  const slow = Array.from({ length: 4 }, () => neverReader(3000));
  let peak = 0;
  const deadline = performance.now() + 20_000;
  while (server.sendBuffers.dropped < 4 && performance.now() < deadline) {
    peak = Math.max(peak, server.sendBuffers.queuedBytes);
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(server.sendBuffers.dropped).toBe(4);
  expect(peak).toBeLessThanOrEqual(BUDGET);
  expect(server.sendBuffers.queuedBytes).toBeLessThan(MiB);
  const answer = new Promise<{ id: number; status: number }>((r) => reader.once('message', (data) => r(JSON.parse(String(data)))));
  reader.send('{"id":7,"method":"ping"}');
  expect(await answer).toMatchObject({ id: 7, status: 200 });
  reader.close();
  for (const s of slow) s.destroy();
});
