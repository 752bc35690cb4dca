/**
 * Holds idle WebSocket connections for serve/idle-streams, in a process of its own:
 * `fork(idle-stream-holder.ts, [wsUrl, count])`; it opens `count` connections to `wsUrl` in
 * batches, sends `{opened, error?}` over IPC, and closes them all when told 'close' (then exits).
 *
 * Why a process apart: the idle connections are the server's load, not the load generator's.
 * Holding 10,000 sockets in the process that also runs autocannon made the generator's own heap,
 * GC and pong replies part of what the row measured.
 */
import WebSocket from 'ws';

const OPEN_BATCH = 250;
const [wsUrl, countText] = process.argv.slice(2);
if (wsUrl === undefined || countText === undefined) throw new Error('usage: idle-stream-holder.ts WS_URL COUNT');
const count = Number(countText);
const sockets: WebSocket[] = [];
let error: string | undefined;
try {
  while (sockets.length < count) {
    const batch = Math.min(OPEN_BATCH, count - sockets.length);
    const opened = await Promise.all(
      Array.from({ length: batch }, () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(wsUrl);
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
      ),
    );
    for (const ws of opened) ws.on('error', () => undefined);
    sockets.push(...opened);
  }
} catch (e) {
  error = e instanceof Error ? e.message : String(e);
}
process.send!({ opened: sockets.length, ...(error === undefined ? {} : { error }) });
process.on('message', (m) => {
  if (m !== 'close') return;
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
