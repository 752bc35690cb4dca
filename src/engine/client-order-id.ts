/**
 * Client order ids the exchange assigns when the client sends none. Real ids look random
 * ("6gCrw2kRUAF9CvJDGP16IP", 22 characters); ours are derived from (symbol, orderId, purpose) by
 * a fixed integer mix, so they look alike, never repeat within a symbol, and are identical on
 * every run.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * `purpose` separates the namespaces: 0 = a new order, 1 = a cancel request.
 * The last 8 characters encode the id itself, so distinct ids give distinct strings.
 */
export function generateClientOrderId(symbolIndex: number, id: number, purpose: number): string {
  let out = '';
  let seed = mix32(symbolIndex * 0x9e3779b1 + purpose * 0x85ebca6b + (id >>> 0));
  for (let i = 0; i < 14; i++) {
    seed = mix32(seed + i + 1);
    out += ALPHABET[seed % 62];
  }
  // Fixed-width base-62 of the id (covers ids below 62^8 ≈ 2.2e14).
  let n = id;
  let tail = '';
  for (let i = 0; i < 8; i++) {
    tail = ALPHABET[n % 62] + tail;
    n = Math.floor(n / 62);
  }
  return out + tail;
}
