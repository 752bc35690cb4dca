/**
 * The bundled snapshot of Binance's spot symbol rules: a live exchangeInfo answer trimmed to what
 * the engine reads, the bundled file's contents, and a folder's symbols taking their rules from it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseSymbols, openMarketData } from '../../../src/data/market-folder.ts';
import { readSpotRules, spotSymbolRules, trimExchangeInfo, writeSpotRules } from '../../../src/data/spot-symbol-rules.ts';
import { Engine } from '../../../src/engine/index.ts';
import { tempDir, writeDump } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** An exchangeInfo answer as Binance writes it (2025 shape, one symbol, some fields exsim does not read). */
const ANSWER = {
  timezone: 'UTC',
  serverTime: 1_750_476_472_810,
  rateLimits: [],
  exchangeFilters: [],
  symbols: [
    {
      symbol: 'SOLUSDT',
      status: 'TRADING',
      baseAsset: 'SOL',
      baseAssetPrecision: 8,
      quoteAsset: 'USDT',
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      baseCommissionPrecision: 8,
      quoteCommissionPrecision: 8,
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
      icebergAllowed: true,
      ocoAllowed: true,
      otoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      amendAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: true,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '10000.00000000', tickSize: '0.01000000' },
        { filterType: 'LOT_SIZE', minQty: '0.00100000', maxQty: '9000000.00000000', stepSize: '0.00100000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
        { filterType: 'SOME_FUTURE_FILTER', whatever: '1' },
      ],
      permissions: [],
      permissionSets: [['SPOT', 'MARGIN', 'TRD_GRP_004']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT'],
    },
  ],
};

describe('a live answer trimmed', () => {
  it('keeps what the engine reads, drops the filters it does not model, dates it by serverTime', () => {
    const snapshot = trimExchangeInfo(ANSWER, 'GET test');
    expect(snapshot).toMatchObject({ source: 'GET test', serverTime: 1_750_476_472_810, date: '2025-06-21', assets: [{ asset: 'SOL', precision: 8 }, { asset: 'USDT', precision: 8 }] });
    expect(snapshot.symbols[0]).toEqual({
      symbol: 'SOLUSDT',
      status: 'TRADING',
      baseAsset: 'SOL',
      quoteAsset: 'USDT',
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
      icebergAllowed: true,
      ocoAllowed: true,
      otoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      amendAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: true,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '10000.00000000', tickSize: '0.01000000' },
        { filterType: 'LOT_SIZE', minQty: '0.00100000', maxQty: '9000000.00000000', stepSize: '0.00100000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
      ],
      permissionSets: [['SPOT', 'MARGIN', 'TRD_GRP_004']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT'],
    });
    // The engine takes it as it is.
    expect(new Engine({ assets: [...snapshot.assets], symbols: [...snapshot.symbols] }).symbolSpec('SOLUSDT')!.tickUnits).toBe(1_000_000);
  });

  it('is written gzipped and read back the same; a file that is not one is one clear line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exsim-rules-'));
    dirs.push(dir);
    const snapshot = trimExchangeInfo(ANSWER, 'GET test');
    writeSpotRules(snapshot, join(dir, 'rules.json.gz'));
    expect(readSpotRules(join(dir, 'rules.json.gz'))).toEqual(snapshot);
    expect(() => readSpotRules(join(dir, 'missing.json.gz'))).toThrow(`${join(dir, 'missing.json.gz')}: not a symbol rules snapshot`);
    expect(() => trimExchangeInfo({ code: -1121 }, 'GET x')).toThrow('GET x: not an exchangeInfo answer (no serverTime and symbols)');
  });
});

describe('the bundled snapshot', () => {
  it('is dated, says where it comes from, and every symbol in it compiles', () => {
    const snapshot = readSpotRules();
    expect(snapshot.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(snapshot.source.length).toBeGreaterThan(0);
    expect(snapshot.symbols.length).toBeGreaterThanOrEqual(8);
    const engine = new Engine({ assets: [...snapshot.assets], symbols: snapshot.symbols.map(({ status: _s, ...rules }) => rules) });
    expect(engine.symbolNames()).toContain('ADAUSDT');
    expect(spotSymbolRules('ADAUSDT')!.symbol.filters![0]).toEqual({ filterType: 'PRICE_FILTER', minPrice: '0.00010000', maxPrice: '1000.00000000', tickSize: '0.00010000' });
    expect(spotSymbolRules('NOSUCHUSDT')).toBeUndefined();
  });

  it("a folder of a listed symbol takes its rules from it, and backtests it by default", async () => {
    const dir = await tempDir();
    await writeDump(dir, 'ADAUSDT-trades-2024-01-01.csv', '1,0.5000,10.0,5.0,1704067200000,true,true\n');
    const data = openMarketData(dir);
    expect(data.config.symbols.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHBTC', 'ADAUSDT']);
    expect(chooseSymbols(data, undefined)).toEqual(['ADAUSDT']);
    expect(data.ruleSources).toEqual({ BTCUSDT: 'sample market', ETHBTC: 'sample market', ADAUSDT: `Binance snapshot of ${readSpotRules().date}` });
    expect(new Engine(data.config).symbolSpec('ADAUSDT')!.stepUnits).toBe(10_000_000); // LOT_SIZE 0.1
  });
});
