/**
 * Model-based property test: random sequences of schedule / schedule-every / cancel / advance /
 * runNext, some timers scheduling or cancelling others when they fire, run against the real
 * Scheduler and against a naive model that keeps pending timers in an array and picks the
 * minimum (time, insertion number) by a full sort each time. After every step the two must agree
 * on what fired (which timer, at what time, in what order), on now, nextTime, the pending count,
 * each handle's `pending`, and every cancel's result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler, type TimerHandle } from '../../../src/clock/scheduler.ts';
import { propertyParameters } from '../../property/property-parameters.ts';

const T0 = 1_700_000_000_000_000;

/** What a timer does when it fires, besides being logged. */
type OnFire =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'schedule'; readonly delay: number }
  | { readonly kind: 'cancel'; readonly target: number };

type Op =
  | { readonly kind: 'schedule'; readonly delay: number; readonly onFire: OnFire }
  | { readonly kind: 'every'; readonly delay: number; readonly interval: number; readonly onFire: OnFire }
  | { readonly kind: 'cancel'; readonly target: number }
  | { readonly kind: 'advance'; readonly delta: number }
  | { readonly kind: 'runNext' };

const onFireArb: fc.Arbitrary<OnFire> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'nothing' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('schedule' as const), delay: fc.integer({ min: 0, max: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), target: fc.nat(40) }) },
);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('schedule' as const), delay: fc.integer({ min: 0, max: 20 }), onFire: onFireArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('every' as const),
      delay: fc.integer({ min: 0, max: 10 }),
      interval: fc.integer({ min: 1, max: 8 }),
      onFire: onFireArb,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), target: fc.nat(40) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), delta: fc.integer({ min: 0, max: 15 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'runNext' as const }) },
);

interface ModelTimer {
  readonly id: number;
  time: number;
  insertion: number;
  readonly interval: number;
  readonly onFire: OnFire;
  pending: boolean;
}

/** The reference: obviously correct, slow. Children created by callbacks never act themselves. */
class ModelScheduler {
  now = T0;
  readonly timers: ModelTimer[] = [];
  readonly log: string[] = [];
  #insertions = 0;

  add(time: number, interval: number, onFire: OnFire): void {
    this.timers.push({ id: this.timers.length, time, insertion: this.#insertions++, interval, onFire, pending: true });
  }

  cancel(target: number): boolean {
    const timer = this.timers[target % this.timers.length];
    if (timer === undefined || !timer.pending) return false;
    timer.pending = false;
    return true;
  }

  pendingSorted(): ModelTimer[] {
    return this.timers.filter((t) => t.pending).sort((a, b) => a.time - b.time || a.insertion - b.insertion);
  }

  nextTime(): number | undefined {
    return this.pendingSorted()[0]?.time;
  }

  fireNext(): void {
    const timer = this.pendingSorted()[0]!;
    const time = timer.time;
    this.now = time;
    if (timer.interval > 0) {
      timer.time += timer.interval;
      timer.insertion = this.#insertions++;
    } else {
      timer.pending = false;
    }
    this.log.push(`${timer.id}@${time - T0}`);
    const action = timer.onFire;
    if (action.kind === 'schedule') this.add(time + action.delay, 0, { kind: 'nothing' });
    else if (action.kind === 'cancel') this.log.push(`cancel ${action.target}: ${this.cancel(action.target)}`);
  }

  advanceTo(target: number): void {
    for (let next = this.nextTime(); next !== undefined && next <= target; next = this.nextTime()) this.fireNext();
    this.now = target;
  }
}

/** The real scheduler, with the same callbacks and the same id numbering as the model. */
class RealHarness {
  readonly s = new Scheduler({ startTime: T0 });
  readonly handles: TimerHandle[] = [];
  readonly log: string[] = [];

  add(time: number, interval: number, onFire: OnFire): void {
    const id = this.handles.length;
    const callback = (firedAt: number): void => {
      this.log.push(`${id}@${firedAt - T0}`);
      if (onFire.kind === 'schedule') this.add(firedAt + onFire.delay, 0, { kind: 'nothing' });
      else if (onFire.kind === 'cancel') this.log.push(`cancel ${onFire.target}: ${this.cancel(onFire.target)}`);
    };
    this.handles.push(interval > 0 ? this.s.scheduleEvery(time, interval, callback) : this.s.schedule(time, callback));
  }

  cancel(target: number): boolean {
    const handle = this.handles[target % this.handles.length];
    return handle === undefined ? false : this.s.cancel(handle);
  }
}

function runBoth(ops: readonly Op[]): void {
  const model = new ModelScheduler();
  const real = new RealHarness();
  for (const op of ops) {
    switch (op.kind) {
      case 'schedule':
        model.add(model.now + op.delay, 0, op.onFire);
        real.add(real.s.now + op.delay, 0, op.onFire);
        break;
      case 'every':
        model.add(model.now + op.delay, op.interval, op.onFire);
        real.add(real.s.now + op.delay, op.interval, op.onFire);
        break;
      case 'cancel':
        expect(real.cancel(op.target)).toBe(model.cancel(op.target));
        break;
      case 'advance':
        model.advanceTo(model.now + op.delta);
        real.s.advanceBy(op.delta);
        break;
      case 'runNext': {
        const expected = model.nextTime();
        if (expected !== undefined) model.fireNext();
        expect(real.s.runNext()?.time).toBe(expected);
        break;
      }
    }
    expect(real.log).toEqual(model.log);
    expect(real.s.now).toBe(model.now);
    expect(real.s.nextTime()).toBe(model.nextTime());
    expect(real.s.pendingCount).toBe(model.pendingSorted().length);
    expect(real.handles.map((h) => h.pending)).toEqual(model.timers.map((t) => t.pending));
  }
}

describe('Scheduler against a naive sorted-array model', () => {
  it('fires the same timers in the same order at the same times for any schedule/cancel/advance sequence', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => runBoth(ops)),
      propertyParameters({ numRuns: 300 }),
    );
  });

  it('gives the same log when the same sequence runs twice', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const first = new RealHarness();
        const second = new RealHarness();
        for (const harness of [first, second]) {
          for (const op of ops) {
            if (op.kind === 'schedule') harness.add(harness.s.now + op.delay, 0, op.onFire);
            else if (op.kind === 'every') harness.add(harness.s.now + op.delay, op.interval, op.onFire);
            else if (op.kind === 'cancel') harness.cancel(op.target);
            else if (op.kind === 'advance') harness.s.advanceBy(op.delta);
            else harness.s.runNext();
          }
        }
        expect(second.log).toEqual(first.log);
      }),
      propertyParameters({ numRuns: 100 }),
    );
  });
});
