/**
 * `exsim data import SRC... --out DIR`: brings local Binance public-data dumps (files or folders,
 * e.g. a download of data.binance.vision's `spot/daily/trades/BTCUSDT/`), Tardis.dev CSV files
 * (`binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz`, trades, book snapshots, book_ticker)
 * and exsim recordings (`exsim_recording_2024-01-01_BTCUSDT.gz`, `exsim record`'s files)
 * into the layout exsim reads: `DIR/<SYMBOL>/<file>`, plus `DIR/exsim-market.json`, the exchange
 * rules the backtest and `serve --data` use for those symbols. `--out` may be the folder itself:
 * files already in place stay, and the rules are written beside them.
 *
 * Every file is checked before it is copied: its name must follow one of the schemes, a
 * `<file>.CHECKSUM` beside it (as Binance publishes them) must match its SHA-256, and it is read
 * through its reader in full (zip or gzip CRC, every row parsed exactly, depth rows grouped into
 * messages), so a truncated or garbled file is refused with file, line and column rather than
 * failing a backtest later. A recording is read through every reader a replay uses (trades, the
 * L2 book by the local-book recipe, the L1 book): a malformed message refuses it; a torn end (a
 * copy of a file still being recorded) is read up to its last complete line, as a replay reads
 * it, and said in a warning, as are its gaps, which live recordings have.
 *
 * Rules for symbols neither the sample market nor the bundled Binance snapshot knows are inferred
 * from the recorded trades and book levels: the tick is the coarsest power of ten that divides every price, the step likewise
 * for quantities, the quote asset the longest known quote suffix of the name (USDT, FDUSD, USDC,
 * BTC, ...). They are a starting point: edit exsim-market.json to match the real exchangeInfo.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { InputError, MARKET_CONFIG_FILE } from '../backtest/index.ts';
import { buildTapeCache, COIN_M_NOT_READ, depthKindInfo, knownSymbolRules, listDataFiles, marketOfPath, openMarketData, parseDataFileName, parseDataFilePath, readAggTrades, readDepth, readKlines, readTrades, RECORDING_KIND, scanRecording, type DataFileName, type MarketFileName } from '../data/index.ts';
import { type AssetConfig, type EngineConfig, type SymbolConfig, formatUnits } from '../engine/index.ts';

const QUOTES = ['FDUSD', 'USDT', 'USDC', 'TUSD', 'BUSD', 'EUR', 'TRY', 'BTC', 'ETH', 'BNB'];
const SCALE = { quotePrecision: 8, basePrecision: 8 };

export interface ImportOptions {
  /** Lines about files imported as they are (a torn recording, a recording's gaps); default: stderr. */
  readonly onWarning?: (line: string) => void;
}

export interface ImportReport {
  readonly files: readonly string[];
  /** Files read into the columnar tape cache (src/data/tape-cache.ts), so the first backtest does not parse them. */
  readonly cached: readonly string[];
  readonly symbols: readonly string[];
  readonly inferred: readonly string[];
}

/** Largest k <= 8 with 10^k dividing n (n > 0), as the grid a value sits on. */
function gridPower(n: number): number {
  let k = 0;
  while (k < 8 && n % 10 ** (k + 1) === 0) k++;
  return k;
}

/** The coarsest grid (a power of ten, at most `grid`) `n` sits on: one remainder per value while it fits. */
function refineGrid(grid: number, n: number): number {
  return n % 10 ** grid === 0 ? grid : Math.min(grid, gridPower(n));
}

/** The grids every price and every size of the columns fit, narrowed from `grid`. */
function narrow(grid: { priceGrid: number; qtyGrid: number }, prices: Float64Array, qtys: Float64Array, length: number): void {
  for (let i = 0; i < length; i++) {
    grid.priceGrid = refineGrid(grid.priceGrid, prices[i]!);
    grid.qtyGrid = refineGrid(grid.qtyGrid, qtys[i]!);
  }
}

/** Reads the file through its reader in full; returns the grids its prices and sizes sit on (8: nothing learnt). */
async function checkFile(path: string, name: DataFileName, onWarning: (line: string) => void): Promise<{ priceGrid: number; qtyGrid: number }> {
  const checksum = `${path}.CHECKSUM`;
  if (existsSync(checksum)) {
    const expected = readFileSync(checksum, 'utf8').trim().split(/\s+/)[0];
    const actual = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (expected !== actual) throw new InputError(`${path}: SHA-256 ${actual} does not match ${basename(checksum)} (${expected})`);
  }
  const grid = { priceGrid: 8, qtyGrid: 8 };
  try {
    const depth = depthKindInfo(name.kind);
    if (name.kind === RECORDING_KIND) {
      const narrowOn = (batch: { price: Float64Array; qty: Float64Array; length: number }) => narrow(grid, batch.price, batch.qty, batch.length);
      const scan = await scanRecording([path], { scale: SCALE, onTrades: narrowOn, onDepth: narrowOn });
      if (scan.errors.length > 0) throw new InputError(scan.errors[0]!);
      for (const warning of scan.warnings) onWarning(`warning: ${warning}`);
      if (scan.gaps.length > 0) onWarning(`note: ${path}: ${scan.gaps.length} gaps, as live recordings have (exsim data inspect lists them)`);
    } else if (name.kind === 'trades' || name.kind === 'tardis:trades') {
      for await (const batch of readTrades(path, { scale: SCALE })) narrow(grid, batch.price, batch.qty, batch.length);
    } else if (depth !== undefined) {
      // Book levels sit on the same grids as trades (a removal's size, 0, fits any).
      for await (const batch of readDepth(path, { scale: SCALE, kind: depth.kind })) narrow(grid, batch.price, batch.qty, batch.length);
    } else if (name.kind === 'aggTrades') {
      for await (const _ of readAggTrades(path, { scale: SCALE })) void _;
    } else {
      for await (const _ of readKlines(path, { scale: SCALE })) void _;
    }
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
  return grid;
}

/** Whether the kind's prices and sizes say what grid the symbol trades on (klines and aggTrades are not read for it). */
const showsGrid = (name: DataFileName): boolean => name.kind === 'trades' || name.kind === 'tardis:trades' || depthKindInfo(name.kind) !== undefined;

function inferSymbol(symbol: string, priceGrid: number, qtyGrid: number): SymbolConfig {
  return gridSymbol(symbol, formatUnits(10 ** priceGrid, 8), formatUnits(10 ** qtyGrid, 8));
}

/** Rules of a symbol exsim does not know: its price and quantity grids only, the quote asset read off the name. */
export function gridSymbol(symbol: string, tick: string, step: string): SymbolConfig {
  const quote = QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  if (quote === undefined) throw new InputError(`cannot tell the quote asset of ${symbol}: add it to ${MARKET_CONFIG_FILE} by hand`);
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

export async function importCommand(sources: readonly string[], out: string, options: ImportOptions = {}): Promise<ImportReport> {
  const onWarning = options.onWarning ?? ((line: string) => process.stderr.write(`${line}\n`));
  const found: { path: string; name: MarketFileName }[] = [];
  for (const source of sources) {
    const info = existsSync(source) ? statSync(source) : null;
    if (info === null) throw new InputError(`no such file or folder: ${source}`);
    const paths = info.isDirectory() ? await listDataFiles(source) : [source];
    for (const path of paths) {
      const name = parseDataFilePath(path);
      if (name === null) {
        if (!info.isDirectory() && marketOfPath(path, parseDataFileName(basename(path))) === 'cm') throw new InputError(`${path}: ${COIN_M_NOT_READ}`);
        if (!info.isDirectory()) {
          throw new InputError(`${path}: not a Binance dump file name (SYMBOL-trades-YYYY-MM-DD.zip, SYMBOL-1m-YYYY-MM.zip, ...) nor a Tardis one (binance_incremental_book_L2_YYYY-MM-DD_SYMBOL.csv.gz, ...) nor a recording's (exsim_recording_YYYY-MM-DD_SYMBOL.gz)`);
        }
        continue;
      }
      found.push({ path, name });
    }
  }
  if (found.length === 0) throw new InputError(`no Binance dump, Tardis or recording files in ${sources.join(', ')}`);
  const grids = new Map<string, { priceGrid: number; qtyGrid: number }>();
  for (const { path, name } of found) {
    const grid = await checkFile(path, name, onWarning);
    // A futures dump's grid is the contract's (contract-rules.ts), not a spot symbol's to infer.
    if (showsGrid(name) && name.market === 'spot') {
      const before = grids.get(name.symbol);
      grids.set(name.symbol, before === undefined ? grid : { priceGrid: Math.min(before.priceGrid, grid.priceGrid), qtyGrid: Math.min(before.qtyGrid, grid.qtyGrid) });
    }
  }
  const files: string[] = [];
  const outRoot = resolve(out);
  for (const { path, name } of found) {
    // Importing a folder into itself (to infer its rules) leaves its files where they are.
    if (resolve(path).startsWith(outRoot + sep)) {
      files.push(path);
      continue;
    }
    // USDⓈ-M dumps keep a futures/um folder: it is what tells them from the spot files of the same name.
    const folder = name.market === 'um' ? join(out, 'futures', 'um', name.symbol) : join(out, name.symbol);
    mkdirSync(folder, { recursive: true });
    const target = join(folder, basename(path));
    copyFileSync(path, target);
    files.push(target);
  }
  const rules: { symbol: SymbolConfig; assets: readonly AssetConfig[] }[] = [];
  const inferred: string[] = [];
  const configPath = join(out, MARKET_CONFIG_FILE);
  const described = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, 'utf8')) as EngineConfig).symbols.map((s) => s.symbol) : [];
  const symbols = [...new Set(found.filter((f) => f.name.market === 'spot').map((f) => f.name.symbol))].sort();
  for (const symbol of symbols) {
    if (described.includes(symbol)) continue;
    let known = knownSymbolRules(symbol);
    if (known === undefined) {
      const grid = grids.get(symbol);
      if (grid === undefined) throw new InputError(`no trades or depth files for ${symbol}: its tick and step cannot be inferred`);
      const inferredRules = inferSymbol(symbol, grid.priceGrid, grid.qtyGrid);
      known = { symbol: inferredRules, assets: [inferredRules.baseAsset, inferredRules.quoteAsset].map((asset) => ({ asset, precision: 8 })) };
      inferred.push(symbol);
    }
    rules.push(known);
  }
  writeMarketRules(out, rules);
  // Read again at the scale a replay reads them (the checks above read at 8 decimals): the columnar cache keeps them.
  const cached = await buildTapeCache(openMarketData(out), symbols);
  return { files, symbols, inferred, cached };
}

/**
 * Adds (or replaces) symbols' rules in DIR/exsim-market.json, creating it when absent; the
 * symbols and assets already there keep their place.
 */
export function writeMarketRules(dir: string, rules: readonly { symbol: SymbolConfig; assets: readonly AssetConfig[] }[]): void {
  const configPath = join(dir, MARKET_CONFIG_FILE);
  const config: EngineConfig = existsSync(configPath) ? (JSON.parse(readFileSync(configPath, 'utf8')) as EngineConfig) : { assets: [], symbols: [] };
  const symbols = [...config.symbols];
  const assets = [...(config.assets ?? [])];
  for (const rule of rules) {
    const at = symbols.findIndex((s) => s.symbol === rule.symbol.symbol);
    if (at >= 0) symbols[at] = rule.symbol;
    else symbols.push(rule.symbol);
    for (const asset of rule.assets) if (!assets.some((a) => a.asset === asset.asset)) assets.push(asset);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(configPath, `${JSON.stringify({ ...config, assets, symbols }, null, 2)}\n`);
}
