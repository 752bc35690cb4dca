/**
 * The USDⓈ-M user data stream's events for one batch of engine events (futures facts §7), per
 * account and in the batch's order — what `/ws/<futures listenKey>` carries:
 *
 * - ORDER_TRADE_UPDATE per order change on a margin symbol: x NEW on acceptance, AMENDMENT on a
 *   modify (PUT /fapi/v1/order), TRADE per fill
 *   (`rp` the fill's realized PnL from the position change the engine booked with it, `N`/`n` the
 *   commission, absent when there is none), CANCELED, EXPIRED (`er` 2 for an IOC/FOK remainder,
 *   4 reduce-only knocked out, 5 liquidation, 0 otherwise), and a liquidation's system order
 *   (PositionLiquidated: `autoclose-…`, type LIQUIDATION, x CALCULATED, X FILLED, its order id and
 *   trade id; `p` the order's grid price, `ap`/`L` the bankruptcy price).
 *   `z` is the order's running total after the event (final total minus what is later in the
 *   batch), `b`/`a` the account's open bid/ask notional on the symbol after the batch.
 * - TRADE_LITE per fill, right after its ORDER_TRADE_UPDATE.
 * - ACCOUNT_UPDATE for FuturesWalletChanged / FuturesPositionChanged: consecutive changes with the
 *   same reason are one event (`B` wallets, `P` positions, only what changed), `m` the reason.
 * - MARGIN_CALL per MarginCalled; ACCOUNT_CONFIG_UPDATE per FuturesConfigChanged that changed a
 *   symbol's leverage (`ac`) — position-mode and margin-type changes have no ACCOUNT_CONFIG_UPDATE
 *   form on Binance and push nothing.
 * Spot events never appear here (the spot stream has them), nor futures ones there.
 * `E` and `T` honour the subscriber's time unit. Pure: reads the engine after the batch.
 */
import { type EngineEvent, type EngineQueries as Engine, type OrderView, type SymbolSpec, SYNTHETIC_MAKER, fapiSymbolOf, formatUnits, spotAssetOf } from '../../engine/index.ts';
import { apiTime, gridDecimals, onGrid, type TimeUnit } from '../serialize/index.ts';
import type { UserStreamEvent } from './user-stream-events.ts';
import { isFuturesName } from './futures-names.ts';

export interface FuturesStreamContext {
  readonly engine: Engine;
  readonly unit: TimeUnit;
  readonly assetPrecision: (asset: string) => number;
}

const EXPIRY_CODE: Record<string, number> = { REDUCE_ONLY_KNOCKED_OUT: 4, ACCOUNT_LIQUIDATION: 5 };


export function futuresUserStreamEvents(
  events: readonly EngineEvent[],
  ctx: FuturesStreamContext,
  priceMatchOf: (symbol: string, orderId: number) => string = () => 'NONE',
): Map<number, UserStreamEvent[]> {
  const out = new Map<number, UserStreamEvent[]>();
  const push = (accountId: number, event: UserStreamEvent): void => {
    const list = out.get(accountId);
    if (list === undefined) out.set(accountId, [event]);
    else list.push(event);
  };
  const at = (t: number): number => apiTime(t, ctx.unit);
  const specOf = (symbol: string): SymbolSpec | undefined => (isFuturesName(symbol) ? ctx.engine.symbolSpec(symbol) : undefined);
  const price = (s: SymbolSpec, u: number) => onGrid(u, s.quotePrecision, gridDecimals(s.tickUnits, s.quotePrecision));
  const qty = (s: SymbolSpec, u: number) => onGrid(u, s.basePrecision, gridDecimals(s.stepUnits, s.basePrecision));
  const money = (asset: string, u: number) => formatUnits(u, ctx.assetPrecision(asset));

  // Realized PnL per fill (tradeId:orderId), from the position changes booked with the fills.
  const pnlOf = new Map<string, number>();
  // Running totals: an order's executed quantity and quote before the batch.
  const running = new Map<string, { executed: number; quote: number }>();
  for (const e of events) {
    if (e.type === 'FuturesPositionChanged' && e.tradeId !== -1) pnlOf.set(`${e.tradeId}:${e.orderId}`, (pnlOf.get(`${e.tradeId}:${e.orderId}`) ?? 0) + e.realizedPnl);
    if (e.type === 'TradeExecuted' && isFuturesName(e.symbol)) {
      for (const [account, orderId] of [[e.takerAccountId, e.takerOrderId], [e.makerAccountId, e.makerOrderId]] as const) {
        if (account === SYNTHETIC_MAKER) continue;
        const key = `${e.symbol}:${orderId}`;
        let r = running.get(key);
        if (r === undefined) {
          const o = ctx.engine.getOrder(account, e.symbol, { orderId });
          r = { executed: o?.executedQty ?? 0, quote: o?.cummulativeQuoteQty ?? 0 };
          running.set(key, r);
        }
        r.executed -= e.quantity;
        r.quote -= e.quoteQuantity;
      }
    }
  }

  const openNotional = (accountId: number, spec: SymbolSpec, side: 'BUY' | 'SELL'): string => {
    let total = 0n;
    for (const o of ctx.engine.openOrders(accountId, spec.symbol)) if (o.side === side) total += (BigInt(o.origQty - o.executedQty) * BigInt(o.price)) / 10n ** BigInt(spec.basePrecision);
    return money(spec.quoteAsset, Number(total));
  };

  interface Fill {
    readonly lastQty: number;
    readonly lastPrice: number;
    readonly lastQuote: number;
    readonly commission: number;
    readonly commissionAsset: string;
    readonly tradeId: number;
    readonly maker: boolean;
  }

  const orderUpdate = (o: OrderView, spec: SymbolSpec, time: number, x: string, status: string, fill: Fill | null, er: number): void => {
    const key = `${o.symbol}:${o.orderId}`;
    const r = running.get(key) ?? { executed: o.executedQty, quote: o.cummulativeQuoteQty };
    if (fill !== null) {
      r.executed += fill.lastQty;
      r.quote += fill.lastQuote;
      running.set(key, r);
    }
    const info = ctx.engine.futuresOrderInfo(o.symbol, o.orderId);
    const avg = r.executed === 0 ? 0 : Number((BigInt(r.quote) * 10n ** BigInt(spec.basePrecision)) / BigInt(r.executed));
    const symbol = fapiSymbolOf(o.symbol) ?? o.symbol;
    const body: Record<string, unknown> = {
      s: symbol,
      c: o.clientOrderId,
      S: o.side,
      o: o.type,
      f: info?.postOnly === true ? 'GTX' : (info?.goodTillTime ?? 0) !== 0 ? 'GTD' : o.timeInForce,
      q: qty(spec, o.origQty),
      // A MARKET order has no price: "0", as the exchange shows it.
      p: o.price === 0 ? '0' : price(spec, o.price),
      ap: price(spec, avg),
      sp: '0',
      x,
      X: status,
      i: o.orderId,
      l: qty(spec, fill?.lastQty ?? 0),
      z: qty(spec, r.executed),
      L: price(spec, fill?.lastPrice ?? 0),
    };
    if (fill !== null && fill.commission !== 0) {
      body['N'] = spotAssetOf(fill.commissionAsset) ?? fill.commissionAsset;
      body['n'] = money(fill.commissionAsset, fill.commission);
    }
    Object.assign(body, {
      T: at(time),
      t: fill?.tradeId ?? 0,
      b: openNotional(o.accountId, spec, 'BUY'),
      a: openNotional(o.accountId, spec, 'SELL'),
      m: fill?.maker ?? false,
      R: info?.reduceOnly ?? false,
      wt: 'CONTRACT_PRICE',
      ot: o.type,
      ps: info?.positionSide ?? 'BOTH',
      cp: false,
      rp: money(spec.quoteAsset, fill === null ? 0 : (pnlOf.get(`${fill.tradeId}:${o.orderId}`) ?? 0)),
      pP: false,
      si: 0,
      ss: 0,
      V: o.selfTradePreventionMode,
      pm: priceMatchOf(o.symbol, o.orderId),
      // GTD orders: their goodTillDate (ms, whole seconds); 0 for the others.
      gtd: Math.floor((info?.goodTillTime ?? 0) / 1000),
      er,
    });
    push(o.accountId, { e: 'ORDER_TRADE_UPDATE', E: at(time), T: at(time), o: body });
    if (fill !== null) {
      push(o.accountId, {
        e: 'TRADE_LITE',
        E: at(time),
        T: at(time),
        s: symbol,
        q: qty(spec, o.origQty),
        p: o.price === 0 ? '0' : price(spec, o.price),
        m: fill.maker,
        c: o.clientOrderId,
        S: o.side,
        L: price(spec, fill.lastPrice),
        l: qty(spec, fill.lastQty),
        t: fill.tradeId,
        i: o.orderId,
      });
    }
  };

  // ACCOUNT_UPDATE under construction: one per run of same-reason changes of an account.
  let pending: { accountId: number; reason: string; time: number; B: UserStreamEvent[]; P: UserStreamEvent[] } | null = null;
  const flush = (): void => {
    if (pending === null) return;
    push(pending.accountId, { e: 'ACCOUNT_UPDATE', E: at(pending.time), T: at(pending.time), a: { m: pending.reason, B: pending.B, P: pending.P } });
    pending = null;
  };
  const accountUpdate = (accountId: number, reason: string, time: number): { B: UserStreamEvent[]; P: UserStreamEvent[] } => {
    if (pending !== null && (pending.accountId !== accountId || pending.reason !== reason)) flush();
    pending ??= { accountId, reason, time, B: [], P: [] };
    return pending;
  };

  for (const e of events) {
    switch (e.type) {
      case 'OrderAccepted': {
        const spec = specOf(e.symbol);
        const o = spec === undefined ? undefined : ctx.engine.getOrder(e.accountId, e.symbol, { orderId: e.orderId });
        if (spec === undefined || o === undefined) break;
        flush();
        orderUpdate(o, spec, e.time, 'NEW', 'NEW', null, 0);
        break;
      }
      case 'TradeExecuted': {
        const spec = specOf(e.symbol);
        if (spec === undefined) break;
        flush();
        for (const maker of [false, true]) {
          const account = maker ? e.makerAccountId : e.takerAccountId;
          if (account === SYNTHETIC_MAKER) continue;
          const orderId = maker ? e.makerOrderId : e.takerOrderId;
          const o = ctx.engine.getOrder(account, e.symbol, { orderId });
          if (o === undefined) continue;
          const fill: Fill = {
            lastQty: e.quantity,
            lastPrice: e.price,
            lastQuote: e.quoteQuantity,
            commission: maker ? e.makerCommission : e.takerCommission,
            commissionAsset: maker ? e.makerCommissionAsset : e.takerCommissionAsset,
            tradeId: e.tradeId,
            maker,
          };
          orderUpdate(o, spec, e.time, 'TRADE', maker ? e.makerStatus : e.takerStatus, fill, 0);
        }
        break;
      }
      case 'OrderModified': {
        const spec = specOf(e.symbol);
        const o = spec === undefined ? undefined : ctx.engine.getOrder(e.accountId, e.symbol, { orderId: e.orderId });
        if (spec === undefined || o === undefined) break;
        flush();
        // Its status at the amendment: what it had executed before this batch's own fills.
        const executedBefore = running.get(`${e.symbol}:${e.orderId}`)?.executed ?? o.executedQty;
        orderUpdate(o, spec, e.time, 'AMENDMENT', executedBefore > 0 ? 'PARTIALLY_FILLED' : 'NEW', null, 0);
        break;
      }
      case 'OrderCanceled': {
        const spec = specOf(e.symbol);
        const o = spec === undefined ? undefined : ctx.engine.getOrder(e.accountId, e.symbol, { orderId: e.orderId });
        if (spec === undefined || o === undefined) break;
        flush();
        orderUpdate(o, spec, e.time, 'CANCELED', 'CANCELED', null, 0);
        break;
      }
      case 'OrderExpired': {
        const spec = specOf(e.symbol);
        const o = spec === undefined ? undefined : ctx.engine.getOrder(e.accountId, e.symbol, { orderId: e.orderId });
        if (spec === undefined || o === undefined) break;
        flush();
        const er = EXPIRY_CODE[e.expiryReason] ?? (o.timeInForce === 'IOC' || o.timeInForce === 'FOK' || o.type === 'MARKET' ? 2 : 0);
        orderUpdate(o, spec, e.time, 'EXPIRED', e.status, null, er);
        break;
      }
      case 'FuturesWalletChanged': {
        const u = accountUpdate(e.accountId, e.reason, e.time);
        u.B.push({ a: spotAssetOf(e.asset) ?? e.asset, wb: money(e.asset, e.walletBalance), cw: money(e.asset, e.crossWalletBalance), bc: money(e.asset, e.balanceChange) });
        break;
      }
      case 'FuturesPositionChanged': {
        const spec = specOf(e.symbol);
        if (spec === undefined) break;
        const u = accountUpdate(e.accountId, e.reason, e.time);
        const view = ctx.engine.futuresPositions(e.accountId, e.symbol).find((p) => p.positionSide === e.positionSide);
        u.P.push({
          s: fapiSymbolOf(e.symbol) ?? e.symbol,
          pa: qty(spec, e.positionAmt),
          ep: price(spec, e.entryPrice),
          bep: price(spec, view?.breakEvenPrice ?? e.entryPrice),
          cr: money(spec.quoteAsset, e.accumulatedRealized),
          up: money(spec.quoteAsset, view?.unrealizedProfit ?? 0),
          mt: e.marginType === 'ISOLATED' ? 'isolated' : 'cross',
          iw: money(spec.quoteAsset, e.isolatedWallet),
          ps: e.positionSide,
        });
        break;
      }
      case 'MarginCalled': {
        flush();
        push(e.accountId, {
          e: 'MARGIN_CALL',
          E: at(e.time),
          cw: money(e.asset, e.crossWalletBalance),
          p: e.positions.flatMap((p) => {
            const spec = specOf(p.symbol);
            if (spec === undefined) return [];
            return [{
              s: fapiSymbolOf(p.symbol) ?? p.symbol,
              ps: p.positionSide,
              pa: qty(spec, p.positionAmt),
              mt: p.marginType === 'ISOLATED' ? 'ISOLATED' : 'CROSSED',
              iw: money(spec.quoteAsset, p.isolatedWallet),
              mp: price(spec, p.markPrice),
              up: money(spec.quoteAsset, p.unrealizedPnl),
              mm: money(spec.quoteAsset, p.maintMargin),
            }];
          }),
        });
        break;
      }
      case 'PositionLiquidated': {
        const spec = specOf(e.symbol);
        if (spec === undefined) break;
        flush();
        const symbol = fapiSymbolOf(e.symbol) ?? e.symbol;
        push(e.accountId, {
          e: 'ORDER_TRADE_UPDATE',
          E: at(e.time),
          T: at(e.time),
          o: {
            s: symbol,
            c: e.clientOrderId,
            S: e.side,
            o: 'LIQUIDATION',
            f: 'IOC',
            q: qty(spec, e.quantity),
            // The system order's limit (the bankruptcy price on the grid); it filled at the bankruptcy price.
            p: price(spec, e.orderPrice),
            ap: price(spec, e.price),
            sp: '0',
            x: 'CALCULATED',
            X: 'FILLED',
            i: e.orderId,
            l: qty(spec, e.quantity),
            z: qty(spec, e.quantity),
            L: price(spec, e.price),
            T: at(e.time),
            t: e.tradeId,
            // The account's open orders were canceled before the close (er 5): nothing is open.
            b: money(spec.quoteAsset, 0),
            a: money(spec.quoteAsset, 0),
            m: false,
            R: false,
            wt: 'CONTRACT_PRICE',
            ot: 'LIQUIDATION',
            ps: e.positionSide,
            cp: false,
            rp: money(spec.quoteAsset, e.realizedPnl),
            pP: false,
            si: 0,
            ss: 0,
            V: 'NONE',
            pm: 'NONE',
            gtd: 0,
            er: 5,
          },
        });
        break;
      }
      case 'FuturesConfigChanged': {
        if (e.symbol === null || e.leverage === undefined) break;
        flush();
        push(e.accountId, { e: 'ACCOUNT_CONFIG_UPDATE', E: at(e.time), T: at(e.time), ac: { s: fapiSymbolOf(e.symbol) ?? e.symbol, l: e.leverage } });
        break;
      }
      default:
        break;
    }
  }
  flush();
  return out;
}
