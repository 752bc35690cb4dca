import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventQueue, type QueueEntry } from '../../../src/clock/event-queue.ts';
import { propertyParameters } from '../../property/property-parameters.ts';

interface Entry extends QueueEntry {
  name: string;
}

function entry(name: string, time: number): Entry {
  return { name, time, seq: -1, heapIndex: -1 };
}

function drain(queue: EventQueue<Entry>): string[] {
  const names: string[] = [];
  for (let e = queue.pop(); e !== undefined; e = queue.pop()) names.push(e.name);
  return names;
}

describe('EventQueue', () => {
  it('pops by time, and entries with equal times in insertion order', () => {
    const queue = new EventQueue<Entry>();
    for (const [name, time] of [['c1', 3], ['a1', 1], ['c2', 3], ['b', 2], ['a2', 1], ['c3', 3], ['a3', 1]] as const) {
      queue.push(entry(name, time));
    }
    expect(queue.size).toBe(7);
    expect(queue.peek()?.name).toBe('a1');
    expect(drain(queue)).toEqual(['a1', 'a2', 'a3', 'b', 'c1', 'c2', 'c3']);
    expect(queue.size).toBe(0);
    expect(queue.pop()).toBeUndefined();
  });

  it('removes an arbitrary entry and keeps the order of the rest', () => {
    const queue = new EventQueue<Entry>();
    const entries = Array.from({ length: 20 }, (_, i) => entry(`e${i}`, (i * 7) % 5));
    for (const e of entries) queue.push(e);
    for (const i of [0, 19, 7, 8, 13]) expect(queue.remove(entries[i]!)).toBe(true);
    const expected = entries
      .filter((_, i) => ![0, 19, 7, 8, 13].includes(i))
      .sort((a, b) => a.time - b.time || a.seq - b.seq)
      .map((e) => e.name);
    expect(drain(queue)).toEqual(expected);
  });

  it('refuses to remove an entry it does not hold, and reports membership', () => {
    const queue = new EventQueue<Entry>();
    const other = new EventQueue<Entry>();
    const a = entry('a', 1);
    const b = entry('b', 1);
    queue.push(a);
    other.push(b);
    expect(queue.contains(a)).toBe(true);
    expect(queue.contains(b)).toBe(false);
    expect(queue.remove(b)).toBe(false);
    expect(queue.pop()).toBe(a);
    expect(queue.remove(a)).toBe(false);
    expect(a.heapIndex).toBe(-1);
  });

  it('treats a re-pushed entry as a new insertion at its time', () => {
    const queue = new EventQueue<Entry>();
    const a = entry('a', 5);
    queue.push(a);
    queue.push(entry('b', 5));
    queue.pop();
    queue.push(a);
    expect(drain(queue)).toEqual(['b', 'a']);
  });

  it('throws when an entry is pushed twice without being popped', () => {
    const queue = new EventQueue<Entry>();
    const a = entry('a', 1);
    queue.push(a);
    expect(() => queue.push(a)).toThrow(/already queued/);
  });

  it('matches a sorted array under any mix of push, pop and remove on heaps of hundreds of entries', () => {
    type Op = { kind: 'push'; time: number } | { kind: 'pop' } | { kind: 'remove'; pick: number };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('push' as const), time: fc.integer({ min: 0, max: 50 }) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'pop' as const }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
    );
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 100, maxLength: 600 }), (ops) => {
        const queue = new EventQueue<Entry>();
        let model: Entry[] = [];
        let created = 0;
        const ordered = (): Entry[] => [...model].sort((a, b) => a.time - b.time || a.seq - b.seq);
        for (const op of ops) {
          if (op.kind === 'push') {
            const e = entry(`e${created++}`, op.time);
            queue.push(e);
            model.push(e);
          } else if (op.kind === 'pop') {
            expect(queue.pop()).toBe(ordered()[0]);
            model = ordered().slice(1);
          } else if (model.length > 0) {
            const victim = model[op.pick % model.length]!;
            expect(queue.remove(victim)).toBe(true);
            model = model.filter((e) => e !== victim);
          }
          expect(queue.size).toBe(model.length);
          expect(queue.peek()).toBe(ordered()[0]);
        }
        expect(drain(queue)).toEqual(ordered().map((e) => e.name));
      }),
      propertyParameters({ numRuns: 40 }),
    );
  });
});
