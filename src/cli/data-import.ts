/**
 * `exsim data import SRC... --out DIR`: brings local Binance public-data dumps (files or folders,
 * e.g. a download of data.binance.vision's `spot/daily/trades/BTCUSDT/`) into the layout exsim
 * reads: `DIR/<SYMBOL>/<dump file>`, plus `DIR/exsim-market.json`, the exchange rules the
 * backtest and `serve --data` use for those symbols.
 *
 * Every file is checked before it is copied: its name must follow the dump scheme, a
 * `<file>.CHECKSUM` beside it (as Binance publishes them) must match its SHA-256, and it is read
 * through the loader in full (zip CRC, every row parsed exactly), so a truncated or garbled dump
 * is refused with file, line and column rather than failing a backtest later.
 *
 * Rules for symbols the sample market does not know are inferred from the trades: the tick is
 * the coarsest power of ten that divides every price, the step likewise for quantities, the
 * quote asset the longest known quote suffix of the name (USDT, FDUSD, USDC, BTC, ...).
 * They are a starting point: edit exsim-market.json to match the real exchangeInfo.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError, MARKET_CONFIG_FILE } from '../backtest/index.ts';
import { listDataFiles, parseDumpFileName, readAggTrades, readKlines, readTrades, type DumpFileName } from '../data/index.ts';
import { type EngineConfig, type SymbolConfig, formatUnits } from '../engine/index.ts';
import { SAMPLE_CONFIG } from '../sample/index.ts';

const QUOTES = ['FDUSD', 'USDT', 'USDC', 'TUSD', 'BUSD', 'EUR', 'TRY', 'BTC', 'ETH', 'BNB'];
const SCALE = { quotePrecision: 8, basePrecision: 8 };

export interface ImportReport {
  readonly files: readonly string[];
  readonly symbols: readonly string[];
  readonly inferred: readonly string[];
}

/** Largest k <= 8 with 10^k dividing n (n > 0), as the grid a value sits on. */
function gridPower(n: number): number {
  let k = 0;
  while (k < 8 && n % 10 ** (k + 1) === 0) k++;
  return k;
}

async function checkFile(path: string, name: DumpFileName): Promise<{ priceGrid: number; qtyGrid: number }> {
  const checksum = `${path}.CHECKSUM`;
  if (existsSync(checksum)) {
    const expected = readFileSync(checksum, 'utf8').trim().split(/\s+/)[0];
    const actual = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (expected !== actual) throw new InputError(`${path}: SHA-256 ${actual} does not match ${basename(checksum)} (${expected})`);
  }
  let priceGrid = 8;
  let qtyGrid = 8;
  try {
    if (name.kind === 'trades') {
      for await (const batch of readTrades(path, { scale: SCALE })) {
        for (let i = 0; i < batch.length; i++) {
          if (priceGrid > 0) priceGrid = Math.min(priceGrid, gridPower(batch.price[i]!));
          if (qtyGrid > 0) qtyGrid = Math.min(qtyGrid, gridPower(batch.qty[i]!));
        }
      }
    } else if (name.kind === 'aggTrades') {
      for await (const _ of readAggTrades(path, { scale: SCALE })) void _;
    } else {
      for await (const _ of readKlines(path, { scale: SCALE })) void _;
    }
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  return { priceGrid, qtyGrid };
}

function inferSymbol(symbol: string, priceGrid: number, qtyGrid: number): SymbolConfig {
  const quote = QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  if (quote === undefined) throw new InputError(`cannot tell the quote asset of ${symbol}: add it to ${MARKET_CONFIG_FILE} by hand`);
  const tick = formatUnits(10 ** priceGrid, 8);
  const step = formatUnits(10 ** qtyGrid, 8);
  return {
    symbol,
    baseAsset: symbol.slice(0, -quote.length),
    quoteAsset: quote,
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: tick, maxPrice: '10000000.00000000', tickSize: tick },
      { filterType: 'LOT_SIZE', minQty: step, maxQty: '90000000.00000000', stepSize: step },
    ],
  };
}

export async function importCommand(sources: readonly string[], out: string): Promise<ImportReport> {
  const found: { path: string; name: DumpFileName }[] = [];
  for (const source of sources) {
    const info = existsSync(source) ? statSync(source) : null;
    if (info === null) throw new InputError(`no such file or folder: ${source}`);
    const paths = info.isDirectory() ? await listDataFiles(source) : [source];
    for (const path of paths) {
      const name = parseDumpFileName(basename(path));
      if (name === null) {
        if (!info.isDirectory()) throw new InputError(`${path}: not a Binance dump file name (SYMBOL-trades-YYYY-MM-DD.zip, SYMBOL-1m-YYYY-MM.zip, ...)`);
        continue;
      }
      found.push({ path, name });
    }
  }
  if (found.length === 0) throw new InputError(`no Binance dump files in ${sources.join(', ')}`);
  const grids = new Map<string, { priceGrid: number; qtyGrid: number }>();
  for (const { path, name } of found) {
    const grid = await checkFile(path, name);
    if (name.kind === 'trades') {
      const before = grids.get(name.symbol);
      grids.set(name.symbol, before === undefined ? grid : { priceGrid: Math.min(before.priceGrid, grid.priceGrid), qtyGrid: Math.min(before.qtyGrid, grid.qtyGrid) });
    }
  }
  const files: string[] = [];
  for (const { path, name } of found) {
    const folder = join(out, name.symbol);
    mkdirSync(folder, { recursive: true });
    const target = join(folder, basename(path));
    copyFileSync(path, target);
    files.push(target);
  }
  const configPath = join(out, MARKET_CONFIG_FILE);
  const config: EngineConfig = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, 'utf8')) as EngineConfig) : { assets: [], symbols: [] };
  const symbols = [...new Set(found.map((f) => f.name.symbol))].sort();
  const inferred: string[] = [];
  const symbolConfigs = [...config.symbols];
  const assets = [...(config.assets ?? [])];
  for (const symbol of symbols) {
    if (symbolConfigs.some((s) => s.symbol === symbol)) continue;
    let rules = SAMPLE_CONFIG.symbols.find((s) => s.symbol === symbol);
    if (rules === undefined) {
      const grid = grids.get(symbol);
      if (grid === undefined) throw new InputError(`no trades files for ${symbol}: its tick and step cannot be inferred`);
      rules = inferSymbol(symbol, grid.priceGrid, grid.qtyGrid);
      inferred.push(symbol);
    }
    symbolConfigs.push(rules);
    for (const asset of [rules.baseAsset, rules.quoteAsset]) if (!assets.some((a) => a.asset === asset)) assets.push({ asset, precision: 8 });
  }
  writeFileSync(configPath, `${JSON.stringify({ ...config, assets, symbols: symbolConfigs }, null, 2)}\n`);
  return { files, symbols, inferred };
}
