/**
 * Client order ids the exchange assigns when the client sends none. The real exchange's are
 * opaque 22-character strings; ours are short, readable and derived from (symbol, orderId,
 * purpose): `exsim<symbolIndex>o<orderId>` for an order, `exsim<symbolIndex>c<orderId>` for a
 * cancel request, `exsim<symbolIndex>l<orderListId>` for an order list. They never repeat within a symbol, are identical on every run, fit the
 * exchange's clientOrderId alphabet, and decode back to the orderId, so the engine never needs
 * to index them. Built from cached parts (see generateClientOrderId), on every order and cancel.
 */

const PREFIX = 'exsim';
const prefixes: string[][] = [];

function prefix(symbolIndex: number, purpose: number): string {
  let perSymbol = prefixes[symbolIndex];
  if (perSymbol === undefined) {
    perSymbol = [`${PREFIX}${symbolIndex}o`, `${PREFIX}${symbolIndex}c`, `${PREFIX}${symbolIndex}l`];
    prefixes[symbolIndex] = perSymbol;
  }
  return perSymbol[purpose] as string;
}

/** The last three digits of an id, zero-padded: '000' .. '999'. */
const LOW_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const HEAD_SLOTS = 256;

/**
 * `prefix + String(id / 1000 | 0)` per (symbol, purpose), direct-mapped by that thousand: ids of
 * one thousand share their head, so most ids cost a table read and one concatenation instead of
 * a number-to-string conversion (~50 ns each, twice per order the matching core moves).
 */
interface HeadCache {
  readonly thousands: Float64Array;
  readonly heads: string[];
}
const headCaches: HeadCache[][] = [];

function headCache(symbolIndex: number, purpose: number): HeadCache {
  let perSymbol = headCaches[symbolIndex];
  if (perSymbol === undefined) {
    perSymbol = [];
    headCaches[symbolIndex] = perSymbol;
  }
  let cache = perSymbol[purpose];
  if (cache === undefined) {
    cache = { thousands: new Float64Array(HEAD_SLOTS).fill(-1), heads: new Array<string>(HEAD_SLOTS).fill('') };
    perSymbol[purpose] = cache;
  }
  return cache;
}

/**
 * `purpose` separates the namespaces: 0 = a new order, 1 = a cancel request, 2 = an order list.
 * The text is exactly `exsim<symbolIndex><o|c|l><id in decimal>`.
 */
export function generateClientOrderId(symbolIndex: number, id: number, purpose: number): string {
  if (!(id >= 1000 && Number.isSafeInteger(id))) return prefix(symbolIndex, purpose) + id;
  const thousand = Math.floor(id / 1000);
  const cache = headCache(symbolIndex, purpose);
  const slot = thousand % HEAD_SLOTS;
  let head: string;
  if (cache.thousands[slot] === thousand) head = cache.heads[slot] as string;
  else {
    head = prefix(symbolIndex, purpose) + thousand;
    cache.thousands[slot] = thousand;
    cache.heads[slot] = head;
  }
  return head + (LOW_DIGITS[id - thousand * 1000] as string);
}

/** The orderId a generated new-order id encodes, or null if `text` cannot be one of ours. */
export function decodeGeneratedOrderId(text: string, symbolIndex: number): number | null {
  const head = prefix(symbolIndex, 0);
  if (!text.startsWith(head)) return null;
  const digits = text.slice(head.length);
  if (!/^[1-9][0-9]{0,15}$/.test(digits)) return null;
  const id = Number(digits);
  return Number.isSafeInteger(id) ? id : null;
}
