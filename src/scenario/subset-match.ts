/**
 * "Does the response contain this?": an expected JSON value matches an actual one when
 * primitives are equal, every key of an expected object matches the actual's (extra keys are
 * fine), and an expected array has the actual's length with each item matching. Returns null on
 * a match, else where and how they differ (`.fills[0].price: expected "1.0", got "2.0"`).
 */
export function subsetMismatch(expected: unknown, actual: unknown, path = ''): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || 'json'}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) return `${path || 'json'}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (m !== null) return m;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path || 'json'}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const m = subsetMismatch(value, (actual as Record<string, unknown>)[key], `${path}.${key}`);
      if (m !== null) return m;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : `${path || 'json'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** The value at a dotted path (`fills.0.price`), or undefined. */
export function valueAt(json: unknown, path: string): unknown {
  let value = json;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
