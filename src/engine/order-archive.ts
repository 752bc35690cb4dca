/**
 * Closed orders, kept for queries (GET order, allOrders) in typed-array columns instead of as
 * objects. A long run closes millions of orders; as objects they would be promoted and traced by
 * the garbage collector forever (measured: it doubled the cost of a place/cancel). As columns
 * they cost ~76 bytes each (a 72-byte row of numbers and codes, a 4-byte index entry) and
 * nothing at collection time.
 *
 * Rows are appended as orders close and found by orderId through an index (ids are dense per
 * symbol), both in fixed-size chunks: growing never copies (copying a doubled array touches fresh
 * pages, and the page faults were most of the cost). Client order ids are stored only when the
 * client chose them; generated ones are re-derived (client-order-id.ts).
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
  'REDUCE_ONLY_KNOCKED_OUT',
  'ACCOUNT_LIQUIDATION',
];
const STP: readonly SelfTradePreventionMode[] = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER'];

// The codes are the values' indexes in the arrays above (checked once below). Written as
// switches: string-keyed lookups on a table of codes were generic (megamorphic) property loads,
// five of them for every order archived.
function typeCode(type: OrderType): number {
  switch (type) {
    case 'LIMIT':
      return 0;
    case 'LIMIT_MAKER':
      return 1;
    case 'MARKET':
      return 2;
    case 'STOP_LOSS':
      return 3;
    case 'STOP_LOSS_LIMIT':
      return 4;
    case 'TAKE_PROFIT':
      return 5;
    case 'TAKE_PROFIT_LIMIT':
      return 6;
  }
}

function tifCode(tif: TimeInForce): number {
  return tif === 'GTC' ? 0 : tif === 'IOC' ? 1 : 2;
}

function statusCode(status: OrderStatus): number {
  switch (status) {
    case 'NEW':
      return 1;
    case 'PARTIALLY_FILLED':
      return 2;
    case 'FILLED':
      return 3;
    case 'CANCELED':
      return 4;
    case 'EXPIRED':
      return 5;
    case 'EXPIRED_IN_MATCH':
      return 6;
    case 'PENDING_NEW':
      return 7;
  }
}

function expiryCode(reason: ExpiryReason): number {
  switch (reason) {
    case 'NONE':
      return 0;
    case 'UNFILLED_IOC_QUANTITY_EXPIRED':
      return 1;
    case 'UNFILLED_FOK_ORDER_EXPIRED':
      return 2;
    case 'INSUFFICIENT_LIQUIDITY':
      return 3;
    case 'EXCHANGE_CANCELED':
      return 4;
    case 'OCO_TRIGGER':
      return 5;
    case 'OTO_PHASE_ONE_EXPIRED':
      return 6;
    case 'REJECTED':
      return 7;
    case 'EXECUTION_RULE_PRICE_RANGE_EXCEEDED':
      return 8;
    case 'REDUCE_ONLY_KNOCKED_OUT':
      return 9;
    case 'ACCOUNT_LIQUIDATION':
      return 10;
  }
}

function stpCode(mode: SelfTradePreventionMode): number {
  switch (mode) {
    case 'NONE':
      return 0;
    case 'EXPIRE_TAKER':
      return 1;
    case 'EXPIRE_MAKER':
      return 2;
    case 'EXPIRE_BOTH':
      return 3;
    case 'DECREMENT':
      return 4;
    case 'TRANSFER':
      return 5;
  }
}

for (const [values, code] of [
  [ORDER_TYPES, typeCode],
  [TIFS, tifCode],
  [STATUSES, statusCode],
  [EXPIRY, expiryCode],
  [STP, stpCode],
] as [readonly (string | null)[], (value: never) => number][]) {
  values.forEach((value, i) => {
    if (value !== null && code(value as never) !== i) throw new Error(`order archive: code of ${value} is not ${i}`);
  });
}

// One row per archived order, appended in the order they close: 8 doubles, then the 6 byte
// codes in a ninth double's place. Fields that are almost always at their default (prevented
// quantity, quoteOrderQty, preventedMatchId, strategy labels) live in a side map, only for the
// orders that have them.
const ACCOUNT = 0;
const PRICE = 1;
const ORIG = 2;
const EXECUTED = 3;
const CUM_QUOTE = 4;
const TIME = 5;
const UPDATE_TIME = 6;
const WORKING_TIME = 7;
const STRIDE = 9; // doubles per row
const ROW_BYTES = STRIDE * 8;
const CODES = 8 * 8; // byte offset of the codes in a row

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
// Byte codes, at CODES in the row.
const SIDE = 0;
const TYPE = 1;
const TIF = 2;
const STATUS = 3;
const EXPIRY_REASON = 4;
const STP_MODE = 5;
const ROW_BITS = 14;
const ROWS = 1 << ROW_BITS; // rows per chunk (1.2 MB)
const ROW_MASK = ROWS - 1;
const ID_BITS = 15;
const IDS = 1 << ID_BITS; // orderIds per index chunk (128 kB)
const ID_MASK = IDS - 1;

/**
 * Rows are written in the order orders close, one after the other, and found through an index
 * by orderId (row + 1, 0 for none). Orders close in an order of their own (a resting order lives
 * until it is moved or filled), so rows placed by orderId were written all over the recent part
 * of the archive, each to a cache line nothing had touched yet; appended, they stream into memory
 * behind each other, and the scattered writes are 4-byte index entries, 16 to a cache line.
 */
export class OrderArchive {
  /** Row chunks: the numbers, and the same memory as bytes for the codes. */
  #rows: Float64Array[] = [];
  #codes: Uint8Array[] = [];
  /** Index chunks by orderId - 1: row + 1. */
  #rowOf: Int32Array[] = [];
  #chosenClientIds = new Map<number, string>();
  #rare = new Map<number, RareFields>();
  #count = 0;

  constructor(readonly symbolIndex: number) {}

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): unknown[] {
    return [this.symbolIndex, this.#rows, this.#rowOf, this.#chosenClientIds, this.#rare, this.#count];
  }

  static importFields(fields: unknown[]): OrderArchive {
    const archive = new OrderArchive(fields[0] as number);
    archive.#rows = fields[1] as Float64Array[];
    archive.#codes = archive.#rows.map((rows) => new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength));
    archive.#rowOf = fields[2] as Int32Array[];
    archive.#chosenClientIds = fields[3] as Map<number, string>;
    archive.#rare = fields[4] as Map<number, RareFields>;
    archive.#count = fields[5] as number;
    return archive;
  }

  get count(): number {
    return this.#count;
  }

  store(order: Order, clientChosen: boolean): void {
    const row = this.#count;
    const chunk = row >>> ROW_BITS;
    if (chunk === this.#rows.length) {
      const buffer = new ArrayBuffer(ROWS * ROW_BYTES);
      this.#rows.push(new Float64Array(buffer));
      this.#codes.push(new Uint8Array(buffer));
    }
    const n = this.#rows[chunk] as Float64Array;
    const o = (row & ROW_MASK) * STRIDE;
    n[o + ACCOUNT] = order.account.accountId;
    n[o + PRICE] = order.priceTicks;
    n[o + ORIG] = order.origSteps;
    n[o + EXECUTED] = order.executedSteps;
    n[o + CUM_QUOTE] = order.cumQuote;
    n[o + TIME] = order.time;
    n[o + UPDATE_TIME] = order.updateTime;
    n[o + WORKING_TIME] = order.workingTime;
    const b = this.#codes[chunk] as Uint8Array;
    const ob = (row & ROW_MASK) * ROW_BYTES + CODES;
    b[ob + SIDE] = order.isBuy ? 1 : 0;
    b[ob + TYPE] = typeCode(order.type);
    b[ob + TIF] = tifCode(order.timeInForce);
    b[ob + STATUS] = statusCode(order.status);
    b[ob + EXPIRY_REASON] = expiryCode(order.expiryReason);
    b[ob + STP_MODE] = stpCode(order.stpMode);
    const i = order.orderId - 1;
    const k = i >>> ID_BITS;
    while (this.#rowOf.length <= k) this.#rowOf.push(new Int32Array(IDS));
    (this.#rowOf[k] as Int32Array)[i & ID_MASK] = row + 1;
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
    if (clientChosen) this.#chosenClientIds.set(order.orderId, order.clientOrderId);
    this.#count = row + 1;
  }

  /** The row of an archived order, or -1. */
  #row(orderId: number): number {
    const i = orderId - 1;
    if (!(i >= 0 && i <= 0xffffffff)) return -1;
    const index = this.#rowOf[i >>> ID_BITS];
    return index === undefined ? -1 : (index[i & ID_MASK] as number) - 1;
  }

  has(orderId: number): boolean {
    return this.#row(orderId) >= 0;
  }

  accountIdOf(orderId: number): number {
    const row = this.#row(orderId);
    return (this.#rows[row >>> ROW_BITS] as Float64Array)[(row & ROW_MASK) * STRIDE + ACCOUNT] as number;
  }

  /** Executed steps of an archived order (`has` must be true). */
  executedStepsOf(orderId: number): number {
    const row = this.#row(orderId);
    return (this.#rows[row >>> ROW_BITS] as Float64Array)[(row & ROW_MASK) * STRIDE + EXECUTED] as number;
  }

  clientOrderIdOf(orderId: number): string {
    return this.#chosenClientIds.get(orderId) ?? generateClientOrderId(this.symbolIndex, orderId, 0);
  }

  get(orderId: number): OrderRecord | undefined {
    const row = this.#row(orderId);
    if (row < 0) return undefined;
    const o = (row & ROW_MASK) * STRIDE;
    const ob = (row & ROW_MASK) * ROW_BYTES + CODES;
    const n = this.#rows[row >>> ROW_BITS] as Float64Array;
    const b = this.#codes[row >>> ROW_BITS] as Uint8Array;
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
