/**
 * API keys: which account a key belongs to, how its requests are signed, what it may do and
 * from where (spec, Authentication 1, 6; binance-facts §9).
 *
 * Rules:
 * - Keys and secrets are case-sensitive; a key is looked up exactly as sent.
 * - Key types: HMAC (shared secret; signature hex), RSA and ED25519 (the account uploads a public
 *   key; signature base64). Public keys are PEM (SPKI `PUBLIC KEY`, or a PKCS#8 private key from
 *   which the public half is taken) or a KeyObject, read with `crypto.createPublicKey`; a key of
 *   the wrong algorithm (an RSA PEM registered as ED25519, RSA-PSS) is a configuration error.
 * - Permissions are granted per keyed security type. On Binance, USER_DATA, USER_STREAM and
 *   MARKET_DATA are what `enableReading` covers and TRADE is `enableSpotAndMarginTrading`; the
 *   spec also allows a key restricted to some types (e.g. TRADE only), which a per-type grant
 *   expresses directly. Default: every type granted. The real default for TRADE is stated
 *   inconsistently (spec: "not shown"; binance-facts §9: off until enabled), and keys in a
 *   simulator are created by its operator for a bot that is meant to trade; pass
 *   `permissions: { TRADE: false }` for Binance's "trading not enabled yet".
 * - `ipRestrict`: when given, only these client IPs may use the key (exact addresses, IPv4 or
 *   IPv6; `::ffff:1.2.3.4` as node:http reports IPv4 clients on a dual-stack socket matches
 *   `1.2.3.4`). Omitted means unrestricted; an empty list is refused at registration because
 *   it would silently lock the key out.
 * - Key format (-2014 vs -2015). Real keys are 64 ASCII letters and digits; Binance answers
 *   -2014 "API-key format invalid." to anything else and -2015 to a well-formed unknown key.
 *   exsim also lets the operator configure readable keys such as the demo key `exsim-demo-key`.
 *   A key is therefore well-formed when it matches the Binance format OR is registered here.
 *   Consequence: every key a real client could hold gets Binance's exact answer, and a typo of
 *   a short configured key (`exsim-demo-kee`) is -2014, as a malformed key would be on Binance.
 *   Configured keys must be 1..256 visible ASCII characters (no spaces), so they can travel in
 *   a header unchanged.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import { hmacSecretKey } from './hmac-sha256.ts';
import { RecordLog } from '../core/index.ts';
import { KEYED_SECURITY_TYPES, type KeyedSecurityType } from './security-type.ts';

export type ApiKeyType = 'HMAC' | 'RSA' | 'ED25519';

/** Which keyed security types a key may call. */
export type KeyPermissions = Readonly<Record<KeyedSecurityType, boolean>>;

export const ALL_PERMISSIONS: KeyPermissions = Object.freeze({ TRADE: true, USER_DATA: true, USER_STREAM: true, MARKET_DATA: true });

interface ApiKeyConfigBase {
  readonly apiKey: string;
  readonly accountId: number;
  /** Merged over ALL_PERMISSIONS: name only what a key may not do. */
  readonly permissions?: Partial<KeyPermissions>;
  readonly ipRestrict?: readonly string[];
}

export interface HmacKeyConfig extends ApiKeyConfigBase {
  readonly keyType: 'HMAC';
  readonly secretKey: string;
}

export interface PublicKeyConfig extends ApiKeyConfigBase {
  readonly keyType: 'RSA' | 'ED25519';
  /** PEM (SPKI, or PKCS#8 private key) or a KeyObject. */
  readonly publicKey: string | KeyObject;
}

/** What the operator (or a scenario) registers. */
export type ApiKeyConfig = HmacKeyConfig | PublicKeyConfig;

/** What a successful authentication yields: the caller acts on behalf of `accountId`. */
export interface AuthenticatedKey {
  readonly apiKey: string;
  readonly accountId: number;
  readonly keyType: ApiKeyType;
  readonly permissions: KeyPermissions;
}

interface ApiKeyEntryBase extends AuthenticatedKey {
  /** Normalized allowed IPs, or undefined when unrestricted. */
  readonly ipRestrict: ReadonlySet<string> | undefined;
}

/** HMAC: the secret's bytes. */
export interface HmacKeyEntry extends ApiKeyEntryBase {
  readonly keyType: 'HMAC';
  readonly verificationKey: Buffer;
}

/** RSA / ED25519: the account's public key. */
export interface PublicKeyEntry extends ApiKeyEntryBase {
  readonly keyType: 'RSA' | 'ED25519';
  readonly verificationKey: KeyObject;
}

/** A registered key, resolved once so a request does no parsing of key material. */
export type ApiKeyEntry = HmacKeyEntry | PublicKeyEntry;

/** What a verifier needs of a key. */
export type VerificationKey = Pick<HmacKeyEntry, 'keyType' | 'verificationKey'> | Pick<PublicKeyEntry, 'keyType' | 'verificationKey'>;

/** Binance's key format: 64 ASCII letters and digits. */
const BINANCE_KEY_FORMAT = /^[A-Za-z0-9]{64}$/;
/** Keys an operator may configure: visible ASCII, header-safe, bounded. */
const CONFIGURED_KEY_FORMAT = /^[\x21-\x7e]{1,256}$/;

const NODE_KEY_TYPE: Record<Exclude<ApiKeyType, 'HMAC'>, string> = { RSA: 'rsa', ED25519: 'ed25519' };

/** The form an IP is compared in: IPv4-mapped IPv6 as plain IPv4, IPv6 lowercase. */
export function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

function resolvePermissions(granted: Partial<KeyPermissions> | undefined): KeyPermissions {
  // One literal in ALL_PERMISSIONS' key order, not a spread then written (see ARCHITECTURE.md, "Object shapes").
  const out: Record<KeyedSecurityType, boolean> = { TRADE: true, USER_DATA: true, USER_STREAM: true, MARKET_DATA: true };
  for (const type of KEYED_SECURITY_TYPES) {
    const value = granted?.[type];
    out[type] = value === undefined ? ALL_PERMISSIONS[type] : value;
  }
  return Object.freeze(out);
}

function resolvePublicKey(config: PublicKeyConfig): KeyObject {
  const material = config.publicKey;
  // createPublicKey derives the public half from PEM text or a private KeyObject, but refuses a
  // KeyObject that is already public: that one is used as is.
  const key = typeof material !== 'string' && material.type === 'public' ? material : createPublicKey(material);
  const expected = NODE_KEY_TYPE[config.keyType];
  if (key.asymmetricKeyType !== expected) {
    throw new Error(`API key ${config.apiKey}: ${config.keyType} key expected, got ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  return key;
}

function resolveEntry(config: ApiKeyConfig): ApiKeyEntry {
  const apiKey = config.apiKey;
  const accountId = config.accountId;
  const permissions = resolvePermissions(config.permissions);
  const ipRestrict = resolveIpRestrict(config);
  // Plain literals, not `{ ...common, keyType, ... }`: every request reads its key's entry (see ARCHITECTURE.md, "Object shapes").
  if (config.keyType === 'HMAC') {
    if (config.secretKey.length === 0) throw new Error(`API key ${config.apiKey}: empty HMAC secret`);
    return Object.freeze({ apiKey, accountId, permissions, ipRestrict, keyType: config.keyType, verificationKey: hmacSecretKey(config.secretKey) });
  }
  return Object.freeze({ apiKey, accountId, permissions, ipRestrict, keyType: config.keyType, verificationKey: resolvePublicKey(config) });
}

function storedKey(config: ApiKeyConfig, entry: ApiKeyEntry): StoredApiKey {
  if (config.keyType === 'HMAC') return { ...config, ...(config.ipRestrict === undefined ? {} : { ipRestrict: [...config.ipRestrict] }) };
  const publicKey = (entry.verificationKey as KeyObject).export({ type: 'spki', format: 'pem' }).toString();
  return { ...config, ...(config.ipRestrict === undefined ? {} : { ipRestrict: [...config.ipRestrict] }), publicKey };
}

function resolveIpRestrict(config: ApiKeyConfig): ReadonlySet<string> | undefined {
  if (config.ipRestrict === undefined) return undefined;
  if (config.ipRestrict.length === 0) throw new Error(`API key ${config.apiKey}: empty ipRestrict (omit it for no restriction)`);
  for (const ip of config.ipRestrict) {
    if (isIP(ip) === 0) throw new Error(`API key ${config.apiKey}: not an IP address in ipRestrict: ${ip}`);
  }
  return new Set(config.ipRestrict.map(normalizeIp));
}

/**
 * A registered key as plain data a served exchange's journal can hold: public keys as SPKI PEM
 * (a private key given at registration never leaves the process), an HMAC key with its secret
 * (it is needed to verify; the journal file is as private as the accounts file it came from).
 */
export type StoredApiKey = HmacKeyConfig | (Omit<PublicKeyConfig, 'publicKey'> & { readonly publicKey: string });

export class ApiKeyRegistry {
  readonly #keys = new Map<string, ApiKeyEntry>();
  /** Keys registered after construction (the control plane's), in order: state a journal keeps. */
  readonly #registered = new RecordLog<StoredApiKey>();

  constructor(configs: readonly ApiKeyConfig[] = []) {
    for (const config of configs) this.#register(config);
  }

  /** Register a key. Throws (a configuration error, not an API answer) on a bad or duplicate key. */
  add(config: ApiKeyConfig): ApiKeyEntry {
    const entry = this.#register(config);
    this.#registered.push(storedKey(config, entry));
    return entry;
  }

  #register(config: ApiKeyConfig): ApiKeyEntry {
    if (!CONFIGURED_KEY_FORMAT.test(config.apiKey)) throw new Error(`API key must be 1..256 visible ASCII characters: ${JSON.stringify(config.apiKey)}`);
    if (this.#keys.has(config.apiKey)) throw new Error(`API key already registered: ${config.apiKey}`);
    if (!Number.isSafeInteger(config.accountId)) throw new Error(`API key ${config.apiKey}: accountId must be an integer`);
    const entry = resolveEntry(config);
    this.#keys.set(config.apiKey, entry);
    return entry;
  }

  /** The keys registered after construction, in order (a served exchange's journal keeps them). */
  get registered(): RecordLog<StoredApiKey> {
    return this.#registered;
  }

  /** Registers journaled keys again (a restore); those already registered are left as they are. */
  restoreRegistered(keys: readonly StoredApiKey[]): void {
    for (const key of keys) if (!this.#keys.has(key.apiKey)) this.add(key);
    this.#registered.markTaken();
  }

  /**
   * Revoke a key. Later requests with it get -2015, or -2014 when the key is not in Binance's
   * format (it is then no longer well-formed by registration; see the header).
   */
  remove(apiKey: string): boolean {
    return this.#keys.delete(apiKey);
  }

  get(apiKey: string): ApiKeyEntry | undefined {
    return this.#keys.get(apiKey);
  }

  /** Well-formed for the -2014 check: Binance's format, or a key configured here (see header). */
  isWellFormed(apiKey: string): boolean {
    return BINANCE_KEY_FORMAT.test(apiKey) || this.#keys.has(apiKey);
  }
}

/** May this key call an endpoint of `type` from `clientIp`? (false answers -2015) */
export function isPermitted(entry: ApiKeyEntry, type: KeyedSecurityType, clientIp: string | undefined): boolean {
  if (!entry.permissions[type]) return false;
  if (entry.ipRestrict === undefined) return true;
  return clientIp !== undefined && entry.ipRestrict.has(normalizeIp(clientIp));
}
