/**
 * collectRawParams reads plain ASCII text (no `%`, no `+`) without URLSearchParams; whatever the
 * text, the result (values, or the -1101 duplicate) must be exactly URLSearchParams's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api-facade/core/api-error.ts';
import { collectRawParams } from '../../../../src/api-facade/params/raw-params.ts';

/** The rule as URLSearchParams states it: the first repeated decoded name is -1101. */
function reference(text: string): Record<string, string> | string {
  const seen = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (seen.has(name)) return `duplicate ${name}`;
    seen.set(name, value);
  }
  return Object.fromEntries(seen);
}

function actual(text: string): Record<string, string> | string {
  try {
    return Object.fromEntries(collectRawParams('', text).values);
  } catch (e) {
    if (e instanceof ApiError && e.code === -1101) return `duplicate ${/'(.*)'/s.exec(e.message)?.[1] ?? '?'}`;
    throw e;
  }
}

const piece = fc.constantFrom('a', 'b', 'side', '=', '&', '?', '%', '%4', '%41', '+', ' ', 'é', '\uD800', '\t', '==', '&&', 'x1');
const text = fc.array(piece, { maxLength: 14 }).map((xs) => xs.join(''));

describe('collectRawParams decodes exactly as URLSearchParams', () => {
  it('for any text built from separators, escapes and plain characters', () => {
    fc.assert(fc.property(text, (t) => {
        expect(actual(t)).toEqual(reference(t));
      }), { numRuns: 3000 });
  });

  it('for the signed order body of the bench', () => {
    const body = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.00100&price=50000.00&timestamp=1767225600001&signature=ab';
    expect(actual(body)).toEqual(reference(body));
    expect(actual(`?${body}`)).toEqual(reference(`?${body}`));
  });
});
