/**
 * Runs the USDⓈ-M algo order book (src/futures/trading/algo-orders.ts) against the engine: every
 * batch of engine events the facade publishes (its own commands, the replay's market fills and
 * market events) moves the book — a mark (MarkPriceChanged) feeds MARK_PRICE orders, a trade or
 * print on the margin symbol feeds CONTRACT_PRICE orders — and each order that fires is placed
 * as an engine order (LIMIT at `price` for STOP / TAKE_PROFIT, MARKET for the others; reduce-only
 * and sized to the whole position for closePosition), with ALGO_UPDATE on the account's futures
 * stream at each status: TRIGGERING, then TRIGGERED or REJECTED (`rm` the engine's reason), then
 * FINISHED once the engine order is done; CANCELED and EXPIRED likewise.
 *
 * Orders fired while an earlier one is being placed (its fills move the price) wait in a queue and
 * are placed in order after it: no recursion, the same sequence on every run.
 * GTD orders still waiting at their goodTillDate expire before a batch's prices move the book.
 * priceProtect: with every price the driver hands the book the mark-vs-last deviation against the
 * symbol's triggerProtect (the price seen is one of the two; the other is the engine's mark,
 * futuresMarkPrice, or its last trade on the margin symbol, lastTrade).
 * The book is journaled by the served exchange (facade-state.ts).
 */
import { type EngineEvent, type EngineQueries, type OrderRejected, type OrderAccepted, fapiSymbolOf } from '../../engine/index.ts';
import { fapiErrorOf } from '../../futures/index.ts';
import { AlgoOrderBook, deviationPpm, protectPpm, type AlgoOrder, type TriggerProtection, type WorkingType } from '../../futures/index.ts';
import { apiTime, gridDecimals, onGrid, type TimeUnit } from '../serialize/index.ts';
import type { UserStreamHub } from '../streams/index.ts';
import type { FacadeCommand } from '../core/index.ts';

/** What the driver needs of the context: apply (publishing the batch) and the futures stream. */
export interface AlgoHost {
  readonly engine: EngineQueries;
  apply(command: FacadeCommand): readonly EngineEvent[];
  readonly stream: UserStreamHub;
  readonly assetPrecision: (asset: string) => number;
}


export class FuturesAlgoDriver {
  readonly book = new AlgoOrderBook();
  readonly #host: AlgoHost;
  readonly #queue: AlgoOrder[] = [];
  #placing = false;
  /** Each margin symbol's triggerProtect in ppm, read once from its contract. */
  readonly #limits = new Map<string, number>();

  constructor(host: AlgoHost) {
    this.#host = host;
  }

  /** One published batch: prices move the book, done engine orders finish their algo orders. */
  observe(events: readonly EngineEvent[]): void {
    if (!this.book.hasLive) return;
    // GTD orders still waiting at their goodTillDate expire first (as the engine expires its GTD
    // orders before a command acts), at their due time.
    const last = events[events.length - 1];
    if (last !== undefined) for (const o of this.book.expireDue(last.time)) this.announce(o, o.updateTime);
    for (const e of events) {
      switch (e.type) {
        case 'MarkPriceChanged':
          this.#price(e.symbol, 'MARK_PRICE', e.markPrice, e.time);
          break;
        case 'TradeExecuted':
          this.#price(e.symbol, 'CONTRACT_PRICE', e.price, e.time);
          if (e.takerStatus === 'FILLED') this.#done(e.symbol, e.takerOrderId, e.time);
          if (e.makerStatus === 'FILLED') this.#done(e.symbol, e.makerOrderId, e.time);
          break;
        case 'MarketTradeRecorded':
          this.#price(e.symbol, 'CONTRACT_PRICE', e.price, e.time);
          break;
        case 'OrderFilledByMarket':
          this.#price(e.symbol, 'CONTRACT_PRICE', e.price, e.time);
          if (e.status === 'FILLED') this.#done(e.symbol, e.orderId, e.time);
          break;
        case 'OrderCanceled':
        case 'OrderExpired':
          this.#done(e.symbol, e.orderId, e.time);
          break;
        default:
          break;
      }
    }
    this.#drain();
  }

  /** Pushes an ALGO_UPDATE for the order's current status. */
  announce(o: AlgoOrder, nowUs: number): void {
    const engine = this.#host.engine;
    const spec = engine.symbolSpec(o.symbol);
    if (spec === undefined) return;
    const price = (u: number) => (u === 0 ? '0' : onGrid(u, spec.quotePrecision, gridDecimals(spec.tickUnits, spec.quotePrecision)));
    const qty = (u: number) => onGrid(u, spec.basePrecision, gridDecimals(spec.stepUnits, spec.basePrecision));
    const actual = o.actualOrderId < 0 ? undefined : engine.getOrder(o.accountId, o.symbol, { orderId: o.actualOrderId });
    const avg = actual === undefined || actual.executedQty === 0 ? 0 : Number((BigInt(actual.cummulativeQuoteQty) * 10n ** BigInt(spec.basePrecision)) / BigInt(actual.executedQty));
    this.#host.stream.publishOwn(o.accountId, (unit: TimeUnit) => ({
      e: 'ALGO_UPDATE',
      T: apiTime(o.updateTime, unit),
      E: apiTime(nowUs, unit),
      o: {
        caid: o.clientAlgoId,
        aid: o.algoId,
        at: 'CONDITIONAL',
        o: o.type,
        s: fapiSymbolOf(o.symbol) ?? o.symbol,
        S: o.side,
        ps: o.positionSide,
        f: o.timeInForce,
        q: qty(o.quantity),
        X: o.status,
        ai: actual === undefined ? '' : String(actual.orderId),
        ap: price(avg),
        aq: qty(actual?.executedQty ?? 0),
        act: actual?.type ?? '',
        tp: price(o.triggerPrice),
        p: price(o.price),
        V: o.selfTradePreventionMode,
        wt: o.workingType,
        pm: 'NONE',
        cp: o.closePosition,
        pP: o.priceProtect,
        R: o.reduceOnly,
        tt: o.triggerTime === 0 ? 0 : apiTime(o.triggerTime, unit),
        // GTD: the goodTillDate (ms, whole seconds); 0 otherwise.
        gtd: Math.floor((o.goodTillTime ?? 0) / 1000),
        rm: o.rejectReason,
      },
    }));
  }

  #price(symbol: string, kind: WorkingType, price: number, nowUs: number): void {
    if (fapiSymbolOf(symbol) === undefined) return;
    for (const o of this.book.onPrice(symbol, kind, price, nowUs, this.#protection(symbol, kind, price))) {
      this.announce(o, nowUs);
      this.#queue.push(o);
    }
  }

  /** The mark-vs-last deviation of `symbol` now (the price just seen is one of the two), or undefined while one is unknown. */
  #protection(symbol: string, kind: WorkingType, price: number): TriggerProtection | undefined {
    const engine = this.#host.engine;
    const mark = kind === 'MARK_PRICE' ? price : engine.futuresMarkPrice(symbol)?.markPrice;
    const last = kind === 'CONTRACT_PRICE' ? price : engine.lastTrade(symbol)?.price;
    if (mark === undefined || last === undefined || mark <= 0) return undefined;
    let limitPpm = this.#limits.get(symbol);
    if (limitPpm === undefined) {
      const contract = engine.config.symbols.find((s) => s.symbol === symbol)?.contract;
      if (contract === undefined) return undefined;
      limitPpm = protectPpm(contract.triggerProtect);
      this.#limits.set(symbol, limitPpm);
    }
    return { deviationPpm: deviationPpm(mark, last), limitPpm };
  }

  #done(symbol: string, orderId: number, nowUs: number): void {
    if (fapiSymbolOf(symbol) === undefined) return;
    const o = this.book.byEngineOrder(symbol, orderId);
    if (o === undefined) return;
    this.book.finished(o.algoId, nowUs);
    this.announce(o, nowUs);
  }

  #drain(): void {
    if (this.#placing) return;
    this.#placing = true;
    try {
      for (let o = this.#queue.shift(); o !== undefined; o = this.#queue.shift()) this.#place(o);
    } finally {
      this.#placing = false;
    }
  }

  /** Places a fired order in the engine and records the outcome. */
  #place(o: AlgoOrder): void {
    const now = o.triggerTime;
    let quantity = o.quantity;
    let reduceOnly = o.reduceOnly;
    if (o.closePosition) {
      const position = this.#host.engine.futuresPositions(o.accountId, o.symbol).find((p) => p.positionSide === o.positionSide);
      quantity = Math.abs(position?.positionAmt ?? 0);
      reduceOnly = o.positionSide === 'BOTH';
      // Nothing to close any more: the system ends the order (§3.2 EXPIRED).
      if (quantity === 0) {
        this.book.expire(o.algoId, now);
        this.announce(o, now);
        return;
      }
    }
    const limit = o.type === 'STOP' || o.type === 'TAKE_PROFIT';
    const postOnly = limit && o.timeInForce === 'GTX';
    // A fired GTD STOP / TAKE_PROFIT rests as the engine's GTD order (GTC until its goodTillDate).
    const goodTill = limit && o.timeInForce === 'GTD' ? (o.goodTillTime ?? 0) : 0;
    const command: FacadeCommand = {
      type: 'PlaceOrder',
      accountId: o.accountId,
      symbol: o.symbol,
      side: o.side,
      orderType: limit ? 'LIMIT' : 'MARKET',
      ...(limit ? { timeInForce: o.timeInForce === 'GTX' || o.timeInForce === 'GTD' ? ('GTC' as const) : o.timeInForce, price: o.price } : {}),
      quantity,
      positionSide: o.positionSide,
      ...(reduceOnly ? { reduceOnly: true } : {}),
      ...(postOnly ? { postOnly: true } : {}),
      ...(goodTill > 0 ? { goodTillTime: goodTill } : {}),
      ...(o.selfTradePreventionMode === 'NONE' ? {} : { selfTradePreventionMode: o.selfTradePreventionMode as 'EXPIRE_TAKER' | 'EXPIRE_MAKER' | 'EXPIRE_BOTH' }),
    };
    const events = this.#host.apply(command);
    const rejected = events.find((e): e is OrderRejected => e.type === 'OrderRejected');
    if (rejected !== undefined) {
      // `rm`: the refusal's fapi text, as the order would have been answered on /fapi/v1/order.
      this.book.rejected(o.algoId, fapiErrorOf(rejected.reason)?.msg ?? rejected.reason, now);
      this.announce(o, now);
      return;
    }
    const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted');
    if (accepted === undefined) return;
    this.book.triggered(o.algoId, accepted.orderId, now);
    this.announce(o, now);
    const after = this.#host.engine.getOrder(o.accountId, o.symbol, { orderId: accepted.orderId });
    if (after !== undefined && after.status !== 'NEW' && after.status !== 'PARTIALLY_FILLED') {
      this.book.finished(o.algoId, now);
      this.announce(o, now);
    }
  }
}
