/**
 * `exsim serve --accounts FILE`: the accounts, balances and API keys a served exchange starts
 * with, instead of the demo account. The file is JSON:
 *
 *   { "accounts": [
 *       { "accountId": 1, "apiKey": "my-key", "secret": "my-secret",
 *         "balances": { "USDT": "10000", "BTC": "0.5" },
 *         "makerCommission": "0.001", "takerCommission": "0.001" },
 *       { "accountId": 2, "apiKey": "ed-key", "keyType": "ED25519", "publicKeyFile": "ed25519.pub.pem",
 *         "balances": { "USDT": "5000" } },
 *       { "accountId": 3, "balances": { "BTC": "1" } } ] }
 *
 * accountId: a positive integer, unique. A key is optional (an account without one can still be
 * traded against): `apiKey` with either `secret` (HMAC, the default keyType) or `keyType` "RSA" /
 * "ED25519" and the public key as PEM text (`publicKey`) or a PEM file (`publicKeyFile`, relative
 * to the accounts file); a PKCS#8 private key is accepted too (its public half is used).
 * balances: decimal strings.
 * Commissions: fractions (0.001 = 0.1%, the default). Mistakes are one-line InputErrors.
 */
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ExchangeContextOptions } from '../api-facade/index.ts';
import { InputError } from '../data/index.ts';
import { type CreateAccount, type EngineConfig, parseUnits } from '../engine/index.ts';

type ApiKeyConfig = NonNullable<ExchangeContextOptions['apiKeys']>[number];

export interface ServedAccounts {
  readonly commands: CreateAccount[];
  readonly apiKeys: ApiKeyConfig[];
}

interface AccountEntry {
  accountId?: unknown;
  apiKey?: unknown;
  secret?: unknown;
  keyType?: unknown;
  publicKey?: unknown;
  publicKeyFile?: unknown;
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
  return servedAccountsFrom(json, `--accounts ${path}`, config, time, dirname(path));
}

/**
 * The accounts of an accounts document (`{"accounts": [...]}`, the file's format) as commands and
 * keys; `source` names it in errors. `publicKeyFile` is read relative to `keyDir`; without one
 * (a document that is not a file) only inline `publicKey` PEM is taken.
 */
export function servedAccountsFrom(json: { accounts?: unknown }, source: string, config: EngineConfig, time: number, keyDir: string | null = null): ServedAccounts {
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
    const key = apiKeyOf(entry, id, where, keyDir);
    if (key !== null) apiKeys.push(key);
  });
  return { commands, apiKeys };
}

const PUBLIC_KEY_TYPES = { RSA: 'rsa', ED25519: 'ed25519' } as const;

/** The entry's API key, checked now so a bad key is a one-line error at start, not a 401 later. */
function apiKeyOf(entry: AccountEntry, accountId: number, where: string, keyDir: string | null): ApiKeyConfig | null {
  const keyType = entry.keyType ?? 'HMAC';
  if (entry.apiKey === undefined && entry.secret === undefined && entry.publicKey === undefined && entry.publicKeyFile === undefined && entry.keyType === undefined) return null;
  if (typeof entry.apiKey !== 'string' || entry.apiKey === '') throw new InputError(`${where}.apiKey must be a non-empty string`);
  if (keyType === 'HMAC') {
    if (typeof entry.secret !== 'string' || entry.secret === '') throw new InputError(`${where}: an HMAC key needs a non-empty secret`);
    if (entry.publicKey !== undefined || entry.publicKeyFile !== undefined) throw new InputError(`${where}: publicKey is for keyType RSA or ED25519`);
    return { apiKey: entry.apiKey, keyType: 'HMAC', secretKey: entry.secret, accountId };
  }
  if (keyType !== 'RSA' && keyType !== 'ED25519') throw new InputError(`${where}.keyType must be HMAC, RSA or ED25519`);
  if (entry.secret !== undefined) throw new InputError(`${where}: a ${keyType} key has a publicKey, not a secret`);
  let pem: string;
  if (typeof entry.publicKey === 'string' && entry.publicKeyFile === undefined) pem = entry.publicKey;
  else if (typeof entry.publicKeyFile === 'string' && entry.publicKey === undefined) {
    if (keyDir === null) throw new InputError(`${where}.publicKeyFile: only in an accounts file; send the PEM text as publicKey`);
    const file = resolve(keyDir, entry.publicKeyFile);
    try {
      pem = readFileSync(file, 'utf8');
    } catch {
      throw new InputError(`${where}.publicKeyFile: cannot read ${file}`);
    }
  } else throw new InputError(`${where}: a ${keyType} key needs one of publicKey (PEM text) or publicKeyFile`);
  let publicKey;
  try {
    publicKey = createPublicKey(pem);
  } catch (error) {
    throw new InputError(`${where}: the ${keyType} public key is not a PEM key (${error instanceof Error ? error.message : String(error)})`);
  }
  if (publicKey.asymmetricKeyType !== PUBLIC_KEY_TYPES[keyType]) throw new InputError(`${where}: keyType ${keyType} but the key is ${publicKey.asymmetricKeyType ?? 'unknown'}`);
  return { apiKey: entry.apiKey, keyType, publicKey, accountId };
}
