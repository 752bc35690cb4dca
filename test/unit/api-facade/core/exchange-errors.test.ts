import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiError, EXCHANGE_ERRORS, MATCHING_ENGINE_MESSAGES, withDetails, type ErrorKey } from '../../../../src/api-facade/core/exchange-errors.ts';

const SRC = join(import.meta.dirname, '../../../../src');
const TABLE = 'api-facade/core/exchange-errors.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * A parametrised message with each parameter shown as its position (`{0}`, `{1}`, ...). A
 * one-element array prints as its element and also joins (list parameters).
 */
function template(msg: string | ((...args: never[]) => string)): string {
  if (typeof msg === 'string') return msg;
  const placeholders = Array.from({ length: msg.length }, (_, i) => [`{${i}}`]);
  return (msg as (...a: unknown[]) => string)(...placeholders);
}

describe('the error table', () => {
  it('defines each code/message pair once', () => {
    const seen = new Map<string, string>();
    for (const [key, def] of Object.entries(EXCHANGE_ERRORS)) {
      // The three matching-engine codes share one message list (checked below).
      if (key === 'NEW_ORDER_REJECTED' || key === 'CANCEL_REJECTED' || key === 'ORDER_AMEND_REJECTED') continue;
      const pair = `${def.code} ${template(def.msg)}`;
      expect(seen.get(pair), `${key} repeats ${seen.get(pair)}: ${pair}`).toBeUndefined();
      seen.set(pair, key);
    }
    const texts = Object.values(MATCHING_ENGINE_MESSAGES);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('keeps codes negative integers and statuses HTTP error statuses', () => {
    for (const def of Object.values(EXCHANGE_ERRORS)) {
      expect(Number.isInteger(def.code) && def.code < 0).toBe(true);
      expect(def.status >= 400 && def.status < 600).toBe(true);
    }
  });

  it('builds wire errors byte for byte (fixed and parametrised rows)', () => {
    expect(apiError('INVALID_SYMBOL').toBody()).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    expect(apiError('REJECTED_API_KEY').status).toBe(401);
    expect(apiError('TIME_SPAN_TOO_LONG', 24).msg).toBe('More than 24 hours between startTime and endTime.');
    expect(apiError('UNKNOWN_ENDPOINT', 'GET', '/x')).toMatchObject({ status: 404, code: -1000, msg: 'Unknown endpoint: GET /x' });
    expect(apiError('CANCEL_REJECTED', 'UNKNOWN_ORDER')).toMatchObject({ status: 400, code: -2011, msg: 'Unknown order sent.' });
    expect(apiError('NEW_ORDER_REJECTED', 'INSUFFICIENT_BALANCE')).toMatchObject({ code: -2010, msg: 'Account has insufficient balance for requested action.' });
    expect(apiError('SEND_TOGETHER', ['a', 'b']).msg).toBe('Fields [a, b] must be sent together or omitted entirely.');
    const detailed = withDetails(apiError('CANCEL_REPLACE_FAILED'), { status: 429, data: { x: 1 } });
    expect(detailed).toMatchObject({ status: 429, code: -2022, msg: 'Order cancel-replace failed.' });
    expect(detailed.toBody()).toEqual({ code: -2022, msg: 'Order cancel-replace failed.', data: { x: 1 } });
  });

  it('gives a fresh error on each call', () => {
    const key: ErrorKey = 'INVALID_SYMBOL';
    expect(apiError(key)).not.toBe(apiError(key));
  });
});

describe('no error outside the table', () => {
  // Files of work in flight that still write a {code, msg} literal, each naming the row of the
  // table it is to be switched to (none today).
  const PENDING: Record<string, string> = {
    // The fapi codes of the engine's FUTURES_* reasons (issue 28), for the /fapi rows to move into the table.
    'futures/trading/futures-reject-codes.ts': 'fapi rows of exchange-errors.ts',
  };

  it('has no `new ApiError(` and no literal error code anywhere else in src', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const rel = relative(SRC, file).split('\\').join('/');
      if (rel === TABLE || rel === 'api-facade/core/api-error.ts') continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const literalCode = /\bcode:\s*-\d/.test(line) && PENDING[rel] === undefined;
        if (/new ApiError\(/.test(line) || literalCode) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
