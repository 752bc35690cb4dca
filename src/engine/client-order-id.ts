/**
 * Client order ids the exchange assigns when the client sends none. The real exchange's are
 * opaque 22-character strings; ours are short, readable and derived from (symbol, orderId,
 * purpose): `exsim<symbolIndex>o<orderId>` for an order, `exsim<symbolIndex>c<orderId>` for a
 * cancel request, `exsim<symbolIndex>l<orderListId>` for an order list. They never repeat within a symbol, are identical on every run, fit the
 * exchange's clientOrderId alphabet, and decode back to the orderId, so the engine never needs
 * to index them. Built from a cached prefix and a number: a few ns, on every order.
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

/** `purpose` separates the namespaces: 0 = a new order, 1 = a cancel request, 2 = an order list. */
export function generateClientOrderId(symbolIndex: number, id: number, purpose: number): string {
  return prefix(symbolIndex, purpose) + id;
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
