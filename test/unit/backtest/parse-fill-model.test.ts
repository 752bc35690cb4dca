import { describe, expect, it } from 'vitest';
import { fillModelText, makeFillModel, parseFillModel } from '../../../src/backtest/parse-fill-model.ts';

describe('--fill-model', () => {
  it('reads the four models and the probabilistic shapes, and writes them back in full', () => {
    expect(parseFillModel('queue')).toEqual({ base: 'queue', shape: null });
    expect(fillModelText(parseFillModel('queue-probabilistic'))).toBe('queue-probabilistic:power3:3');
    expect(parseFillModel('queue-probabilistic:power:2')).toEqual({ base: 'queue-probabilistic', shape: { family: 'power', n: 2 } });
    expect(fillModelText(parseFillModel('queue-probabilistic:power2:0.5'))).toBe('queue-probabilistic:power2:0.5');
    expect(fillModelText(parseFillModel('queue-probabilistic:log2'))).toBe('queue-probabilistic:log2');
    expect(makeFillModel('queue-probabilistic:log').name).toBe('queue-probabilistic');
    expect(makeFillModel('touch').name).toBe('touch');
  });

  it('refuses what it cannot use with one line', () => {
    expect(() => parseFillModel('queue-prob')).toThrow('--fill-model must be one of queue, queue-probabilistic, trade-through, touch (queue-probabilistic may name a shape: power:N, power2:N, power3:N, log, log2), got "queue-prob"');
    expect(() => parseFillModel('touch:power:2')).toThrow('--fill-model: only queue-probabilistic takes a shape, got "touch:power:2"');
    expect(() => parseFillModel('queue-probabilistic:cubic')).toThrow('--fill-model: the shape must be power:N, power2:N, power3:N, log or log2, got "cubic"');
    expect(() => parseFillModel('queue-probabilistic:log:2')).toThrow('--fill-model: log takes no exponent, got "log:2"');
    expect(() => parseFillModel('queue-probabilistic:power3:0')).toThrow('--fill-model: power3 needs an exponent in (0, 100], got "0"');
  });
});
