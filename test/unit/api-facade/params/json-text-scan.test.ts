/**
 * The JSON text scan (params/json-text-scan.ts): nesting depth found without recursion, at
 * serde_json's limit (127 levels read, the bracket opening the 128th refused), strings skipped
 * exactly; a top-level member's exact text; request ids read exactly in the signed 64-bit range.
 */
import { describe, expect, test } from 'vitest';
import { exactRequestId, linePosition, nestingBeyond, topLevelMemberText } from '../../../../src/api-facade/params/json-text-scan.ts';

const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const anyString = (): boolean => true;

describe('nestingBeyond', () => {
  test('127 levels pass; the bracket opening the 128th is the one refused', () => {
    expect(nestingBeyond(nested(127))).toBe(-1);
    expect(nestingBeyond(nested(128))).toBe(127);
    expect(nestingBeyond(`{"a":${nested(5000)}}`)).toBe(5 + 126);
  });

  test('brackets inside strings, escaped quotes included, are not nesting', () => {
    const text = `{"s":"${'['.repeat(300)}\\"${'{'.repeat(300)}","t":[1]}`;
    expect(nestingBeyond(text)).toBe(-1);
    expect(nestingBeyond(`["\\\\",${nested(127)}]`)).toBe(6 + 126);
  });

  test('a bound of its own; unbalanced text is scanned the same', () => {
    expect(nestingBeyond('[[[', 3)).toBe(2);
    expect(nestingBeyond(']]][[', 3)).toBe(-1);
  });

  test('positions as serde_json reports them: 1-based line, the character’s own column', () => {
    expect(linePosition('[\n  [[', 5)).toEqual({ line: 2, column: 4 });
    expect(linePosition(nested(128), 127)).toEqual({ line: 1, column: 128 });
  });
});

describe('topLevelMemberText', () => {
  test('the member’s text as sent, whatever its kind; nested members of the same name are not it', () => {
    const text = '{"params":{"id":1},"id" : 9007199254740993 ,"list":[{"id":2}]}';
    expect(topLevelMemberText(text, 'id')).toBe('9007199254740993');
    expect(topLevelMemberText(text, 'params')).toBe('{"id":1}');
    expect(topLevelMemberText(text, 'list')).toBe('[{"id":2}]');
    expect(topLevelMemberText('{"a":"x,}\\"y","id":-3}', 'id')).toBe('-3');
  });

  test('the last of repeated names (as JSON.parse), escaped names, absent names, a top level that is not an object', () => {
    expect(topLevelMemberText('{"id":1,"id":2}', 'id')).toBe('2');
    expect(topLevelMemberText('{"\\u0069d":7}', 'id')).toBe('7');
    expect(topLevelMemberText('{"idx":7}', 'id')).toBeUndefined();
    expect(topLevelMemberText('[{"id":7}]', 'id')).toBeUndefined();
    expect(topLevelMemberText(`{"x":${nested(10_000)},"id":12}`, 'id')).toBe('12');
  });
});

describe('exactRequestId', () => {
  const id = (text: string, accept: (s: string) => boolean = anyString) => exactRequestId((JSON.parse(text) as { id?: unknown }).id, text, accept);

  test('integers of the signed 64-bit range as sent, beyond 2^53 too', () => {
    expect(id('{"id":9007199254740993}')).toBe('9007199254740993');
    expect(id('{"id":9223372036854775807}')).toBe('9223372036854775807');
    expect(id('{"id":-9223372036854775808}')).toBe('-9223372036854775808');
    expect(id('{"id":-1}')).toBe('-1');
    expect(id('{"id":-0}')).toBe('0');
  });

  test('out of range, fractions and exponents are no ids; strings by the caller’s rule; null', () => {
    expect(id('{"id":9223372036854775808}')).toBeUndefined();
    expect(id('{"id":-9223372036854775809}')).toBeUndefined();
    expect(id('{"id":1.5}')).toBeUndefined();
    expect(id('{"id":1.0}')).toBeUndefined();
    expect(id('{"id":1e3}')).toBeUndefined();
    expect(id('{"id":"a-b"}')).toBe('"a-b"');
    expect(id('{"id":"a-b"}', (s) => /^[A-Za-z0-9]+$/.test(s))).toBeUndefined();
    expect(id('{"id":null}')).toBe('null');
    expect(id('{"id":true}')).toBeUndefined();
    expect(id('{}')).toBeUndefined();
  });
});
