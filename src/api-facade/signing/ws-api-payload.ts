/**
 * The string a WebSocket API client signs (web-socket-api.md, "SIGNED request example"): every
 * request parameter except `signature`, sorted by name, written `name=value` and joined with `&`.
 * Unlike REST there are no raw bytes to sign: the parameters arrive as a JSON object, so the
 * payload is rebuilt from its values.
 *
 * Rules:
 * - Names sort by UTF-16 code unit (Array.prototype.sort, what the official SDKs use; for the
 *   ASCII names the API has, the same as byte order).
 * - Values: a string as is, a number by its JSON text, true/false, an array or object by its
 *   JSON text (`symbols=["BTCUSDT","BNBBTC"]`, how both official Node SDKs write one), null empty.
 * - The docs sign the values as they are, in UTF-8 (`symbol=１２３４５６`); the official Node SDKs
 *   (@binance/connector, @binance/spot) percent-encode each value first (encodeURIComponent).
 *   Both are the same string for the usual ASCII values; where they differ, a signature over
 *   either form is accepted (a choice: neither form is weaker, both name the same parameters).
 * - Payloads are returned as "binary strings" (one char per UTF-8 byte), the form the verifiers
 *   in this folder hash.
 */

/** The forms a client may have signed, the documented one first; one entry when they coincide. */
export function wsApiSignaturePayloads(params: Readonly<Record<string, unknown>>): readonly string[] {
  const names = Object.keys(params)
    .filter((name) => name !== 'signature')
    .sort();
  let plain = '';
  let encoded = '';
  for (const name of names) {
    const value = valueText(params[name]);
    const sep = plain === '' ? '' : '&';
    plain += `${sep}${name}=${value}`;
    encoded += `${sep}${name}=${percentEncoded(value)}`;
  }
  const plainBytes = Buffer.from(plain, 'utf8').toString('latin1');
  return plain === encoded ? [plainBytes] : [plainBytes, encoded];
}

/** encodeURIComponent, with a lone surrogate (which it refuses) kept as is: that form then simply fails. */
function percentEncoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A parameter value as it is written in the payload and read by the parameter parser. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
