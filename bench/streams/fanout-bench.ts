/**
 * streams/fanout: one `exsim serve --data sample --clock speed:100` process (a child) fans out
 * `btcusdt@trade` + `btcusdt@depth@100ms` to `subscribers` combined-stream connections held by
 * this process, for `duration` seconds of wall time (100x: that many hundred seconds of the
 * sample day). Every subscriber's messages are checked as they arrive: trade ids consecutive,
 * diff-depth U = previous u + 1, event times never going back; at the end (the server closes and
 * sends serverShutdown) every subscriber must have reached the same last trade id and the same
 * last u. The table shows messages delivered per second across subscribers, dropped (gaps) and
 * reordered counts (target: 0 and 0), and the server's peak RSS.
 *
 * One IP may open 300 connections (Binance's limit, enforced by the server), so the subscribers
 * come from 127.0.0.2, 127.0.0.3, ... in groups of 250 (Linux routes all of 127/8 to loopback).
 * Messages are read with two regular expressions, not JSON.parse, so the checking side is not what
 * limits the run on a 2-core machine.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { FanoutTargetReady, FanoutTargetStopped } from './fanout-target.ts';

export const DEFAULT_SUBSCRIBERS = 1000;
const PER_IP = 250;
const STREAMS = ['btcusdt@trade', 'btcusdt@depth@100ms'];

export interface FanoutResult {
  readonly name: 'streams/fanout';
  readonly subscribers: number;
  readonly speed: number;
  readonly seconds: number;
  readonly messages: number;
  readonly messagesPerSec: number;
  /** Gaps in trade ids or diff-depth ids, and subscribers that ended short of the others. */
  readonly dropped: number;
  /** Messages whose id or event time went backwards. */
  readonly reordered: number;
  readonly serverRssMb: number;
}

interface Subscriber {
  ws: WebSocket;
  lastTrade: number;
  lastU: number;
  lastE: number;
  messages: number;
  dropped: number;
  reordered: number;
}

const TRADE = /"stream":"btcusdt@trade","data":\{"e":"trade","E":(\d+),"s":"BTCUSDT","t":(\d+)/;
const DEPTH = /"stream":"btcusdt@depth@100ms","data":\{"e":"depthUpdate","E":(\d+),"s":"BTCUSDT","U":(\d+),"u":(\d+)/;

function observe(s: Subscriber, text: string): void {
  s.messages++;
  const trade = TRADE.exec(text);
  if (trade !== null) {
    const id = Number(trade[2]);
    if (s.lastTrade >= 0 && id !== s.lastTrade + 1) (id <= s.lastTrade ? s.reordered++ : s.dropped++);
    s.lastTrade = Math.max(s.lastTrade, id);
    return check(s, Number(trade[1]));
  }
  const depth = DEPTH.exec(text);
  if (depth !== null) {
    const U = Number(depth[2]);
    if (s.lastU >= 0 && U !== s.lastU + 1) (U <= s.lastU ? s.reordered++ : s.dropped++);
    s.lastU = Math.max(s.lastU, Number(depth[3]));
    return check(s, Number(depth[1]));
  }
}

function check(s: Subscriber, E: number): void {
  if (E < s.lastE) s.reordered++;
  s.lastE = Math.max(s.lastE, E);
}

export async function runFanoutBench(o: { subscribers: number; duration: number; speed?: number; log: (m: string) => void }): Promise<FanoutResult> {
  const speed = o.speed ?? 100;
  const script = fileURLToPath(new URL('./fanout-target.ts', import.meta.url));
  const child: ChildProcess = fork(script, [String(speed)], { execArgv: process.execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise<FanoutTargetReady>((resolve, reject) => {
    child.once('message', (m) => resolve(m as FanoutTargetReady));
    child.once('exit', (code) => reject(new Error(`fanout target exited (${code}) before it was ready`)));
  });
  const url = `${ready.url.replace('http:', 'ws:')}/stream?streams=${STREAMS.join('/')}`;
  o.log(`streams/fanout: ${o.subscribers} subscribers of ${STREAMS.join(' + ')} at speed:${speed} for ${o.duration} s`);
  const subscribers: Subscriber[] = [];
  const closed: Promise<void>[] = [];
  for (let i = 0; i < o.subscribers; i += PER_IP) {
    const batch = Math.min(PER_IP, o.subscribers - i);
    const localAddress = `127.0.0.${2 + i / PER_IP}`;
    const opened = await Promise.all(
      Array.from({ length: batch }, () =>
        new Promise<Subscriber>((resolve, reject) => {
          const ws = new WebSocket(url, { localAddress });
          const s: Subscriber = { ws, lastTrade: -1, lastU: -1, lastE: 0, messages: 0, dropped: 0, reordered: 0 };
          ws.on('message', (data) => observe(s, data.toString()));
          closed.push(new Promise((r) => ws.once('close', () => r())));
          ws.once('open', () => resolve(s));
          ws.once('error', reject);
        }),
      ),
    );
    subscribers.push(...opened);
  }
  // Count from here: every subscriber is connected.
  const startMessages = subscribers.reduce((n, s) => n + s.messages, 0);
  const started = performance.now(); // determinism-ok: bench timing
  await new Promise((r) => setTimeout(r, o.duration * 1000)); // determinism-ok: bench timing
  const stopped = new Promise<FanoutTargetStopped>((resolve) => child.once('message', (m) => resolve(m as FanoutTargetStopped)));
  child.send('stop');
  const { rssMb } = await stopped;
  await Promise.all(closed);
  const seconds = (performance.now() - started) / 1000; // determinism-ok: bench timing
  const messages = subscribers.reduce((n, s) => n + s.messages, 0) - startMessages;
  const lastTrade = Math.max(...subscribers.map((s) => s.lastTrade));
  const lastU = Math.max(...subscribers.map((s) => s.lastU));
  let dropped = 0;
  let reordered = 0;
  for (const s of subscribers) {
    dropped += s.dropped + (s.lastTrade === lastTrade ? 0 : 1) + (s.lastU === lastU ? 0 : 1);
    reordered += s.reordered;
  }
  await new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  return { name: 'streams/fanout', subscribers: subscribers.length, speed, seconds, messages, messagesPerSec: messages / seconds, dropped, reordered, serverRssMb: rssMb };
}

export function fanoutTable(r: FanoutResult): string {
  return [
    'bench            subscribers  speed  seconds    messages   msg/s delivered  dropped  reordered  server RSS MB',
    `${r.name.padEnd(17)}${String(r.subscribers).padStart(11)}  ${String(r.speed).padStart(5)}  ${r.seconds.toFixed(1).padStart(7)}  ${r.messages.toLocaleString('en-US').padStart(10)}  ${Math.round(r.messagesPerSec).toLocaleString('en-US').padStart(15)}  ${String(r.dropped).padStart(7)}  ${String(r.reordered).padStart(9)}  ${String(r.serverRssMb).padStart(13)}`,
  ].join('\n');
}

export function fanoutJsonLine(r: FanoutResult): string {
  return JSON.stringify({ bench: r.name, subscribers: r.subscribers, speed: r.speed, seconds: Number(r.seconds.toFixed(2)), messages: r.messages, messagesPerSec: Math.round(r.messagesPerSec), dropped: r.dropped, reordered: r.reordered, serverRssMb: r.serverRssMb });
}
