/**
 * ctx.symbol's rules: the sample market's BTCUSDT (tick 0.01, step 0.00001, NOTIONAL 5) and the
 * rounding onto its grids, in decimal arithmetic.
 */
import { expect, test } from 'vitest';
import { SymbolRules } from '../../../src/backtest/symbol-rules.ts';
import { Engine } from '../../../src/engine/index.ts';
import { SAMPLE_CONFIG } from '../../../src/sample/index.ts';

const rules = new SymbolRules(new Engine(SAMPLE_CONFIG).symbolSpec('BTCUSDT')!);

test('the limits as short decimal strings', () => {
  expect(rules).toMatchObject({ symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.00001', minPrice: '0.01', maxPrice: '1000000', minQty: '0.00001', maxQty: '9000', minNotional: '5' });
});

test('prices onto the tick grid: nearest (half to even), up or down', () => {
  expect(rules.roundPrice('42000.125')).toBe('42000.12');
  expect(rules.roundPrice('42000.135')).toBe('42000.14');
  expect(rules.roundPrice(42000.1234, 'up')).toBe('42000.13');
  expect(rules.roundPrice(42000.1299, 'down')).toBe('42000.12');
});

test('quantities onto the step grid, down by default; no binary leftovers', () => {
  expect(rules.roundQty(0.1 + 0.2)).toBe('0.30000');
  expect(rules.roundQty('0.123456')).toBe('0.12345');
  expect(rules.roundQty('0.123451', 'up')).toBe('0.12346');
});

test('notional, and whether it reaches the minimum', () => {
  expect(rules.notional('42000.5', '0.002')).toBe('84.001');
  expect(rules.meetsMinNotional('42000', '0.0001')).toBe(false); // 4.2 < 5
  expect(rules.meetsMinNotional('42000', '0.00012')).toBe(true); // 5.04
});
