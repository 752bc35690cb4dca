/**
 * The server side of streams/fanout, run as a child process: `exsim serve --data sample --clock
 * speed:N` exactly as a user starts it (src/serve/serve.ts), on a free loopback port.
 *
 *   node --import tsx bench/streams/fanout-target.ts SPEED
 *
 * IPC: the child sends {url}; the parent sends 'stop' (the server closes: every connection gets
 * serverShutdown) and the child answers {rssMb} before it exits. Nothing on stdout.
 */
import { serve } from '../../src/serve/serve.ts';

export interface FanoutTargetReady {
  readonly url: string;
}
export interface FanoutTargetStopped {
  readonly rssMb: number;
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('fanout-target.ts runs as a child with an IPC channel');
  const send: (message: FanoutTargetReady | FanoutTargetStopped) => void = process.send.bind(process);
  const speed = process.argv[2] ?? '100';
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: `speed:${speed}`, data: 'sample' }, () => undefined);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200); // determinism-ok: bench sampling
  process.on('message', (message) => {
    if (message !== 'stop') return;
    clearInterval(sampler);
    void handle.close().then(() => {
      send({ rssMb: Math.round(peakRss / 2 ** 20) });
      process.disconnect?.();
    });
  });
  send({ url: handle.url });
}

await main();
