/**
 * Client order ids the exchange assigns when the client sends none. Real ids look random
 * ("6gCrw2kRUAF9CvJDGP16IP", 22 characters); ours are derived from (symbol, orderId, purpose) by
 * a fixed integer mix, so they look alike, never repeat within a symbol, are identical on every
 * run, and can be decoded back to the orderId: the engine does not need to index them.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const HASH_CHARS = 14;
const ID_CHARS = 8;
const buffer: number[] = new Array(HASH_CHARS + ID_CHARS).fill(0);

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * `purpose` separates the namespaces: 0 = a new order, 1 = a cancel request.
 * The last 8 characters encode the id (base 62), so distinct ids give distinct strings.
 */
export function generateClientOrderId(symbolIndex: number, id: number, purpose: number): string {
  let seed = mix32(symbolIndex * 0x9e3779b1 + purpose * 0x85ebca6b + (id >>> 0));
  // Five base-62 digits per mix: three mixes fill the 14 hash characters.
  let bits = 0;
  for (let i = 0; i < HASH_CHARS; i++) {
    if (i % 5 === 0) {
      seed = mix32(seed + i + 1);
      bits = seed >>> 2; // 30 bits: stays a small integer, and 62^5 < 2^30
    }
    buffer[i] = CODES[bits % 62] as number;
    bits = (bits / 62) | 0;
  }
  let n = id;
  for (let i = HASH_CHARS + ID_CHARS - 1; i >= HASH_CHARS; i--) {
    buffer[i] = CODES[n % 62] as number;
    n = Math.floor(n / 62);
  }
  const b = buffer;
  // Explicit arguments: much cheaper than spreading the buffer through apply().
  return String.fromCharCode(
    b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!, b[8]!, b[9]!, b[10]!,
    b[11]!, b[12]!, b[13]!, b[14]!, b[15]!, b[16]!, b[17]!, b[18]!, b[19]!, b[20]!, b[21]!,
  );
}

/** The orderId a generated new-order id encodes, or null if `text` cannot be one of ours. */
export function decodeGeneratedOrderId(text: string, symbolIndex: number): number | null {
  if (text.length !== HASH_CHARS + ID_CHARS) return null;
  let id = 0;
  for (let i = HASH_CHARS; i < text.length; i++) {
    const digit = ALPHABET.indexOf(text[i] as string);
    if (digit < 0) return null;
    id = id * 62 + digit;
  }
  return id > 0 && generateClientOrderId(symbolIndex, id, 0) === text ? id : null;
}
