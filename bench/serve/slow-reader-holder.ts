/**
 * Holds never-reading stream connections for serve/slow-readers, in a process of its own:
 * `fork(slow-reader-holder.ts, [port, count, path])` opens `count` WebSocket connections to
 * 127.0.0.1:`port` at `path` as raw sockets that write the upgrade request and then never read a
 * byte (not even the 101): the server's frames pile up in the kernel's buffers, then in its own
 * send queues. The connections come from 127.0.0.2, 127.0.0.3, ... (Linux routes all of 127/8 to
 * the loopback), at most PER_ADDRESS each, under the server's 300 per IP: readers spread over
 * addresses, as the issue describes. Sends `{opened, error?}` over IPC; 'close' ends them all.
 */
import { connect, type Socket } from 'node:net';

const PER_ADDRESS = 280;
const OPEN_BATCH = 200;
const [portText, countText, path] = process.argv.slice(2);
if (portText === undefined || countText === undefined || path === undefined) throw new Error('usage: slow-reader-holder.ts PORT COUNT PATH');
const port = Number(portText);
const count = Number(countText);
const key = Buffer.alloc(16, 1).toString('base64');
const upgrade = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${key}\r\n\r\n`;
const sockets: Socket[] = [];
let error: string | undefined;

function open(index: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: `127.0.0.${2 + Math.floor(index / PER_ADDRESS)}` });
    socket.pause(); // never read
    socket.once('connect', () => {
      socket.write(upgrade);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

try {
  while (sockets.length < count) {
    const from = sockets.length;
    const batch = await Promise.all(Array.from({ length: Math.min(OPEN_BATCH, count - from) }, (_, i) => open(from + i)));
    for (const socket of batch) socket.on('error', () => undefined);
    sockets.push(...batch);
  }
} catch (e) {
  error = e instanceof Error ? e.message : String(e);
}
process.send!({ opened: sockets.length, ...(error === undefined ? {} : { error }) });
process.on('message', (m) => {
  if (m !== 'close') return;
  for (const socket of sockets) socket.destroy();
  process.exit(0);
});
