/**
 * Deep JSON and exact ids (issue 25 items 2 and 4): a request body or WebSocket API frame nested
 * past serde_json's recursion limit (128 levels) is refused before it is parsed, as any JSON the
 * API will not read: 400 -1135 "Invalid JSON Request", weighed like a request refused at the
 * parameter stage, the WebSocket API request's id kept. Ids are echoed exactly (JSON.parse would
 * round an integer past 2^53).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExsimHttpServer } from '../../src/api-facade/transport/http-server.ts';
import { WsApiConnection } from '../../src/api-facade/ws-api/ws-api-connection.ts';
import { makeFixture } from './fixture.ts';

const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const weightUsed = (count: number) => `"rateLimits":[{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE","intervalNum":1,"limit":6000,"count":${count}}]`;

describe('a JSON request body nested 5,000 levels deep', () => {
  let server: ExsimHttpServer;
  let base: string;
  beforeAll(async () => {
    server = new ExsimHttpServer(makeFixture().ctx);
    base = await server.listen(0);
  });
  afterAll(() => server.close());

  test('POST /sapi/v1/fiat/deposit answers 400 -1135 in its envelope and charges the row’s weight, not a 500', async () => {
    const body = `{"currency":"BRL","apiPaymentMethod":"pix","amount":"10","ext":${nested(5000)}}`;
    const res = await fetch(`${base}/sapi/v1/fiat/deposit`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: '-1135', message: 'Invalid JSON Request', data: null, success: false });
    expect(res.headers.get('x-mbx-used-weight-1m')).toBe('1');
  });

  test('the same body 127 levels deep is read (and refused further on, for its signature)', async () => {
    const body = `{"currency":"BRL","apiPaymentMethod":"pix","amount":"10","ext":${nested(126)}}`;
    const res = await fetch(`${base}/sapi/v1/fiat/deposit`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect([res.status, await res.json()]).toEqual([400, { code: '-1102', message: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.", data: null, success: false }]);
  });
});

describe('the WebSocket API', () => {
  function connection() {
    const frames: string[] = [];
    const c = new WsApiConnection(makeFixture().ctx, { ip: '10.0.0.9', unit: 'MILLISECOND', returnRateLimits: true, send: (t) => void frames.push(t), close: () => undefined });
    return { frames, send: (text: string) => c.handle(text) };
  }

  test('a frame nested 5,000 levels deep is 400 -1135 with the request’s id, weight 1', () => {
    const { frames, send } = connection();
    send(`{"id":"deep-1","method":"ping","params":{"x":${nested(5000)}}}`);
    send(`{"params":{"x":${nested(5000)}},"method":"time","id":9007199254740993}`);
    expect(frames).toEqual([
      `{"id":"deep-1","status":400,"error":{"code":-1135,"msg":"Invalid JSON Request"},${weightUsed(1)}}`,
      `{"id":9007199254740993,"status":400,"error":{"code":-1135,"msg":"Invalid JSON Request"},${weightUsed(2)}}`,
    ]);
  });

  test('integer ids are echoed exactly in the signed 64-bit range; others are no ids', () => {
    const { frames, send } = connection();
    send('{"id":9007199254740993,"method":"ping"}');
    send('{"id":9223372036854775807,"method":"ping"}');
    send('{"id":-1,"method":"ping"}');
    send('{"id":9223372036854775808,"method":"ping"}');
    send('{"id":1.5,"method":"ping"}');
    expect(frames).toEqual([
      `{"id":9007199254740993,"status":200,"result":{},${weightUsed(1)}}`,
      `{"id":9223372036854775807,"status":200,"result":{},${weightUsed(2)}}`,
      `{"id":-1,"status":200,"result":{},${weightUsed(3)}}`,
      `{"id":null,"status":400,"error":{"code":-1135,"msg":"Invalid JSON Request"},${weightUsed(4)}}`,
      `{"id":null,"status":400,"error":{"code":-1135,"msg":"Invalid JSON Request"},${weightUsed(5)}}`,
    ]);
  });
});
