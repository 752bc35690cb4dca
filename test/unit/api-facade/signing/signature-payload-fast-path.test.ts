/**
 * signaturePayload cuts a single `signature` parameter out by position; whatever the text, the
 * payload, the signature and the -1101 must be those of splitting on `&` and joining the other
 * segments (the rule signature-payload.ts states).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api-facade/core/api-error.ts';
import { signaturePayload } from '../../../../src/api-facade/signing/signature-payload.ts';

type Outcome = { payload: string; signature: string | undefined } | string;

/** The rule by splitting: every segment named `signature` leaves; a second one is -1101. */
function splitRule(raw: string): { rest: string; signature: string | undefined } | 'duplicate' {
  const kept: string[] = [];
  let signature: string | undefined;
  for (const segment of raw.split('&')) {
    const eq = segment.indexOf('=');
    const name = eq < 0 ? segment : segment.slice(0, eq);
    if (name !== 'signature') {
      kept.push(segment);
      continue;
    }
    if (signature !== undefined) return 'duplicate';
    signature = eq < 0 ? '' : segment.slice(eq + 1);
  }
  return { rest: signature === undefined ? raw : kept.join('&'), signature };
}

function reference(query: string, body: string): Outcome {
  const q = splitRule(query);
  if (q === 'duplicate') return 'duplicate';
  const b = splitRule(body);
  if (b === 'duplicate') return 'duplicate';
  return { payload: q.rest + b.rest, signature: q.signature ?? b.signature };
}

function actual(query: string, body: string): Outcome {
  try {
    const { payload, signature } = signaturePayload(query, body);
    return { payload, signature };
  } catch (e) {
    if (e instanceof ApiError && e.code === -1101) return 'duplicate';
    throw e;
  }
}

const piece = fc.constantFrom('signature', 'signature=', 'signature=ab12', 'signatures=1', 'xsignature=2', '=signature', '&', '&&', '=', 'a=1', 'b', 'Signature=3');
const part = fc.array(piece, { maxLength: 8 }).map((xs) => xs.join(''));

describe('signaturePayload cuts the signature out exactly as splitting on & does', () => {
  it('for any query and body built from signature-like pieces', () => {
    fc.assert(
      fc.property(part, part, (query, body) => {
        expect(actual(query, body)).toEqual(reference(query, body));
      }),
      { numRuns: 5000 },
    );
  });
});
