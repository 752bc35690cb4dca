/**
 * Orders as typed objects (`ctx.orders`): placement, cancel and queries through the strategy's
 * REST client (the same requests a bot sends, with their latency and rate-limit weight), answered
 * as `Order`s with decimal strings, the average fill price worked out and, for a placement, the
 * fills it took. A refused request throws `RestCallError` with the exchange's code and message.
 * A `tag` on a placement is `ctx.tag(orderId, tag)`: the reason trades.csv shows for the round trip
 * the order opened or closed.
 */
import { Decimal } from 'decimal.js';
import { IndicatorDecimal, type DecimalInput } from './indicators.ts';
import type { OrderType, Side, TimeInForce } from '../engine/index.ts';
import type { StrategyClient } from './strategy.ts';

export interface NewOrder {
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  /** Base quantity (on the step grid: `ctx.symbol(s).roundQty`). */
  readonly quantity?: DecimalInput;
  /** MARKET only: spend (BUY) or receive (SELL) this much of the quote asset instead. */
  readonly quoteOrderQty?: DecimalInput;
  readonly price?: DecimalInput;
  readonly stopPrice?: DecimalInput;
  /** LIMIT types; default GTC for LIMIT, STOP_LOSS_LIMIT and TAKE_PROFIT_LIMIT. */
  readonly timeInForce?: TimeInForce;
  readonly clientOrderId?: string;
  /** The reason trades.csv shows (see the header). */
  readonly tag?: string;
}

export interface OrderFill {
  readonly tradeId: number;
  readonly price: string;
  readonly qty: string;
  readonly commission: string;
  readonly commissionAsset: string;
}

export interface Order {
  readonly symbol: string;
  readonly orderId: number;
  readonly clientOrderId: string;
  readonly side: Side;
  readonly type: OrderType;
  /** NEW, PARTIALLY_FILLED, FILLED, CANCELED, EXPIRED, ... */
  readonly status: string;
  readonly timeInForce: string;
  /** Decimal strings, as the exchange answers them. */
  readonly price: string;
  readonly origQty: string;
  readonly executedQty: string;
  readonly cummulativeQuoteQty: string;
  /** cummulativeQuoteQty / executedQty to 8 decimals (half to even); null before any fill. */
  readonly avgPrice: string | null;
  /** ms: when it was placed (transactTime) or, from a query, its time. */
  readonly time: number;
  /** A placement's own taker fills (empty for a resting order and from queries). */
  readonly fills: readonly OrderFill[];
}

type Answer = Record<string, unknown>;

const text = (x: DecimalInput): string => (typeof x === 'string' ? x : new IndicatorDecimal(x).toFixed());

function orderOf(answer: Answer): Order {
  const executed = new IndicatorDecimal(String(answer.executedQty ?? '0'));
  const quote = new IndicatorDecimal(String(answer.cummulativeQuoteQty ?? '0'));
  return {
    symbol: String(answer.symbol),
    orderId: Number(answer.orderId),
    clientOrderId: String(answer.clientOrderId),
    side: answer.side as Side,
    type: answer.type as OrderType,
    status: String(answer.status),
    timeInForce: String(answer.timeInForce),
    price: String(answer.price),
    origQty: String(answer.origQty),
    executedQty: String(answer.executedQty),
    cummulativeQuoteQty: String(answer.cummulativeQuoteQty),
    avgPrice: executed.isZero() ? null : quote.div(executed).toDecimalPlaces(8, Decimal.ROUND_HALF_EVEN).toFixed(),
    time: Number(answer.transactTime ?? answer.time),
    fills: ((answer.fills as Answer[] | undefined) ?? []).map((f) => ({
      tradeId: Number(f.tradeId),
      price: String(f.price),
      qty: String(f.qty),
      commission: String(f.commission),
      commissionAsset: String(f.commissionAsset),
    })),
  };
}

export class OrderHelper {
  constructor(
    private readonly client: StrategyClient,
    private readonly tag: (orderId: number, reason: string, symbol: string) => void,
  ) {}

  /** Places `request` (newOrderRespType FULL: the answer says how it ended and what it took). */
  async place(request: NewOrder): Promise<Order> {
    const params: Record<string, string> = { symbol: request.symbol, side: request.side, type: request.type, newOrderRespType: 'FULL' };
    if (request.quantity !== undefined) params.quantity = text(request.quantity);
    if (request.quoteOrderQty !== undefined) params.quoteOrderQty = text(request.quoteOrderQty);
    if (request.price !== undefined) params.price = text(request.price);
    if (request.stopPrice !== undefined) params.stopPrice = text(request.stopPrice);
    const timeInForce = request.timeInForce ?? (request.type === 'LIMIT' || request.type === 'STOP_LOSS_LIMIT' || request.type === 'TAKE_PROFIT_LIMIT' ? 'GTC' : undefined);
    if (timeInForce !== undefined) params.timeInForce = timeInForce;
    if (request.clientOrderId !== undefined) params.newClientOrderId = request.clientOrderId;
    const order = orderOf(await this.client.post<Answer>('/api/v3/order', params));
    if (request.tag !== undefined) this.tag(order.orderId, request.tag, order.symbol);
    return order;
  }

  /** A MARKET order for `quantity` of the base asset. */
  market(symbol: string, side: Side, quantity: DecimalInput, tag?: string): Promise<Order> {
    return this.place({ symbol, side, type: 'MARKET', quantity, ...(tag === undefined ? {} : { tag }) });
  }

  /** A LIMIT order (GTC unless said otherwise); `postOnly` makes it LIMIT_MAKER (refused if it would take). */
  limit(symbol: string, side: Side, quantity: DecimalInput, price: DecimalInput, options: { readonly timeInForce?: TimeInForce; readonly postOnly?: boolean; readonly tag?: string } = {}): Promise<Order> {
    if (options.postOnly === true) return this.place({ symbol, side, type: 'LIMIT_MAKER', quantity, price, ...(options.tag === undefined ? {} : { tag: options.tag }) });
    return this.place({ symbol, side, type: 'LIMIT', quantity, price, timeInForce: options.timeInForce ?? 'GTC', ...(options.tag === undefined ? {} : { tag: options.tag }) });
  }

  /** Cancels an open order; the answer is the order as canceled. */
  async cancel(symbol: string, orderId: number): Promise<Order> {
    const answer = await this.client.delete<Answer>('/api/v3/order', { symbol, orderId });
    return orderOf({ ...answer, clientOrderId: answer.origClientOrderId });
  }

  /** The order as it stands. */
  async get(symbol: string, orderId: number): Promise<Order> {
    return orderOf(await this.client.get<Answer>('/api/v3/order', { symbol, orderId }));
  }

  /** The account's open orders of `symbol`. */
  async open(symbol: string): Promise<Order[]> {
    return (await this.client.get<Answer[]>('/api/v3/openOrders', { symbol })).map(orderOf);
  }
}
