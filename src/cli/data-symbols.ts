/**
 * `exsim data symbols [SYMBOL...] [--update]`: the bundled snapshot of Binance's spot symbol rules
 * (src/data/spot-symbol-rules.ts): its date and source, or the rules of the symbols named; with
 * `--update`, the snapshot refreshed from the live GET /api/v3/exchangeInfo (every spot symbol,
 * whatever its status). Without a network that is one line saying so, and the bundled snapshot
 * stays as it was.
 */
import { Decimal } from 'decimal.js';
import type { SymbolConfig } from '../engine/index.ts';
import { InputError, readSpotRules, SPOT_RULES_FILE, trimExchangeInfo, writeSpotRules, type SpotRulesSnapshot } from '../data/index.ts';

export const EXCHANGE_INFO_URL = 'https://api.binance.com/api/v3/exchangeInfo?permissions=SPOT';

export interface SymbolsOptions {
  readonly update?: boolean | undefined;
  readonly url?: string | undefined;
  /** Where the snapshot is read and written (tests); default the bundled file. */
  readonly file?: string | undefined;
}

/** Reads the live answer; any failure (no network, an HTTP error, not JSON) is one InputError line. */
async function fetchExchangeInfo(url: string, previous: SpotRulesSnapshot | null): Promise<unknown> {
  const keep = previous === null ? '' : `; the snapshot of ${previous.date} stays in use`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new InputError(`cannot reach ${url} to refresh the symbol rules (${error instanceof Error ? error.message : String(error)}${cause})${keep}`);
  }
  if (!response.ok) throw new InputError(`${url} answered HTTP ${response.status}${keep}`);
  try {
    return await response.json();
  } catch (error) {
    throw new InputError(`${url} answered something that is not JSON (${error instanceof Error ? error.message : String(error)})${keep}`);
  }
}

/** A filter's field as a short decimal ("0.00010000" -> "0.0001"), or "-" when the symbol has no such filter. */
function field(rules: SymbolConfig, type: string, name: string): string {
  const filter = rules.filters?.find((f) => f.filterType === type) as Record<string, unknown> | undefined;
  const value = filter?.[name];
  return value === undefined ? '-' : new Decimal(String(value)).toFixed();
}

/** The lines the command prints. */
export async function symbolsCommand(symbols: readonly string[], options: SymbolsOptions = {}): Promise<string[]> {
  const file = options.file ?? SPOT_RULES_FILE;
  const describe = (s: SpotRulesSnapshot) => `${s.symbols.length} Binance spot symbols as of ${s.date} (${s.source}): ${file}`;
  if (options.update === true) {
    let previous: SpotRulesSnapshot | null = null;
    try {
      previous = readSpotRules(file);
    } catch {
      previous = null; // a missing or broken snapshot is what --update repairs
    }
    const url = options.url ?? EXCHANGE_INFO_URL;
    const snapshot = trimExchangeInfo(await fetchExchangeInfo(url, previous), `GET ${url}`);
    writeSpotRules(snapshot, file);
    return [`updated: ${describe(snapshot)}`];
  }
  const snapshot = readSpotRules(file);
  if (symbols.length === 0) return [describe(snapshot)];
  return symbols.map((name) => {
    const rules = snapshot.symbols.find((s) => s.symbol === name);
    if (rules === undefined) throw new InputError(`${name} is not in the snapshot of ${snapshot.date} (${snapshot.symbols.length} symbols): \`exsim data symbols --update\` refreshes it where Binance's API is reachable`);
    const notional = field(rules, 'NOTIONAL', 'minNotional') === '-' ? field(rules, 'MIN_NOTIONAL', 'minNotional') : field(rules, 'NOTIONAL', 'minNotional');
    return `${name} ${rules.status ?? 'TRADING'} ${rules.baseAsset}/${rules.quoteAsset}: tick ${field(rules, 'PRICE_FILTER', 'tickSize')}, step ${field(rules, 'LOT_SIZE', 'stepSize')}, min qty ${field(rules, 'LOT_SIZE', 'minQty')}, min notional ${notional}`;
  });
}
