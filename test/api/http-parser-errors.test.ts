/**
 * Requests node:http cannot parse still get a JSON error: 414 for a request line past node's
 * 16 KiB header limit, 431 for headers past it, 400 for anything malformed. Every answer is one
 * JSON answer or a closed socket (issue 25 item 3): no Host, a broken chunked body, a declared
 * body over the limit (refused from the headers), a request that does not arrive in time.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { makeFixture } from './fixture.ts';

let server: ExsimHttpServer;
let port: number;
beforeAll(async () => {
  server = new ExsimHttpServer(makeFixture().ctx);
  port = Number(new URL(await server.listen(0)).port);
});
afterAll(() => server.close());

/** Sends raw bytes; resolves with everything the server wrote before closing, or `<still open>` appended after `waitMs`. */
function rawExchange(bytes: string, waitMs = 5000, to = port): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`${out}<still open>`);
    }, waitMs);
    const done = (): void => {
      clearTimeout(timer);
      resolve(out);
    };
    socket.on('data', (c) => (out += c.toString('latin1')));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (e) => (out === '' ? reject(e) : done()));
    socket.write(bytes);
  });
}

/** How many HTTP responses (status lines) a socket's output holds. */
const answers = (response: string): number => response.split('\r\n').filter((line) => /^HTTP\/1\.1 \d{3} /.test(line)).length;

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

describe('one JSON answer or a closed socket', () => {
  let timed: ExsimHttpServer;
  let timedPort: number;
  beforeAll(async () => {
    timed = new ExsimHttpServer(makeFixture().ctx, { headersTimeoutMs: 200, requestTimeoutMs: 400 });
    timedPort = Number(new URL(await timed.listen(0)).port);
  });
  afterAll(() => timed.close());

  test('an HTTP/1.1 request without Host is 400 with a JSON body; HTTP/1.0 needs none', async () => {
    const response = await rawExchange('GET /api/v3/ping HTTP/1.1\r\n\r\n');
    expect(answers(response)).toBe(1);
    expect(parse(response)).toEqual({ status: 400, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Malformed HTTP request: an HTTP/1.1 request must send a Host header.' } });
    expect(parse(await rawExchange('GET /api/v3/ping HTTP/1.0\r\n\r\n')).status).toBe(200);
  });

  test('a malformed chunked body gets one answer, with or without Host', async () => {
    const withoutHost = await rawExchange('POST /api/v3/order HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n');
    expect(answers(withoutHost)).toBe(1);
    expect(parse(withoutHost).json).toEqual({ code: -1000, msg: 'Malformed HTTP request: an HTTP/1.1 request must send a Host header.' });
    const withHost = await rawExchange('POST /api/v3/order HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n');
    expect(answers(withHost)).toBe(1);
    expect(parse(withHost)).toEqual({ status: 400, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Malformed HTTP request.' } });
  });

  test('a declared Content-Length over the limit is 413 at once, from the headers, and the connection closes', async () => {
    const started = performance.now();
    const response = await rawExchange('POST /api/v3/order HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\nsymbol=', 3000);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response.endsWith('<still open>')).toBe(false);
    expect(parse(response)).toEqual({ status: 413, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Request body too large.' } });
  });

  test('Expect: 100-continue: an oversized body is refused before the client sends it; a fitting one is asked for', async () => {
    const refused = await rawExchange('POST /api/v3/order HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n', 3000);
    expect(refused).not.toContain('100 Continue');
    expect(parse(refused).status).toBe(413);
    const asked = await rawExchange('POST /api/v3/ping HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', 3000);
    expect(asked.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 ')).toBe(true);
  });

  test('a body that does not arrive in time is 408 and the connection closes; so are headers that do not', async () => {
    const body = await rawExchange('POST /api/v3/order HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc', 3000, timedPort);
    expect(parse(body)).toEqual({ status: 408, contentType: 'application/json;charset=UTF-8', json: { code: -1000, msg: 'Request timed out.' } });
    const headers = await rawExchange('GET /api/v3/ping HTTP/1.1\r\nHost: x\r\n', 3000, timedPort);
    expect(parse(headers).status).toBe(408);
    expect(answers(body) + answers(headers)).toBe(2);
  });
});
