import { describe, expect, it } from 'vitest';
import { bookProfileFor, bookText, DEFAULT_BOOK, parseBook } from '../../../src/backtest/parse-book.ts';
import { InputError } from '../../../src/backtest/input-error.ts';
import type { SymbolSpec } from '../../../src/engine/index.ts';

describe('--book', () => {
  it('fills what is not given from the default profile and writes it back in full', () => {
    expect(bookText(parseBook(DEFAULT_BOOK)!)).toBe('model=flow,levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25,rate=40');
    const thin = parseBook('levels=3, spread=2, size=50, rate=5')!;
    expect(thin).toEqual({ model: 'flow', levels: 3, spreadTicks: [2, 2], gapTicks: 1, size: 50, growth: 1.5, jitter: 0.25, rate: 5 });
    expect(bookText(thin)).toBe('model=flow,levels=3,spread=2,gap=1,size=50,growth=1.5,jitter=0.25,rate=5');
    // The static ladder of earlier versions, drawn anew at each print: no rate.
    expect(bookText(parseBook('model=ladder')!)).toBe('model=ladder,levels=10,spread=1-3,gap=1,size=1000,growth=1.5,jitter=0.25');
    expect(parseBook('off')).toBeNull();
  });

  it('refuses what it cannot use with one line naming the key', () => {
    for (const [text, message] of [
      ['levels=0', 'levels must be an integer >= 1'],
      ['spread=3-1', 'spread must be ticks'],
      ['spread=a', 'spread must be ticks'],
      ['jitter=1', 'jitter must be in [0, 1)'],
      ['size=-2', 'size must be a number > 0'],
      ['depth=5', '"depth=5" is not one of model=..., levels=..., spread=...'],
      ['model=queue', 'model must be flow or ladder, got "queue"'],
      ['rate=-1', 'rate must be events per second in [0, 100000], got "-1"'],
      ['levels', '"levels" is not one of'],
    ] as const) {
      expect(() => parseBook(text)).toThrow(InputError);
      expect(() => parseBook(text)).toThrow(message);
    }
  });

  it('sizes the best level in multiples of the symbol’s minimum quantity (LOT_SIZE minQty, else its step)', () => {
    const withLot = { stepUnits: 1_000, lotSize: { min: 10_000, max: 1e12, step: 1_000 } } as unknown as SymbolSpec;
    const stepOnly = { stepUnits: 1_000, lotSize: null } as unknown as SymbolSpec;
    expect(bookProfileFor(parseBook('size=1000')!, withLot).baseQty).toBe(10_000_000);
    expect(bookProfileFor(parseBook('size=1000')!, stepOnly).baseQty).toBe(1_000_000);
    expect(bookProfileFor(parseBook('size=1000')!, stepOnly).flow).toEqual({ rate: 40 });
    expect(bookProfileFor(parseBook('model=ladder')!, stepOnly).flow).toBeUndefined();
  });
});
