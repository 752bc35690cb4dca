/**
 * A text message framed once (transport/text-frame.ts) as RFC 6455 §5.2 has a server send it:
 * FIN and opcode 1, the UTF-8 length in 7, 16 or 64 bits, no mask, then the payload.
 */
import { expect, test } from 'vitest';
import { textFrame } from '../../../../src/api-facade/transport/text-frame.ts';

test.each([
  [0, [0x81, 0]],
  [125, [0x81, 125]],
  [126, [0x81, 126, 0x00, 0x7e]],
  [65_535, [0x81, 126, 0xff, 0xff]],
  [65_536, [0x81, 127, 0, 0, 0, 0, 0x00, 0x01, 0x00, 0x00]],
  [200_001, [0x81, 127, 0, 0, 0, 0, 0x00, 0x03, 0x0d, 0x41]],
])('a %i-byte text', (length, header) => {
  // Two-byte characters: the length counts bytes, not characters.
  const text = 'é'.repeat(Math.floor(length / 2)) + 'x'.repeat(length % 2);
  const frame = textFrame(text);
  expect([...frame.subarray(0, header.length)]).toEqual(header);
  expect(frame.subarray(header.length).toString('utf8')).toBe(text);
  expect(frame.length).toBe(header.length + length);
});
