/**
 * Replays the op stream through exsim's Engine.
 *
 * Op mapping (exsim has no native move):
 *   GTC place -> PlaceOrder LIMIT GTC
 *   IOC       -> PlaceOrder LIMIT IOC
 *   cancel    -> CancelOrder by orderId
 *   move      -> CancelOrder + PlaceOrder LIMIT GTC at the new price for the remaining quantity
 *                (two engine commands, timed together as one op, like exchange-core's move)
 * The engine assigns order ids, so the adapter maps the stream's order handles to the id from
 * each OrderAccepted (a moved order gets a new id). Every command goes through the full engine:
 * filters, balance locking and settlement, fees (0.1% maker and taker on every fill), event
 * building, like exchange-core's risk + matching path.
 *
 * Commands: one CancelOrder and one PlaceOrder object, refilled for every op, like the command
 * slots of exchange-core's ring buffer (Engine.apply keeps no reference to a command; the peer
 * adapter reuses its argument objects the same way). The events are the engine's own, new ones
 * for every command.
 */
import type { CancelOrder, PlaceOrder } from '../../src/engine/commands.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { BenchTarget } from './bench-target.ts';
import {
  ASSETS,
  BTC_PER_ACCOUNT,
  SYMBOL,
  SYMBOL_CONFIG,
  USDT_PER_ACCOUNT,
  priceUnits,
  quantityUnits,
} from './instrument.ts';
import { OP_CANCEL, OP_MOVE, OP_PLACE_IOC } from './op-stream.ts';
import type { OpStream } from './op-stream.ts';
import { BUY } from './reference-book.ts';

/** Simulated start time, µs (2024-01-01T00:00:00Z); op i runs at START_TIME + 1 + i. */
const START_TIME = 1_704_067_200_000_000;

export class ExsimTarget implements BenchTarget {
  readonly name = 'exsim';
  readonly engine: Engine;
  rejected = 0;
  /** Why ops were refused, by reason (off the hot path: only touched on a refusal). */
  readonly rejectReasons = new Map<string, number>();
  private readonly stream: OpStream;
  // Per-op command fields in engine units, precomputed so the timed loop only builds commands.
  private readonly price: Float64Array;
  private readonly quantity: Float64Array;
  /** Stream handle -> current exsim orderId. */
  private readonly orderIds: Float64Array;
  private readonly cancel: CancelOrder = { type: 'CancelOrder', time: 0, accountId: 0, symbol: SYMBOL, orderId: 0 };
  private readonly place: PlaceOrder = { type: 'PlaceOrder', time: 0, accountId: 0, symbol: SYMBOL, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 0, quantity: 0 };

  constructor(stream: OpStream) {
    this.stream = stream;
    this.engine = new Engine({ assets: ASSETS, symbols: [SYMBOL_CONFIG] });
    this.price = new Float64Array(stream.totalOps);
    this.quantity = new Float64Array(stream.totalOps);
    for (let i = 0; i < stream.totalOps; i++) {
      this.price[i] = priceUnits(stream.tick[i]!);
      this.quantity[i] = quantityUnits(stream.lots[i]!);
    }
    this.orderIds = new Float64Array(stream.handleCount).fill(-1);
    for (let accountId = 1; accountId <= stream.options.accounts; accountId++) {
      const events = this.engine.apply({
        type: 'CreateAccount',
        time: START_TIME,
        accountId,
        balances: { BTC: BTC_PER_ACCOUNT, USDT: USDT_PER_ACCOUNT },
        // The exchange's default 0.1% maker and taker commission: every fill pays fees.
        standardCommission: { maker: 100_000, taker: 100_000, buyer: 0, seller: 0 },
      });
      if (events[0]?.type !== 'AccountCreated') throw new Error(`CreateAccount ${accountId} failed: ${JSON.stringify(events)}`);
    }
  }

  step(i: number): void {
    // Non-null assertions: i is always inside the stream's arrays (the loops guarantee it).
    const s = this.stream;
    const kind = s.kind[i]!;
    const handle = s.handle[i]!;
    const accountId = s.account[i]!;
    const time = START_TIME + 1 + i;
    if (kind === OP_CANCEL || kind === OP_MOVE) {
      const cancel = this.cancel;
      cancel.time = time;
      cancel.accountId = accountId;
      cancel.orderId = this.orderIds[handle]!;
      const canceled = this.engine.apply(cancel);
      const first = canceled[0];
      if (first === undefined || first.type !== 'OrderCanceled') this.refused(first?.type === 'OrderRejected' ? `CancelOrder ${first.reason}` : 'CancelOrder ?');
      if (kind === OP_CANCEL) return;
    }
    const place = this.place;
    place.time = time;
    place.accountId = accountId;
    place.side = s.side[i] === BUY ? 'BUY' : 'SELL';
    place.timeInForce = kind === OP_PLACE_IOC ? 'IOC' : 'GTC';
    place.price = this.price[i]!;
    place.quantity = this.quantity[i]!;
    const placed = this.engine.apply(place);
    const first = placed[0];
    if (first !== undefined && first.type === 'OrderAccepted') this.orderIds[handle] = first.orderId;
    else this.refused(first?.type === 'OrderRejected' ? `PlaceOrder ${first.reason}` : 'PlaceOrder ?');
  }

  private refused(reason: string): void {
    this.rejected++;
    this.rejectReasons.set(reason, (this.rejectReasons.get(reason) ?? 0) + 1);
  }
}
