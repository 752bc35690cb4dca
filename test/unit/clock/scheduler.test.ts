import { describe, expect, it } from 'vitest';
import { Scheduler, type TimerHandle } from '../../../src/clock/scheduler.ts';

const T0 = 1_700_000_000_000_000;

/** A scheduler whose callbacks append `name@time` to a log. */
function logging(): { s: Scheduler; log: string[]; note: (name: string) => (time: number) => void } {
  const s = new Scheduler({ startTime: T0 });
  const log: string[] = [];
  const note = (name: string) => (time: number) => {
    expect(s.now).toBe(time);
    log.push(`${name}@${time - T0}`);
  };
  return { s, log, note };
}

describe('Scheduler ordering', () => {
  it('fires timers due at the same time in the order they were scheduled', () => {
    const { s, log, note } = logging();
    for (const name of ['a', 'b', 'c', 'd', 'e']) s.schedule(T0 + 10, note(name));
    s.schedule(T0 + 5, note('early'));
    s.schedule(T0 + 10, note('f'));
    expect(s.advanceTo(T0 + 10)).toBe(7);
    expect(log).toEqual(['early@5', 'a@10', 'b@10', 'c@10', 'd@10', 'e@10', 'f@10']);
  });

  it('sets now to each timer time while it fires, then to the target', () => {
    const { s, log, note } = logging();
    s.schedule(T0 + 30, note('x'));
    s.schedule(T0 + 10, note('y'));
    s.advanceTo(T0 + 100);
    expect(log).toEqual(['y@10', 'x@30']);
    expect(s.now).toBe(T0 + 100);
  });

  it('leaves timers due after the target queued', () => {
    const { s, log, note } = logging();
    s.schedule(T0 + 10, note('due'));
    s.schedule(T0 + 11, note('later'));
    expect(s.advanceTo(T0 + 10)).toBe(1);
    expect(log).toEqual(['due@10']);
    expect(s.pendingCount).toBe(1);
    expect(s.nextTime()).toBe(T0 + 11);
  });

  it('fires a timer scheduled at the current time on the next advance, even to the same time', () => {
    const { s, log, note } = logging();
    s.schedule(T0, note('now'));
    expect(s.advanceTo(T0)).toBe(1);
    expect(log).toEqual(['now@0']);
  });
});

describe('Scheduler time never runs backwards', () => {
  it('throws on a target before now and changes nothing', () => {
    const { s, log, note } = logging();
    s.schedule(T0 + 5, note('a'));
    s.advanceTo(T0 + 3);
    expect(() => s.advanceTo(T0 + 2)).toThrow(/time ran backwards/);
    expect(s.now).toBe(T0 + 3);
    expect(s.pendingCount).toBe(1);
    expect(s.nextTime()).toBe(T0 + 5);
    expect(log).toEqual([]);
  });

  it('throws on a non-integer target and changes nothing', () => {
    const { s, note } = logging();
    s.schedule(T0 + 1, note('a'));
    expect(() => s.advanceTo(T0 + 1.5)).toThrow(RangeError);
    expect(() => s.advanceBy(Number.NaN)).toThrow(RangeError);
    expect(s.now).toBe(T0);
    expect(s.pendingCount).toBe(1);
  });

  it('refuses to schedule a timer before now', () => {
    const { s, note } = logging();
    s.advanceTo(T0 + 10);
    expect(() => s.schedule(T0 + 9, note('past'))).toThrow(/in the past/);
    expect(() => s.scheduleAfter(-1, note('past'))).toThrow(RangeError);
    expect(() => s.scheduleEvery(T0 + 9, 5, note('past'))).toThrow(/in the past/);
    expect(s.pendingCount).toBe(0);
  });

  it('refuses to advance from inside a callback', () => {
    const s = new Scheduler({ startTime: T0 });
    const errors: unknown[] = [];
    s.schedule(T0 + 1, () => {
      try {
        s.advanceTo(T0 + 2);
      } catch (error) {
        errors.push(error);
      }
      try {
        s.runNext();
      } catch (error) {
        errors.push(error);
      }
    });
    s.advanceTo(T0 + 1);
    expect(errors).toHaveLength(2);
    expect(String(errors[0])).toMatch(/inside a timer's action/);
    expect(s.now).toBe(T0 + 1);
  });

  it('stops at the timer whose callback threw, keeping the rest queued for the next advance', () => {
    const { s, log, note } = logging();
    s.schedule(T0 + 1, note('a'));
    s.schedule(T0 + 2, () => {
      throw new Error('boom');
    });
    s.schedule(T0 + 3, note('c'));
    expect(() => s.advanceTo(T0 + 10)).toThrow('boom');
    expect(s.now).toBe(T0 + 2);
    expect(s.pendingCount).toBe(1);
    s.advanceTo(T0 + 10);
    expect(log).toEqual(['a@1', 'c@3']);
  });
});

describe('Scheduler timers scheduled by callbacks', () => {
  it('fires timers scheduled during a callback in the same advance when they are due', () => {
    const { s, log, note } = logging();
    s.schedule(T0 + 10, (time) => {
      note('parent')(time);
      s.schedule(time, note('same-time'));
      s.scheduleAfter(5, note('child+5'));
      s.scheduleAfter(50, note('child+50'));
    });
    s.schedule(T0 + 10, note('sibling'));
    s.schedule(T0 + 12, note('other'));
    s.advanceTo(T0 + 20);
    // The same-time child was inserted after the sibling already queued at 10.
    expect(log).toEqual(['parent@10', 'sibling@10', 'same-time@10', 'other@12', 'child+5@15']);
    expect(s.nextTime()).toBe(T0 + 60);
  });

  it('handles a chain of same-time timers each scheduling the next', () => {
    const s = new Scheduler({ startTime: T0 });
    let count = 0;
    const hop = (time: number): void => {
      count++;
      if (count < 1000) s.schedule(time, hop);
    };
    s.schedule(T0 + 1, hop);
    expect(s.advanceTo(T0 + 1)).toBe(1000);
    expect(s.pendingCount).toBe(0);
  });
});

describe('Scheduler cancel', () => {
  it('cancels a pending timer so it never fires', () => {
    const { s, log, note } = logging();
    const a = s.schedule(T0 + 1, note('a'));
    s.schedule(T0 + 2, note('b'));
    expect(a.pending).toBe(true);
    expect(s.cancel(a)).toBe(true);
    expect(a.pending).toBe(false);
    expect(s.cancel(a)).toBe(false);
    s.advanceTo(T0 + 5);
    expect(log).toEqual(['b@2']);
  });

  it('returns false for a timer that already fired', () => {
    const { s, note } = logging();
    const a = s.schedule(T0 + 1, note('a'));
    s.advanceTo(T0 + 1);
    expect(a.pending).toBe(false);
    expect(s.cancel(a)).toBe(false);
  });

  it('cancels a timer due at the same time from another timer callback', () => {
    const { s, log, note } = logging();
    let victim: TimerHandle | undefined;
    s.schedule(T0 + 7, (time) => {
      note('killer')(time);
      expect(s.cancel(victim!)).toBe(true);
    });
    victim = s.schedule(T0 + 7, note('victim'));
    s.schedule(T0 + 7, note('bystander'));
    expect(s.advanceTo(T0 + 7)).toBe(2);
    expect(log).toEqual(['killer@7', 'bystander@7']);
  });

  it('throws when given a handle from another scheduler', () => {
    const a = new Scheduler({ startTime: T0 });
    const b = new Scheduler({ startTime: T0 });
    const handle = a.schedule(T0 + 1, () => {});
    expect(() => b.cancel(handle)).toThrow(/not issued by this scheduler/);
    expect(() => b.cancel({ time: T0 + 1, interval: 0, pending: true })).toThrow(/not issued by this scheduler/);
    expect(handle.pending).toBe(true);
  });
});

describe('Scheduler periodic timers', () => {
  it('fires at firstAt + k × interval, every occurrence a long advance passes', () => {
    const { s, log, note } = logging();
    s.scheduleEvery(T0 + 60, 60, note('kline'));
    s.advanceTo(T0 + 59);
    expect(log).toEqual([]);
    s.advanceTo(T0 + 200);
    expect(log).toEqual(['kline@60', 'kline@120', 'kline@180']);
    expect(s.nextTime()).toBe(T0 + 240);
  });

  it('re-arms as a new insertion, so it fires after timers already queued at its next time', () => {
    const { s, log, note } = logging();
    s.scheduleEvery(T0 + 10, 10, note('tick'));
    s.schedule(T0 + 20, note('one-shot'));
    s.advanceTo(T0 + 20);
    expect(log).toEqual(['tick@10', 'one-shot@20', 'tick@20']);
  });

  it('shows the next occurrence on its handle and stops when cancelled from its own callback', () => {
    const s = new Scheduler({ startTime: T0 });
    const fired: number[] = [];
    const handle = s.scheduleEvery(T0 + 5, 5, (time, self) => {
      fired.push(time - T0);
      expect(self.time).toBe(time + 5);
      if (fired.length === 3) expect(s.cancel(self)).toBe(true);
    });
    s.advanceTo(T0 + 100);
    expect(fired).toEqual([5, 10, 15]);
    expect(handle.pending).toBe(false);
    expect(s.pendingCount).toBe(0);
  });

  it('rejects a non-positive or fractional interval', () => {
    const s = new Scheduler({ startTime: T0 });
    expect(() => s.scheduleEvery(T0, 0, () => {})).toThrow(/interval must be positive/);
    expect(() => s.scheduleEvery(T0, -5, () => {})).toThrow(RangeError);
    expect(() => s.scheduleEvery(T0, 1.5, () => {})).toThrow(RangeError);
  });
});

describe('Scheduler nextTime and runNext', () => {
  it('reports the next due time and undefined when empty', () => {
    const s = new Scheduler({ startTime: T0 });
    expect(s.nextTime()).toBeUndefined();
    s.schedule(T0 + 9, () => {});
    s.schedule(T0 + 4, () => {});
    expect(s.nextTime()).toBe(T0 + 4);
  });

  it('fires exactly one timer per runNext, moving now to its time', () => {
    const { s, log, note } = logging();
    s.schedule(T0 + 3, note('b'));
    s.schedule(T0 + 1, note('a'));
    s.schedule(T0 + 3, note('c'));
    const first = s.runNext();
    expect(first?.time).toBe(T0 + 1);
    expect(s.now).toBe(T0 + 1);
    expect(log).toEqual(['a@1']);
    expect(s.runNext()?.time).toBe(T0 + 3);
    expect(log).toEqual(['a@1', 'b@3']);
    expect(s.runNext()?.time).toBe(T0 + 3);
    expect(s.runNext()).toBeUndefined();
    expect(s.now).toBe(T0 + 3);
    expect(log).toEqual(['a@1', 'b@3', 'c@3']);
  });

  it('drives an event loop up to a horizon without overshooting it', () => {
    const { s, log, note } = logging();
    s.scheduleEvery(T0 + 10, 10, note('p'));
    s.schedule(T0 + 25, note('x'));
    const horizon = T0 + 35;
    for (let t = s.nextTime(); t !== undefined && t <= horizon; t = s.nextTime()) s.runNext();
    expect(log).toEqual(['p@10', 'p@20', 'x@25', 'p@30']);
    expect(s.now).toBe(T0 + 30);
  });
});

describe('Scheduler payload timers', () => {
  type Payload = { readonly kind: 'deliver'; readonly orderId: number };

  it('hands payloads to the dispatcher in (time, seq) order with now at their time', () => {
    const received: string[] = [];
    const s: Scheduler<Payload> = new Scheduler<Payload>({
      startTime: T0,
      dispatch: (payload, time) => {
        expect(s.now).toBe(time);
        received.push(`${payload.orderId}@${time - T0}`);
      },
    });
    s.schedule(T0 + 2, { kind: 'deliver', orderId: 2 });
    s.schedule(T0 + 1, { kind: 'deliver', orderId: 1 });
    s.schedule(T0 + 2, { kind: 'deliver', orderId: 3 });
    s.schedule(T0 + 2, () => received.push('callback@2'));
    s.advanceTo(T0 + 2);
    expect(received).toEqual(['1@1', '2@2', '3@2', 'callback@2']);
  });

  it('reports the payload from runNext', () => {
    const s = new Scheduler<Payload>({ startTime: T0, dispatch: () => {} });
    s.schedule(T0 + 1, { kind: 'deliver', orderId: 7 });
    s.schedule(T0 + 2, () => {});
    expect(s.runNext()?.payload).toEqual({ kind: 'deliver', orderId: 7 });
    expect(s.runNext()?.payload).toBeUndefined();
  });

  it('refuses a payload timer when no dispatcher was given', () => {
    const s = new Scheduler<Payload>({ startTime: T0 });
    expect(() => s.schedule(T0 + 1, { kind: 'deliver', orderId: 1 })).toThrow(/dispatch/);
    expect(s.pendingCount).toBe(0);
  });
});
