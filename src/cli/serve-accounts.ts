/**
 * `exsim serve --accounts FILE`: the accounts, balances and API keys a served exchange starts
 * with, instead of the demo account. The file is JSON:
 *
 *   { "accounts": [
 *       { "accountId": 1, "apiKey": "my-key", "secret": "my-secret",
 *         "balances": { "USDT": "10000", "BTC": "0.5" },
 *         "makerCommission": "0.001", "takerCommission": "0.001" },
 *       { "accountId": 2, "balances": { "USDT": "5000" } } ] }
 *
 * accountId: a positive integer, unique. apiKey/secret: an HMAC key for the account (optional:
 * an account without a key can still be traded against). balances: decimal strings.
 * Commissions: fractions (0.001 = 0.1%, the default). Mistakes are one-line InputErrors.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../backtest/index.ts';
import { type CreateAccount, type EngineConfig, parseUnits } from '../engine/index.ts';

export interface ServedAccounts {
  readonly commands: CreateAccount[];
  readonly apiKeys: { apiKey: string; keyType: 'HMAC'; secretKey: string; accountId: number }[];
}

interface AccountEntry {
  accountId?: unknown;
  apiKey?: unknown;
  secret?: unknown;
  balances?: unknown;
  makerCommission?: unknown;
  takerCommission?: unknown;
}

const RATE_SCALE = 100_000_000;

export function loadServedAccounts(path: string, config: EngineConfig, time: number): ServedAccounts {
  let json: { accounts?: unknown };
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as { accounts?: unknown };
  } catch (error) {
    throw new InputError(`--accounts ${path}: ${error instanceof Error && 'code' in error && error.code === 'ENOENT' ? 'no such file' : `not JSON (${error instanceof Error ? error.message : String(error)})`}`);
  }
  return servedAccountsFrom(json, `--accounts ${path}`, config, time);
}

/** The accounts of an accounts document (`{"accounts": [...]}`, the file's format) as commands and keys; `source` names it in errors. */
export function servedAccountsFrom(json: { accounts?: unknown }, source: string, config: EngineConfig, time: number): ServedAccounts {
  if (!Array.isArray(json.accounts) || json.accounts.length === 0) throw new InputError(`${source}: expected {"accounts": [ ... ]} with at least one account`);
  const commands: CreateAccount[] = [];
  const apiKeys: ServedAccounts['apiKeys'] = [];
  const seen = new Set<number>();
  (json.accounts as AccountEntry[]).forEach((entry, i) => {
    const where = `${source}: accounts[${i}]`;
    const id = entry.accountId;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || seen.has(id)) throw new InputError(`${where}.accountId must be a unique positive integer`);
    seen.add(id);
    const balances: Record<string, number> = {};
    for (const [asset, text] of Object.entries((entry.balances ?? {}) as Record<string, unknown>)) {
      const precision = config.assets?.find((a) => a.asset === asset)?.precision ?? 8;
      const units = typeof text === 'string' ? parseUnits(text, precision) : null;
      if (units === null || units < 0) throw new InputError(`${where}.balances.${asset} must be a decimal string >= 0 with at most ${precision} places`);
      balances[asset] = units;
    }
    const rate = (value: unknown, name: string): number => {
      if (value === undefined) return 100_000;
      const n = typeof value === 'string' ? Number(value) : NaN;
      if (!(n >= 0 && n < 1)) throw new InputError(`${where}.${name} must be a fraction string like "0.001"`);
      return Math.round(n * RATE_SCALE);
    };
    commands.push({ type: 'CreateAccount', time, accountId: id, balances, standardCommission: { maker: rate(entry.makerCommission, 'makerCommission'), taker: rate(entry.takerCommission, 'takerCommission'), buyer: 0, seller: 0 } });
    if (entry.apiKey !== undefined || entry.secret !== undefined) {
      if (typeof entry.apiKey !== 'string' || typeof entry.secret !== 'string' || entry.apiKey === '' || entry.secret === '') throw new InputError(`${where}: apiKey and secret must both be non-empty strings`);
      apiKeys.push({ apiKey: entry.apiKey, keyType: 'HMAC', secretKey: entry.secret, accountId: id });
    }
  });
  return { commands, apiKeys };
}
