/**
 * Requests node:http cannot parse still get a JSON error: 414 for a request line past node's
 * 16 KiB header limit, 431 for headers past it, 400 for anything malformed.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { makeFixture } from './fixture.ts';

let server: ExsimHttpServer;
let port: number;
beforeAll(async () => {
  server = new ExsimHttpServer(makeFixture().ctx);
  port = Number(new URL(await server.listen(0)).port);
});
afterAll(() => server.close());

/** Sends raw bytes; resolves with everything the server wrote before closing. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', (e) => (out === '' ? reject(e) : resolve(out)));
    socket.write(bytes);
  });
}

const parse = (response: string) => {
  const [head, body] = response.split('\r\n\r\n') as [string, string];
  return { status: Number(head.split(' ')[1]), contentType: /content-type: (.*)/i.exec(head)?.[1], json: JSON.parse(body) };
};

test('a request line longer than the header limit is 414 with a JSON body', async () => {
  const r = parse(await rawExchange(`GET /api/v3/time?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
  expect(r).toEqual({ status: 414, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Request URI too long.' } });
});

test('headers past the limit are 431 with a JSON body', async () => {
  const r = parse(await rawExchange(`GET /api/v3/time HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`));
  expect(r).toEqual({ status: 431, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Request header fields too large.' } });
});

test('a request that is not HTTP is 400 with a JSON body; the server keeps serving', async () => {
  const r = parse(await rawExchange('HELLO THERE\r\n\r\n'));
  expect(r).toEqual({ status: 400, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Malformed HTTP request.' } });
  const ok = parse(await rawExchange('GET /api/v3/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
  expect(ok.status).toBe(200);
});
