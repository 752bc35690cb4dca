/**
 * Which USDⓈ-M orders were priced by `priceMatch` (OPPONENT…, QUEUE…): the facade takes the price
 * from the book at placement (or modify) and the engine keeps a plain LIMIT order, so the mode the
 * answers and the stream show (`priceMatch`, `pm`) is kept here, per engine symbol and order id.
 * Append-only rows; the served exchange journals them (facade-state.ts).
 */
export type PriceMatchRow = [symbol: string, orderId: number, mode: string];

export class FuturesPriceMatches {
  readonly #modes = new Map<string, string>();
  readonly #rows: PriceMatchRow[] = [];
  #taken = 0;
  /** A placement priced by a mode, sent and not yet accepted: bound to the order it creates. */
  #pending: { readonly accountId: number; readonly symbol: string; readonly mode: string } | undefined;

  /**
   * The next order the account places on `symbol` was priced by `mode` (set just before its
   * PlaceOrder is sent; `bind` ties it to the order id when the batch is published, before any
   * answer or stream event is made of it; `clear` after the send, accepted or not).
   */
  expect(accountId: number, symbol: string, mode: string): void {
    this.#pending = { accountId, symbol, mode };
  }

  clear(): void {
    this.#pending = undefined;
  }

  /** Binds the pending mode to the order a batch accepted (ExchangeContext, before publishing). */
  bind(events: readonly { readonly type: string }[]): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    for (const e of events) {
      if (e.type !== 'OrderAccepted') continue;
      const accepted = e as unknown as { accountId: number; symbol: string; orderId: number };
      if (accepted.accountId === pending.accountId && accepted.symbol === pending.symbol) {
        this.set(accepted.symbol, accepted.orderId, pending.mode);
        this.#pending = undefined;
        return;
      }
    }
  }

  /** Records (or replaces, on a modify) an order's mode. */
  set(symbol: string, orderId: number, mode: string): void {
    this.#modes.set(`${symbol}:${orderId}`, mode);
    this.#rows.push([symbol, orderId, mode]);
  }

  /** The order's mode, NONE when it was priced by the client. */
  modeOf(symbol: string, orderId: number): string {
    return this.#modes.get(`${symbol}:${orderId}`) ?? 'NONE';
  }

  all(): PriceMatchRow[] {
    return this.#rows.map((r) => [...r] as PriceMatchRow);
  }

  /** Rows added since the last call. */
  takeNew(): PriceMatchRow[] {
    const rows = this.#rows.slice(this.#taken).map((r) => [...r] as PriceMatchRow);
    this.#taken = this.#rows.length;
    return rows;
  }

  restore(rows: readonly PriceMatchRow[]): void {
    this.#modes.clear();
    this.#rows.length = 0;
    for (const [symbol, orderId, mode] of rows) this.set(symbol, orderId, mode);
    this.#taken = this.#rows.length;
  }
}

/**
 * The price of a mode from the book, price units: OPPONENT_n the n-th best level of the other
 * side, QUEUE_n of the order's own side (n = 1 without a suffix); the deepest level there is when
 * the book is shallower (**chosen**); undefined when that side is empty.
 */
export function priceOfMatch(book: { readonly bids: readonly (readonly [number, number])[]; readonly asks: readonly (readonly [number, number])[] }, side: 'BUY' | 'SELL', mode: string): number | undefined {
  const opponent = mode.startsWith('OPPONENT');
  const n = Number(mode.split('_')[1] ?? '1');
  const levels = (side === 'BUY') === opponent ? book.asks : book.bids;
  if (levels.length === 0) return undefined;
  return levels[Math.min(n, levels.length) - 1]![0];
}
