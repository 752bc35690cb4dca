/**
 * `exsim serve --accounts FILE` on the static market: HMAC, RSA and Ed25519 keys from the file
 * sign requests through the official connector, bad key entries are one-line errors, and the
 * market maker's opening ladder is there as without a file.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Spot } from '@binance/connector';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';
import { loadServedAccounts, servedAccountsFrom } from '../../src/serve/accounts-file.ts';
import { SAMPLE_CONFIG } from '../../src/sample/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-accounts-'));
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed25519 = generateKeyPairSync('ed25519');
const pkcs8 = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

const file = join(dir, 'accounts.json');
let handle: ServeHandle;
const lines: string[] = [];

beforeAll(async () => {
  writeFileSync(join(dir, 'ed25519.pub.pem'), spki(ed25519.publicKey));
  writeFileSync(
    file,
    JSON.stringify({
      accounts: [
        // Account 2 is the sample's market-maker id: the maker moves to the first free id above.
        { accountId: 2, apiKey: 'hmac-key', secret: 'hmac-secret', balances: { USDT: '1000' } },
        { accountId: 3, apiKey: 'rsa-key', keyType: 'RSA', publicKey: spki(rsa.publicKey), balances: { USDT: '2000' } },
        { accountId: 4, apiKey: 'ed-key', keyType: 'ED25519', publicKeyFile: 'ed25519.pub.pem', balances: { USDT: '3000' } },
      ],
    }),
  );
  handle = await serve({ port: 0, host: '127.0.0.1', clock: 'realtime', accounts: file }, (line) => lines.push(line));
});

afterAll(async () => {
  await handle?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exsim serve --accounts', () => {
  test('prints the file\'s keys', () => {
    expect(lines.join('\n')).toContain(`accounts from ${file}: 3 accounts, API keys hmac-key, rsa-key, ed-key`);
  });

  test.each([
    ['HMAC', () => new Spot('hmac-key', 'hmac-secret', { baseURL: handle.url, logger: silent }), '1000.00000000'],
    ['RSA', () => new Spot('rsa-key', '', { baseURL: handle.url, logger: silent, privateKey: pkcs8(rsa.privateKey), privateKeyAlgo: 'RSA' }), '2000.00000000'],
    ['Ed25519', () => new Spot('ed-key', '', { baseURL: handle.url, logger: silent, privateKey: pkcs8(ed25519.privateKey), privateKeyAlgo: 'Ed25519' }), '3000.00000000'],
  ])('a %s key from the file signs account, newOrder and cancelOrder', async (_type, client, usdt) => {
    const signer = client();
    const account = await signer.account({ omitZeroBalances: true });
    expect(account.data.balances).toEqual([{ asset: 'USDT', free: usdt, locked: '0.00000000' }]);
    const placed = await signer.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price: '40000', quantity: '0.001', timeInForce: 'GTC' });
    expect(placed.data.status).toBe('NEW');
    expect((await signer.cancelOrder('BTCUSDT', { orderId: placed.data.orderId })).data.status).toBe('CANCELED');
  });

  test('a signature made with another key of the same type is refused', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const forger = new Spot('ed-key', '', { baseURL: handle.url, logger: silent, privateKey: pkcs8(other), privateKeyAlgo: 'Ed25519' });
    await expect(forger.account()).rejects.toMatchObject({ response: { status: 400, data: { code: -1022 } } });
  });

  test('the static market keeps the market maker\'s opening ladder: depth is two-sided, a market buy fills', async () => {
    const depth = (await (await fetch(`${handle.url}/api/v3/depth?symbol=BTCUSDT&limit=5`)).json()) as { bids: [string, string][]; asks: [string, string][] };
    expect(depth.bids[0]).toEqual(['41999.95000000', '0.10000000']);
    expect(depth.asks[0]).toEqual(['42000.05000000', '0.10000000']);
    expect(depth.bids).toHaveLength(5);
    expect(depth.asks).toHaveLength(5);
    const buyer = new Spot('hmac-key', 'hmac-secret', { baseURL: handle.url, logger: silent });
    const order = await buyer.newOrder('BTCUSDT', 'BUY', 'MARKET', { quantity: '0.001' });
    expect(order.data).toMatchObject({ status: 'FILLED', executedQty: '0.00100000', cummulativeQuoteQty: '42.00005000' });
  });
});

describe('accounts file key errors', () => {
  let files = 0;
  const load = (entry: Record<string, unknown>) => {
    const path = join(dir, `bad-${++files}.json`);
    writeFileSync(path, JSON.stringify({ accounts: [{ accountId: 1, ...entry }] }));
    return () => loadServedAccounts(path, SAMPLE_CONFIG, 0);
  };

  test.each([
    [{ apiKey: 'k', keyType: 'DSA', publicKey: 'x' }, 'accounts[0].keyType must be HMAC, RSA or ED25519'],
    [{ apiKey: 'k', keyType: 'RSA', publicKey: 'not a pem' }, 'accounts[0]: the RSA public key is not a PEM key'],
    [{ apiKey: 'k', keyType: 'RSA', publicKey: spki(ed25519.publicKey) }, 'accounts[0]: keyType RSA but the key is ed25519'],
    [{ apiKey: 'k', keyType: 'ED25519' }, 'accounts[0]: a ED25519 key needs one of publicKey (PEM text) or publicKeyFile'],
    [{ apiKey: 'k', keyType: 'ED25519', publicKeyFile: 'missing.pem' }, 'accounts[0].publicKeyFile: cannot read'],
    [{ apiKey: 'k', keyType: 'RSA', secret: 's', publicKey: spki(rsa.publicKey) }, 'accounts[0]: a RSA key has a publicKey, not a secret'],
    [{ apiKey: 'k' }, 'accounts[0]: an HMAC key needs a non-empty secret'],
    [{ secret: 's' }, 'accounts[0].apiKey must be a non-empty string'],
  ])('%j', (entry, message) => {
    expect(load(entry)).toThrow(message);
  });

  test('a document that is not a file takes inline PEM keys, not publicKeyFile', () => {
    const document = (key: Record<string, unknown>) => ({ accounts: [{ accountId: 9, apiKey: 'k9', keyType: 'ED25519', ...key }] });
    expect(servedAccountsFrom(document({ publicKey: spki(ed25519.publicKey) }), 'POST /x', SAMPLE_CONFIG, 0).apiKeys).toMatchObject([{ apiKey: 'k9', keyType: 'ED25519', accountId: 9 }]);
    expect(() => servedAccountsFrom(document({ publicKeyFile: 'ed25519.pub.pem' }), 'POST /x', SAMPLE_CONFIG, 0)).toThrow('POST /x: accounts[0].publicKeyFile: only in an accounts file; send the PEM text as publicKey');
  });

  test('a PKCS#8 private key is accepted: its public half verifies', () => {
    const keys = loadServedAccounts(
      (() => {
        const path = join(dir, 'private.json');
        writeFileSync(path, JSON.stringify({ accounts: [{ accountId: 1, apiKey: 'k', keyType: 'ED25519', publicKey: pkcs8(ed25519.privateKey) }] }));
        return path;
      })(),
      SAMPLE_CONFIG,
      0,
    ).apiKeys;
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    expect(key.keyType === 'ED25519' && typeof key.publicKey !== 'string' && key.publicKey.export({ type: 'spki', format: 'pem' }).toString()).toBe(spki(ed25519.publicKey));
  });
});
