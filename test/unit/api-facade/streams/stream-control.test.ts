/**
 * The stream host's control messages as text (streams/stream-control.ts): request ids echoed
 * exactly as Binance documents them (64-bit signed integers, short alphanumeric strings, null;
 * web-socket-streams.md and CHANGELOG 2023-12-04), and a message nested past serde_json's
 * recursion limit refused as serde refuses it, before JSON.parse reads it.
 */
import { expect, test } from 'vitest';
import { errorFrame, parseStreamControl, resultFrame } from '../../../../src/api-facade/streams/stream-control.ts';

/** The frame a message earns when it is a LIST_SUBSCRIPTIONS with no streams: the id as the answer carries it. */
function answer(text: string): string {
  const request = parseStreamControl(text);
  return 'code' in request ? errorFrame(request) : resultFrame([], request.id);
}

test('integer ids come back exactly, past 2^53 and up to 2^63 - 1; negative ones too, as the docs allow', () => {
  expect(answer('{"method":"LIST_SUBSCRIPTIONS","id":9007199254740993}')).toBe('{"result":[],"id":9007199254740993}');
  expect(answer('{"method":"LIST_SUBSCRIPTIONS","id":9223372036854775807}')).toBe('{"result":[],"id":9223372036854775807}');
  expect(answer('{"method":"LIST_SUBSCRIPTIONS","id":-1}')).toBe('{"result":[],"id":-1}');
  expect(answer('{"method":"LIST_SUBSCRIPTIONS","id":"Ab12"}')).toBe('{"result":[],"id":"Ab12"}');
  expect(answer('{"method":"LIST_SUBSCRIPTIONS","id":null}')).toBe('{"result":[],"id":null}');
});

test('ids outside the documented kinds are refused with the docs’ text, id null', () => {
  const refused = '{"error":{"code":2,"msg":"Invalid request: request ID must be an unsigned integer"},"id":null}';
  for (const id of ['9223372036854775808', '-9223372036854775809', '1.5', '1e2', '"a-b"', `"${'a'.repeat(37)}"`, 'true', '[1]']) {
    expect(answer(`{"method":"LIST_SUBSCRIPTIONS","id":${id}}`)).toBe(refused);
  }
  expect(answer('{"method":"LIST_SUBSCRIPTIONS"}')).toBe(refused);
});

test('a message nested 128 levels deep is serde_json’s recursion error (code 3) at the bracket that opens the 128th level', () => {
  const deep = (levels: number) => `{"method":"SUBSCRIBE","params":${'['.repeat(levels)}${']'.repeat(levels)},"id":1}`;
  expect(answer(deep(126))).toBe('{"error":{"code":2,"msg":"Invalid request: invalid stream"},"id":1}');
  expect(answer(deep(127))).toBe('{"error":{"code":3,"msg":"Invalid JSON: recursion limit exceeded at line 1 column 158"},"id":null}');
  expect(answer(deep(5000))).toBe('{"error":{"code":3,"msg":"Invalid JSON: recursion limit exceeded at line 1 column 158"},"id":null}');
});
