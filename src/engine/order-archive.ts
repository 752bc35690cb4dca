/**
 * Closed orders, kept for queries (GET order, allOrders) in typed-array columns instead of as
 * objects. A long run closes millions of orders; as objects they would be promoted and traced by
 * the garbage collector forever (measured: it doubled the cost of a place/cancel). As columns
 * they cost ~70 bytes each (one cache line of numbers, six bytes of codes) and nothing at
 * collection time.
 *
 * Indexed by orderId - 1 (ids are dense per symbol), in fixed-size chunks: growing never copies
 * (copying a doubled array touches fresh pages, and the page faults were most of the cost).
 * Client order ids are stored only when the client chose them; generated ones are re-derived
 * (client-order-id.ts).
 */
import { generateClientOrderId } from './client-order-id.ts';
import type { Order } from './order.ts';
import type {
  ExpiryReason,
  PegPriceType,
  OrderStatus,
  OrderType,
  SelfTradePreventionMode,
  TimeInForce,
} from './types.ts';

/** Every field of an order a query can ask for, in engine units (ticks, steps). */
export interface OrderRecord {
  orderId: number;
  clientOrderId: string;
  accountId: number;
  isBuy: boolean;
  type: OrderType;
  timeInForce: TimeInForce;
  priceTicks: number;
  origSteps: number;
  executedSteps: number;
  preventedSteps: number;
  cumQuote: number;
  quoteOrderQty: number;
  status: OrderStatus;
  expiryReason: ExpiryReason;
  time: number;
  updateTime: number;
  workingTime: number;
  stpMode: SelfTradePreventionMode;
  preventedMatchId: number;
  strategyId: number | null;
  strategyType: number | null;
  locked: number;
  orderListId: number;
  isWorking: boolean;
  /** Conditional fields (stops, trailing, iceberg, peg, SOR, amendments); null for plain orders. */
  extras: ExtrasRecord | null;
}

export interface ExtrasRecord {
  stopPrice: number;
  trailingDelta: number;
  trailingTime: number;
  icebergSteps: number;
  pegPriceType: PegPriceType | null;
  pegOffsetValue: number;
  peggedTicks: number;
  usedSor: boolean;
  amendCount: number;
}

function extrasRecordOf(order: Order): ExtrasRecord | null {
  const ext = order.ext;
  if (ext === null) return null;
  return {
    stopPrice: ext.stopPrice,
    trailingDelta: ext.trailingDelta,
    trailingTime: ext.trailingTime,
    icebergSteps: ext.icebergSteps,
    pegPriceType: ext.pegPriceType,
    pegOffsetValue: ext.pegOffsetValue,
    peggedTicks: ext.peggedTicks,
    usedSor: ext.usedSor,
    amendCount: ext.amendCount,
  };
}

const ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
const TIFS: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];
// Index 0 means "not archived".
const STATUSES: readonly (OrderStatus | null)[] = [null, 'NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'PENDING_NEW'];
const EXPIRY: readonly ExpiryReason[] = [
  'NONE',
  'UNFILLED_IOC_QUANTITY_EXPIRED',
  'UNFILLED_FOK_ORDER_EXPIRED',
  'INSUFFICIENT_LIQUIDITY',
  'EXCHANGE_CANCELED',
  'OCO_TRIGGER',
  'OTO_PHASE_ONE_EXPIRED',
  'REJECTED',
  'EXECUTION_RULE_PRICE_RANGE_EXCEEDED',
];
const STP: readonly SelfTradePreventionMode[] = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER'];

function codes<T extends string>(values: readonly (T | null)[]): Readonly<Record<T, number>> {
  const out = {} as Record<T, number>;
  values.forEach((v, i) => {
    if (v !== null) out[v] = i;
  });
  return out;
}
const TYPE_CODE = codes(ORDER_TYPES);
const TIF_CODE = codes(TIFS);
const STATUS_CODE = codes(STATUSES);
const EXPIRY_CODE = codes(EXPIRY);
const STP_CODE = codes(STP);

// Numeric columns, row-major: 8 doubles, one cache line per order. Fields that are almost
// always at their default (prevented quantity, quoteOrderQty, preventedMatchId, strategy
// labels) live in a side map, only for the orders that have them.
const ACCOUNT = 0;
const PRICE = 1;
const ORIG = 2;
const EXECUTED = 3;
const CUM_QUOTE = 4;
const TIME = 5;
const UPDATE_TIME = 6;
const WORKING_TIME = 7;
const STRIDE = 8;

interface RareFields {
  preventedSteps: number;
  quoteOrderQty: number;
  preventedMatchId: number;
  strategyId: number | null;
  strategyType: number | null;
  orderListId: number;
  isWorking: boolean;
  extras: ExtrasRecord | null;
}
// Byte columns, row-major in one Uint8Array.
const SIDE = 0;
const TYPE = 1;
const TIF = 2;
const STATUS = 3;
const EXPIRY_REASON = 4;
const STP_MODE = 5;
const BYTE_STRIDE = 6;
const CHUNK_BITS = 15;
const CHUNK = 1 << CHUNK_BITS; // orders per chunk
const CHUNK_MASK = CHUNK - 1;

export class OrderArchive {
  #num: Float64Array[] = [];
  #bytes: Uint8Array[] = [];
  #chosenClientIds = new Map<number, string>();
  #rare = new Map<number, RareFields>();
  #count = 0;

  constructor(readonly symbolIndex: number) {}

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): unknown[] {
    return [this.symbolIndex, this.#num, this.#bytes, this.#chosenClientIds, this.#rare, this.#count];
  }

  static importFields(fields: unknown[]): OrderArchive {
    const archive = new OrderArchive(fields[0] as number);
    archive.#num = fields[1] as Float64Array[];
    archive.#bytes = fields[2] as Uint8Array[];
    archive.#chosenClientIds = fields[3] as Map<number, string>;
    archive.#rare = fields[4] as Map<number, RareFields>;
    archive.#count = fields[5] as number;
    return archive;
  }

  get count(): number {
    return this.#count;
  }

  store(order: Order, clientChosen: boolean): void {
    const i = order.orderId - 1;
    const chunk = i >>> CHUNK_BITS;
    while (this.#num.length <= chunk) {
      this.#num.push(new Float64Array(CHUNK * STRIDE));
      this.#bytes.push(new Uint8Array(CHUNK * BYTE_STRIDE));
    }
    const n = this.#num[chunk] as Float64Array;
    const o = (i & CHUNK_MASK) * STRIDE;
    n[o + ACCOUNT] = order.account.accountId;
    n[o + PRICE] = order.priceTicks;
    n[o + ORIG] = order.origSteps;
    n[o + EXECUTED] = order.executedSteps;
    n[o + CUM_QUOTE] = order.cumQuote;
    n[o + TIME] = order.time;
    n[o + UPDATE_TIME] = order.updateTime;
    n[o + WORKING_TIME] = order.workingTime;
    if (
      order.preventedSteps !== 0 ||
      order.quoteOrderQty !== 0 ||
      order.preventedMatchId !== -1 ||
      order.strategyId !== null ||
      order.strategyType !== null ||
      order.ext !== null
    ) {
      this.#rare.set(order.orderId, {
        preventedSteps: order.preventedSteps,
        quoteOrderQty: order.quoteOrderQty,
        preventedMatchId: order.preventedMatchId,
        strategyId: order.strategyId,
        strategyType: order.strategyType,
        orderListId: order.orderListId,
        isWorking: order.isWorking,
        extras: extrasRecordOf(order),
      });
    }
    const b = this.#bytes[chunk] as Uint8Array;
    const ob = (i & CHUNK_MASK) * BYTE_STRIDE;
    b[ob + SIDE] = order.isBuy ? 1 : 0;
    b[ob + TYPE] = TYPE_CODE[order.type];
    b[ob + TIF] = TIF_CODE[order.timeInForce];
    b[ob + STATUS] = STATUS_CODE[order.status];
    b[ob + EXPIRY_REASON] = EXPIRY_CODE[order.expiryReason];
    b[ob + STP_MODE] = STP_CODE[order.stpMode];
    if (clientChosen) this.#chosenClientIds.set(order.orderId, order.clientOrderId);
    this.#count += 1;
  }

  has(orderId: number): boolean {
    const i = orderId - 1;
    if (!(i >= 0)) return false;
    const bytes = this.#bytes[i >>> CHUNK_BITS];
    return bytes !== undefined && bytes[(i & CHUNK_MASK) * BYTE_STRIDE + STATUS] !== 0;
  }

  accountIdOf(orderId: number): number {
    const i = orderId - 1;
    return (this.#num[i >>> CHUNK_BITS] as Float64Array)[(i & CHUNK_MASK) * STRIDE + ACCOUNT] as number;
  }

  clientOrderIdOf(orderId: number): string {
    return this.#chosenClientIds.get(orderId) ?? generateClientOrderId(this.symbolIndex, orderId, 0);
  }

  get(orderId: number): OrderRecord | undefined {
    if (!this.has(orderId)) return undefined;
    const i = orderId - 1;
    const o = (i & CHUNK_MASK) * STRIDE;
    const ob = (i & CHUNK_MASK) * BYTE_STRIDE;
    const n = this.#num[i >>> CHUNK_BITS] as Float64Array;
    const b = this.#bytes[i >>> CHUNK_BITS] as Uint8Array;
    const rare = this.#rare.get(orderId);
    return {
      orderId,
      clientOrderId: this.clientOrderIdOf(orderId),
      accountId: n[o + ACCOUNT] as number,
      isBuy: b[ob + SIDE] === 1,
      type: ORDER_TYPES[b[ob + TYPE] as number] as OrderType,
      timeInForce: TIFS[b[ob + TIF] as number] as TimeInForce,
      priceTicks: n[o + PRICE] as number,
      origSteps: n[o + ORIG] as number,
      executedSteps: n[o + EXECUTED] as number,
      preventedSteps: rare?.preventedSteps ?? 0,
      cumQuote: n[o + CUM_QUOTE] as number,
      quoteOrderQty: rare?.quoteOrderQty ?? 0,
      status: STATUSES[b[ob + STATUS] as number] as OrderStatus,
      expiryReason: EXPIRY[b[ob + EXPIRY_REASON] as number] as ExpiryReason,
      time: n[o + TIME] as number,
      updateTime: n[o + UPDATE_TIME] as number,
      workingTime: n[o + WORKING_TIME] as number,
      stpMode: STP[b[ob + STP_MODE] as number] as SelfTradePreventionMode,
      preventedMatchId: rare?.preventedMatchId ?? -1,
      strategyId: rare?.strategyId ?? null,
      strategyType: rare?.strategyType ?? null,
      locked: 0,
      orderListId: rare?.orderListId ?? -1,
      isWorking: rare?.isWorking ?? true,
      extras: rare?.extras ?? null,
    };
  }
}

/** The record of a live order (same shape as an archived one). */
export function recordOf(order: Order): OrderRecord {
  return {
    orderId: order.orderId,
    clientOrderId: order.clientOrderId,
    accountId: order.account.accountId,
    isBuy: order.isBuy,
    type: order.type,
    timeInForce: order.timeInForce,
    priceTicks: order.priceTicks,
    origSteps: order.origSteps,
    executedSteps: order.executedSteps,
    preventedSteps: order.preventedSteps,
    cumQuote: order.cumQuote,
    quoteOrderQty: order.quoteOrderQty,
    status: order.status,
    expiryReason: order.expiryReason,
    time: order.time,
    updateTime: order.updateTime,
    workingTime: order.workingTime,
    stpMode: order.stpMode,
    preventedMatchId: order.preventedMatchId,
    strategyId: order.strategyId,
    strategyType: order.strategyType,
    locked: order.locked,
    orderListId: order.orderListId,
    isWorking: order.isWorking,
    extras: extrasRecordOf(order),
  };
}
