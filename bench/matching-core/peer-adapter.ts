/**
 * Replays the op stream through nodejs-order-book (the npm peer, v10.1.1).
 *
 * Op mapping (the peer's own API wherever it has one):
 *   GTC place -> book.limit({ id, side, size, price, timeInForce: 'GTC' })
 *   IOC       -> book.limit({ ..., timeInForce: 'IOC' })
 *   cancel    -> book.cancel(id)
 *   move      -> book.modify(id, { price }) (the peer's own replace: cancel + re-insert at the
 *                back of the new price's queue with the remaining size, matching if it crosses;
 *                the same semantics as exsim's cancel + place)
 * The peer is a bare book: no accounts, balances, fees, filters, clock or event objects (it
 * returns a result object per call). Ids are strings, built before timing. Prices and sizes are
 * the same integer units exsim gets, so its float arithmetic stays exact. The argument objects
 * (limit's options, modify's update) are one of each, refilled for every op, as the exsim
 * adapter does with its commands (the peer copies what it needs; its journaling is off).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { OrderBook, Side } from 'nodejs-order-book';
import type { LimitOrderOptions } from 'nodejs-order-book';
import type { BenchTarget } from './bench-target.ts';
import { priceUnits, quantityUnits } from './instrument.ts';
import { OP_CANCEL, OP_MOVE, OP_PLACE_IOC } from './op-stream.ts';
import type { OpStream } from './op-stream.ts';
import { BUY } from './reference-book.ts';

type PeerTimeInForce = NonNullable<LimitOrderOptions['timeInForce']>;
// The package exports the TimeInForce enum only as a type; its runtime values are these strings.
const GTC = 'GTC' as PeerTimeInForce;
const IOC = 'IOC' as PeerTimeInForce;

export const PEER_VERSION: string = (() => {
  const require = createRequire(import.meta.url);
  const manifest = JSON.parse(readFileSync(require.resolve('nodejs-order-book/package.json'), 'utf8')) as { version?: unknown };
  return typeof manifest.version === 'string' ? manifest.version : 'unknown';
})();

export class PeerTarget implements BenchTarget {
  readonly name = `nodejs-order-book ${PEER_VERSION}`;
  readonly book = new OrderBook();
  rejected = 0;
  private readonly stream: OpStream;
  private readonly price: Float64Array;
  private readonly size: Float64Array;
  /** Stream handle -> peer order id (the peer keeps the id across a modify). */
  private readonly ids: string[];
  private readonly limitOptions: LimitOrderOptions = { id: '', side: Side.BUY, size: 0, price: 0, timeInForce: GTC };
  private readonly update: { price: number } = { price: 0 };

  constructor(stream: OpStream) {
    this.stream = stream;
    this.price = new Float64Array(stream.totalOps);
    this.size = new Float64Array(stream.totalOps);
    for (let i = 0; i < stream.totalOps; i++) {
      this.price[i] = priceUnits(stream.tick[i]!);
      this.size[i] = quantityUnits(stream.lots[i]!);
    }
    this.ids = new Array<string>(stream.handleCount);
    for (let h = 0; h < stream.handleCount; h++) this.ids[h] = `o${h}`;
  }

  step(i: number): void {
    const s = this.stream;
    const kind = s.kind[i]!;
    const id = this.ids[s.handle[i]!]!;
    if (kind === OP_CANCEL) {
      if (this.book.cancel(id) === undefined) this.rejected++;
      return;
    }
    if (kind === OP_MOVE) {
      const update = this.update;
      update.price = this.price[i]!;
      if (this.book.modify(id, update).err !== null) this.rejected++;
      return;
    }
    const options = this.limitOptions;
    options.id = id;
    options.side = s.side[i] === BUY ? Side.BUY : Side.SELL;
    options.size = this.size[i]!;
    options.price = this.price[i]!;
    options.timeInForce = kind === OP_PLACE_IOC ? IOC : GTC;
    const result = this.book.limit(options);
    if (result.err !== null) this.rejected++;
  }
}
