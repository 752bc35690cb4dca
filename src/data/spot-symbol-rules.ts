/**
 * The exchange rules of Binance's spot symbols, shipped with exsim as a dated snapshot of
 * GET /api/v3/exchangeInfo (`data/binance-spot-symbols.json.gz`), trimmed to what the engine
 * reads: each symbol's assets and their precisions, order types and flags, filters, permission
 * sets and self-trade prevention modes. A market folder's symbols that neither its
 * `exsim-market.json` nor the bundled sample market describes take their rules from here
 * (market-folder.ts), so a dump of any listed symbol replays without a set-up step.
 *
 * `trimExchangeInfo` turns a live answer into the snapshot (`exsim data symbols --update` fetches
 * it where a network exists); the snapshot's date is the answer's `serverTime`, never the host
 * clock. Filters the engine does not model are dropped; the status is kept as captured but not
 * applied to a replay (a symbol delisted since traded on the days its dumps cover).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AssetConfig, SymbolConfig, SymbolFilter } from '../engine/index.ts';
import { InputError } from './input-error.ts';
import { formatUtcDay } from './utc-date.ts';

export const SPOT_RULES_FILE = fileURLToPath(new URL('../../data/binance-spot-symbols.json.gz', import.meta.url));

export interface SpotRulesSnapshot {
  /** Where the rules were read: `GET /api/v3/exchangeInfo` or the captures a bundled snapshot was assembled from. */
  readonly source: string;
  /** The answer's serverTime (ms), when the snapshot is one answer; null for an assembled one. */
  readonly serverTime: number | null;
  /** The day the rules are as of (UTC, YYYY-MM-DD). */
  readonly date: string;
  readonly assets: readonly AssetConfig[];
  readonly symbols: readonly SymbolConfig[];
}

/** Filter types the engine models, with the fields each keeps (numbers where the engine wants them). */
const FILTER_FIELDS: Readonly<Record<SymbolFilter['filterType'], readonly string[]>> = {
  PRICE_FILTER: ['minPrice', 'maxPrice', 'tickSize'],
  PERCENT_PRICE: ['multiplierUp', 'multiplierDown', '#avgPriceMins'],
  PERCENT_PRICE_BY_SIDE: ['bidMultiplierUp', 'bidMultiplierDown', 'askMultiplierUp', 'askMultiplierDown', '#avgPriceMins'],
  LOT_SIZE: ['minQty', 'maxQty', 'stepSize'],
  MARKET_LOT_SIZE: ['minQty', 'maxQty', 'stepSize'],
  MIN_NOTIONAL: ['minNotional', '?applyToMarket', '#avgPriceMins'],
  NOTIONAL: ['minNotional', '?applyMinToMarket', 'maxNotional', '?applyMaxToMarket', '#avgPriceMins'],
  ICEBERG_PARTS: ['#limit'],
  MAX_NUM_ORDERS: ['#maxNumOrders'],
  MAX_NUM_ALGO_ORDERS: ['#maxNumAlgoOrders'],
  MAX_NUM_ICEBERG_ORDERS: ['#maxNumIcebergOrders'],
  MAX_POSITION: ['maxPosition'],
  TRAILING_DELTA: ['#minTrailingAboveDelta', '#maxTrailingAboveDelta', '#minTrailingBelowDelta', '#maxTrailingBelowDelta'],
  MAX_NUM_ORDER_AMENDS: ['#maxNumOrderAmends'],
  MAX_NUM_ORDER_LISTS: ['#maxNumOrderLists'],
};

const FLAGS = [
  'icebergAllowed',
  'ocoAllowed',
  'otoAllowed',
  'opoAllowed',
  'quoteOrderQtyMarketAllowed',
  'allowTrailingStop',
  'cancelReplaceAllowed',
  'amendAllowed',
  'pegInstructionsAllowed',
  'isSpotTradingAllowed',
  'isMarginTradingAllowed',
] as const;

type Json = Record<string, unknown>;

/** One filter as the engine reads it (`#` numbers, `?` booleans, others decimal strings), or null for a type it does not model. */
function trimFilter(raw: Json): SymbolFilter | null {
  const type = raw.filterType as SymbolFilter['filterType'];
  const fields = FILTER_FIELDS[type];
  if (fields === undefined) return null;
  const out: Json = { filterType: type };
  for (const field of fields) {
    const name = field.replace(/^[#?]/, '');
    const value = raw[name];
    if (value === undefined) continue;
    out[name] = field.startsWith('#') ? Number(value) : field.startsWith('?') ? value === true || value === 'true' : String(value);
  }
  return out as unknown as SymbolFilter;
}

/** The symbol entry of an exchangeInfo answer as an engine symbol config, and its two assets' precisions. */
function trimSymbol(raw: Json): { symbol: SymbolConfig; assets: AssetConfig[] } {
  const symbol: Json = { symbol: raw.symbol, status: raw.status, baseAsset: raw.baseAsset, quoteAsset: raw.quoteAsset };
  if (Array.isArray(raw.orderTypes)) symbol.orderTypes = raw.orderTypes;
  for (const flag of FLAGS) if (typeof raw[flag] === 'boolean') symbol[flag] = raw[flag];
  symbol.filters = ((raw.filters as Json[] | undefined) ?? []).map(trimFilter).filter((f) => f !== null);
  // permissionSets since 2024; older answers list `permissions` (any one of them allows).
  const sets = raw.permissionSets as string[][] | undefined;
  const permissions = raw.permissions as string[] | undefined;
  if (Array.isArray(sets) && sets.length > 0) symbol.permissionSets = sets;
  else if (Array.isArray(permissions) && permissions.length > 0) symbol.permissionSets = [permissions];
  if (typeof raw.defaultSelfTradePreventionMode === 'string') symbol.defaultSelfTradePreventionMode = raw.defaultSelfTradePreventionMode;
  if (Array.isArray(raw.allowedSelfTradePreventionModes)) symbol.allowedSelfTradePreventionModes = raw.allowedSelfTradePreventionModes;
  const precision = (value: unknown) => (value === undefined ? 8 : Number(value));
  return {
    symbol: symbol as unknown as SymbolConfig,
    assets: [
      { asset: String(raw.baseAsset), precision: precision(raw.baseAssetPrecision) },
      { asset: String(raw.quoteAsset), precision: precision(raw.quoteAssetPrecision ?? raw.quotePrecision) },
    ],
  };
}

/** A GET /api/v3/exchangeInfo answer as the snapshot: symbols sorted by name, assets by name (the first precision seen kept). */
export function trimExchangeInfo(answer: unknown, source: string): SpotRulesSnapshot {
  const info = answer as { serverTime?: unknown; symbols?: unknown };
  if (info === null || typeof info !== 'object' || !Array.isArray(info.symbols) || typeof info.serverTime !== 'number') {
    throw new InputError(`${source}: not an exchangeInfo answer (no serverTime and symbols)`);
  }
  const symbols: SymbolConfig[] = [];
  const assets = new Map<string, AssetConfig>();
  for (const raw of info.symbols as Json[]) {
    const trimmed = trimSymbol(raw);
    symbols.push(trimmed.symbol);
    for (const asset of trimmed.assets) if (!assets.has(asset.asset)) assets.set(asset.asset, asset);
  }
  symbols.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return { source, serverTime: info.serverTime, date: formatUtcDay(info.serverTime), assets: [...assets.values()].sort((a, b) => (a.asset < b.asset ? -1 : 1)), symbols };
}

/** The snapshot as gzipped JSON, one symbol a line (diffs between two snapshots stay readable once unpacked). */
export function writeSpotRules(snapshot: SpotRulesSnapshot, path = SPOT_RULES_FILE): void {
  const { symbols, assets, ...head } = snapshot;
  const text = `{${Object.entries(head).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')},\n"assets":${JSON.stringify(assets)},\n"symbols":[\n${symbols.map((s) => JSON.stringify(s)).join(',\n')}\n]}\n`;
  // gzip's header holds no time here: the same rules give the same bytes.
  writeFileSync(path, gzipSync(text, { level: 9 }));
}

let bundled: SpotRulesSnapshot | undefined;

/** The snapshot at `path` (default: the bundled one, read once). */
export function readSpotRules(path = SPOT_RULES_FILE): SpotRulesSnapshot {
  if (path === SPOT_RULES_FILE && bundled !== undefined) return bundled;
  let snapshot: SpotRulesSnapshot;
  try {
    snapshot = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as SpotRulesSnapshot;
  } catch (error) {
    throw new InputError(`${path}: not a symbol rules snapshot (${error instanceof Error ? error.message : String(error)})`);
  }
  if (path === SPOT_RULES_FILE) bundled = snapshot;
  return snapshot;
}

/** The bundled snapshot's rules of `symbol` (its status left out: see the header), with its assets' precisions; undefined when it is not listed. */
export function spotSymbolRules(symbol: string): { symbol: SymbolConfig; assets: AssetConfig[] } | undefined {
  const snapshot = readSpotRules();
  const found = snapshot.symbols.find((s) => s.symbol === symbol);
  if (found === undefined) return undefined;
  const { status: _status, ...rules } = found;
  const assets = [found.baseAsset, found.quoteAsset].map((asset) => snapshot.assets.find((a) => a.asset === asset) ?? { asset, precision: 8 });
  return { symbol: rules, assets };
}
