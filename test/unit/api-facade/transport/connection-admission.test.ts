/**
 * The admission both WebSocket endpoints share: attempts per IP in a window of simulated time,
 * then the path, then the time unit, each refusal written as JSON on the raw socket; and the
 * per-connection message rate in simulated seconds.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { expect, test } from 'vitest';
import { ConnectionAdmission, MessageRate } from '../../../../src/api-facade/transport/connection-admission.ts';

const LIMITS = { attemptsPerIp: 2, attemptWindowUs: 60_000_000, openPerIp: 5, messagesPerSecond: 3, maxPayloadBytes: 4096, pingIntervalMs: 20_000, pongTimeoutMs: 60_000, connectionLifeMs: 86_400_000 };

/** An upgrade request for `url` from 10.0.0.1, and what the socket was answered. */
function upgrade(url: string) {
  const written: string[] = [];
  const socket = { on: () => socket, end: (text: string) => void written.push(text), destroy: () => {} } as unknown as Duplex;
  const req = { url, socket: { remoteAddress: '10.0.0.1' } } as unknown as IncomingMessage;
  return { req, socket, status: () => /^HTTP\/1\.1 (\d+)/.exec(written[0] ?? '')?.[1], body: () => (written[0] ?? '').split('\r\n\r\n')[1] };
}

test('the attempt counts first, then the path, then the time unit', () => {
  const admission = new ConnectionAdmission(LIMITS);
  const serves = (path: string) => path === '/ws';
  const bad = upgrade('/elsewhere?timeUnit=SECOND');
  expect(admission.admit(bad.req, bad.socket, 0, serves)).toBeUndefined();
  expect([bad.status(), bad.body()]).toEqual(['404', '{"code":-1000,"msg":"Unknown endpoint: GET /elsewhere"}']);
  const unit = upgrade('/ws?timeUnit=SECOND');
  expect(admission.admit(unit.req, unit.socket, 1, serves)).toBeUndefined();
  expect(JSON.parse(unit.body()!)).toEqual({ code: -1194, msg: 'Invalid value for time unit; expected either MICROSECOND or MILLISECOND.' });
  // Two attempts used in this window: the third is refused whatever it asks for.
  const third = upgrade('/ws?timeUnit=MICROSECOND');
  expect(admission.admit(third.req, third.socket, 2, serves)).toBeUndefined();
  expect(third.status()).toBe('429');
  // The next window admits again, in the unit asked for.
  const next = upgrade('/ws?timeUnit=microsecond');
  expect(admission.admit(next.req, next.socket, 60_000_000, serves)).toMatchObject({ ip: '10.0.0.1', path: '/ws', unit: 'MICROSECOND' });
});

test('a connection may send messagesPerSecond messages per simulated second', () => {
  const rate = new MessageRate(3);
  expect([rate.heard(0), rate.heard(1), rate.heard(999_999), rate.heard(999_999)]).toEqual([true, true, true, false]);
  expect(rate.heard(1_000_000)).toBe(true);
});
