/**
 * The server's one send budget (transport/send-budget.ts) with sockets that queue what they are
 * written until told to drain: a connection over its own cap is dropped; over the total, the
 * slowest (the highest power-of-two bucket, the earliest to enter it) goes first, a reader that
 * drained meanwhile is re-counted instead of dropped, healthy readers are never dropped; a lagging
 * socket's frames are held and go out together, in order, when it drains; writes are corked for
 * the rest of the tick; a dropped socket is
 * destroyed with an error and its held frames discarded; and a send costs O(1): it reads its own
 * socket only.
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { WebSocket } from 'ws';
import { SendBudget } from '../../../../src/api-facade/transport/send-budget.ts';

const KiB = 1024;

/** A connection whose socket queues every write until `drain`; counts reads of its queue's length. */
class QueueingSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  queued = 0;
  reads = 0;
  /** KiB written, in order, with `(` and `)` where writes were corked and uncorked. */
  readonly written: (number | '(' | ')')[] = [];
  destroyedWith: Error | undefined;
  get writableLength(): number {
    this.reads++;
    return this.queued;
  }
  write(frame: Buffer): void {
    this.queued += frame.length;
    this.written.push(frame.length / KiB);
  }
  cork(): void {
    this.written.push('(');
  }
  uncork(): void {
    this.written.push(')');
  }
  destroy(error?: Error): void {
    this.destroyedWith = error;
    this.readyState = 3;
  }
  /** The reader took everything: node emits 'drain'. */
  drain(): void {
    this.queued = 0;
    this.emit('drain');
  }
}

function setup(totalBytes: number, perConnectionBytes = 16 * 1024 * KiB) {
  const budget = new SendBudget({ totalBytes, perConnectionBytes });
  const dropped: string[] = [];
  const open = (name: string) => {
    const socket = new QueueingSocket();
    const slot = budget.open(socket as unknown as WebSocket, socket as unknown as Duplex, () => dropped.push(name));
    return { socket, slot, send: (bytes: number) => budget.send(slot, Buffer.alloc(bytes)) };
  };
  return { budget, dropped, open };
}

describe('the send budget', () => {
  test('a connection over its own cap is dropped at once, whatever the total, its socket destroyed with an error', () => {
    const { budget, dropped, open } = setup(1024 * KiB * 1024, 256 * KiB);
    const reader = open('reader');
    expect(reader.send(200 * KiB)).toBe(true);
    expect(reader.send(100 * KiB)).toBe(false); // held (the socket lags): 300 KiB counted
    expect(dropped).toEqual(['reader']);
    expect(budget.queuedBytes).toBe(0);
    // Node hands this one error to every queued write instead of building one per write.
    expect(reader.socket.destroyedWith?.message).toBe('dropped: a reader that does not keep up');
    expect(reader.send(1)).toBe(false);
    expect(reader.socket.written).toEqual(['(', 200]); // the held frame was discarded
  });

  test('over the total, the slowest goes first: the biggest queue’s bucket, the earliest into it; healthy readers stay', () => {
    const { budget, dropped, open } = setup(1000 * KiB);
    const healthy = Array.from({ length: 10 }, (_, i) => open(`healthy${i}`));
    const a = open('a');
    const b = open('b');
    const c = open('c');
    a.send(300 * KiB); // bucket 256 KiB, first
    b.send(400 * KiB); // bucket 256 KiB, second
    c.send(100 * KiB); // bucket 64 KiB
    for (const h of healthy) h.send(10 * KiB);
    expect([budget.queuedBytes, dropped]).toEqual([900 * KiB, []]);
    c.send(150 * KiB); // 1050 KiB > 1000: one drop brings it under
    expect(dropped).toEqual(['a']);
    expect(budget.queuedBytes).toBe(750 * KiB);
    b.send(300 * KiB); // b moves to the 512 KiB bucket: 1050 KiB again
    expect(dropped).toEqual(['a', 'b']);
    expect(budget.queuedBytes).toBe(350 * KiB);
    expect(budget.dropped).toBe(2);
  });

  test('a laggard that drained since its last send is re-counted, not dropped', () => {
    const { budget, dropped, open } = setup(500 * KiB);
    const caughtUp = open('caught-up');
    const stuck = open('stuck');
    caughtUp.send(300 * KiB); // counted 300 KiB...
    stuck.send(150 * KiB);
    caughtUp.socket.queued = 0; // ...then read (its 'drain' not yet emitted)
    stuck.send(100 * KiB); // 550 KiB as counted: the re-count finds 250 KiB
    expect(dropped).toEqual([]);
    expect(budget.queuedBytes).toBe(250 * KiB);
  });

  test('a lagging socket’s frames are held and written together, in order, when it drains; a flush writes them at once', async () => {
    const { budget, open } = setup(10 * 1024 * KiB);
    const reader = open('reader');
    reader.send(100 * KiB); // written, corked until the tick ends
    reader.send(10 * KiB);
    reader.send(20 * KiB);
    expect([reader.socket.written, budget.queuedBytes]).toEqual([['(', 100], 130 * KiB]);
    reader.socket.drain();
    expect([reader.socket.written, budget.queuedBytes]).toEqual([['(', 100, '(', 10, 20, ')'], 30 * KiB]);
    reader.send(40 * KiB); // 30 KiB queued: written
    reader.send(5 * KiB); // 70 KiB queued: held
    budget.flush(reader.slot); // as before a close frame
    expect(reader.socket.written).toEqual(['(', 100, '(', 10, 20, ')', 40, '(', 5, ')']);
    reader.socket.drain();
    await new Promise((r) => process.nextTick(r));
    // The flush left nothing for 'drain'; the tick's cork came off once.
    expect(reader.socket.written).toEqual(['(', 100, '(', 10, 20, ')', 40, '(', 5, ')', ')']);
  });

  test('writes are corked for the rest of the tick: one write per connection per tick; then counted again', async () => {
    const { budget, open } = setup(10 * 1024 * KiB);
    const reader = open('reader');
    for (let i = 0; i < 5; i++) reader.send(KiB);
    expect([reader.socket.written, budget.queuedBytes]).toEqual([['(', 1, 1, 1, 1, 1], 5 * KiB]);
    reader.socket.queued = 0; // the kernel took it once uncorked
    await new Promise((r) => process.nextTick(r));
    expect([reader.socket.written.at(-1), budget.queuedBytes]).toEqual([')', 0]);
  });

  test('a send reads only its own connection’s queue: 2,000 connections, 20,000 sends', () => {
    const { open } = setup(64 * 1024 * KiB);
    const connections = Array.from({ length: 2000 }, (_, i) => open(`c${i}`));
    for (let round = 0; round < 10; round++) for (const c of connections) c.send(100);
    // Two reads a send: whether it lags, then its count.
    expect(connections.reduce((sum, c) => sum + c.socket.reads, 0)).toBe(40_000);
  });

  test('a closed connection no longer counts', () => {
    const { budget, open } = setup(10 * 1024 * KiB);
    const reader = open('reader');
    reader.send(300 * KiB);
    budget.close(reader.slot);
    expect(budget.queuedBytes).toBe(0);
    expect(reader.send(1)).toBe(false);
  });
});
