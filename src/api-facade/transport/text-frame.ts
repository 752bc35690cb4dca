/**
 * A WebSocket text message as the bytes a server sends (RFC 6455 §5.2: FIN, opcode 1, the payload
 * length in 7, 16 or 64 bits, no mask), built once. A stream message goes to every connection
 * carrying it: framed once, the same Buffer is written to each socket (no per-connection header,
 * byte count or copy). It matters for slow readers too: what a socket queues is then a reference
 * to the shared Buffer, where a string would be copied into each connection's pending write.
 * Frames are written whole onto sockets `ws` also writes to (pings, close frames): each write
 * is one complete frame, and `ws` compresses nothing here (no permessage-deflate), so nothing
 * interleaves inside a frame.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(text, header, 'utf8');
  return frame;
}
