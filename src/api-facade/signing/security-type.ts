/**
 * Endpoint security types (spec, Authentication 2; binance-facts §9).
 *
 * | Type        | Key in X-MBX-APIKEY | Signature |
 * |-------------|---------------------|-----------|
 * | NONE        | no (ignored if sent) | no       |
 * | MARKET_DATA | yes                 | no        |
 * | USER_STREAM | yes                 | no        |
 * | USER_DATA   | yes                 | yes       |
 * | TRADE       | yes                 | yes       |
 *
 * The endpoint table names one of these per endpoint; the signing module reads nothing else
 * about the endpoint.
 */
export type SecurityType = 'NONE' | 'TRADE' | 'USER_DATA' | 'USER_STREAM' | 'MARKET_DATA';

/** The security types that need an API key; a key's permissions are granted per one of these. */
export type KeyedSecurityType = Exclude<SecurityType, 'NONE'>;

export const KEYED_SECURITY_TYPES: readonly KeyedSecurityType[] = ['TRADE', 'USER_DATA', 'USER_STREAM', 'MARKET_DATA'];

/** TRADE and USER_DATA are SIGNED: they need `signature` (and `timestamp`, checked elsewhere). */
export function isSigned(type: SecurityType): boolean {
  return type === 'TRADE' || type === 'USER_DATA';
}
