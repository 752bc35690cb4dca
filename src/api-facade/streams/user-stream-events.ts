/**
 * The user data stream's events for one batch of engine events (one command, or one market
 * fill), per account and in order, as the exchange pushes them (binance-facts §6.2, §6.3):
 *
 * - executionReport per order change: NEW on acceptance, TRADE per fill (taker and maker each get
 *   their own), TRADE_PREVENTION per prevented match that cost the order quantity, CANCELED
 *   (`c` the cancel's client id, `C` the order's), EXPIRED (with `eR`). Cumulative `z` / `Z` are
 *   those after the event: an order's totals before the batch are its final totals minus the
 *   batch's fills, then each fill adds on.
 * - Conditional orders: an accepted stop or pending list leg is x=NEW with X NEW or PENDING_NEW
 *   and w=false (no W until it works); a pending leg placed when its working order fills
 *   (OrderActivated) is x=NEW X=NEW w=true. A stop's trigger pushes nothing of its own: Binance
 *   sends no separate event then; the order's next reports (TRADE, or its later fills) show it
 *   working, with W. Trailing start is likewise silent (D shows it). Amend keepPriority is
 *   x=REPLACED (c the new client id, C the old one, q the new quantity).
 * - Conditional keys (§6.2): P stop price and F iceberg quantity always (0 when unused, like the
 *   query record); d / D for trailing orders; gP, gOT, gOV, gp for pegs; uS and k for SOR
 *   orders; eR on expiry; j / J strategy labels; an SOR taker's fills are allocations: t -1,
 *   b "ONE_PARTY_TRADE_REPORT", a the allocId.
 * - listStatus per OrderListUpdated (§6.3): e, E, s, g, c, l, L, r "NONE", C, T, O[{s, i, c}].
 * - balanceUpdate per balance adjustment (deposits, transfers).
 * - outboundAccountPosition last, once per account whose balances the batch changed, listing the
 *   assets it may have changed (the symbols' base and quote, commission assets) with the account's
 *   current free and locked.
 *
 * A refused command (OrderRejected) pushes nothing: the REST error is the only answer.
 * The USDⓈ-M world (margin symbols `um:…`, futures wallet assets) is never on this stream: its
 * events are the futures stream's (futures-user-stream-events.ts), and outboundAccountPosition
 * never lists a `um:` asset.
 * Pure: reads the engine's state after the batch; the caller supplies execution ids.
 */
import { type EngineQueries as Engine, type EngineEvent, formatUnits, type OrderView, SYNTHETIC_MAKER } from '../../engine/index.ts';
import { apiTime, type TimeUnit } from '../serialize/index.ts';
import { isFuturesName } from './futures-names.ts';

export type UserStreamEvent = Record<string, unknown>;

export interface UserStreamContext {
  readonly engine: Engine;
  readonly unit: TimeUnit;
  readonly assetPrecision: (asset: string) => number;
  /** The next execution id of a symbol (the caller's counter: ids rise across batches). */
  readonly nextExecutionId: (symbol: string) => number;
}

interface OrderTrack {
  view: OrderView;
  executed: number;
  quote: number;
}

interface Change {
  kind: 'NEW' | 'TRADE' | 'TRADE_PREVENTION' | 'CANCELED' | 'EXPIRED' | 'REPLACED';
  status: string;
  lastQty: number;
  lastPrice: number;
  lastQuote: number;
  commission: number;
  commissionAsset: string | null;
  tradeId: number;
  isMaker: boolean;
  onBook: boolean;
  clientOrderId?: string;
  /** The order's previous client id (C) when the change names a new one (amend). */
  origClientOrderId?: string;
  extra?: Record<string, unknown>;
}

/**
 * Whether an event belongs to the USDⓈ-M futures world (a margin symbol `um:…`, a futures wallet
 * asset, or a futures-only event): the spot stream never shows it (docs/usdm-futures.md); the
 * futures stream (futures-user-stream-events.ts) does.
 */
export function isFuturesEvent(e: EngineEvent): boolean {
  if ('symbol' in e && typeof e.symbol === 'string' && isFuturesName(e.symbol)) return true;
  if ('asset' in e && typeof e.asset === 'string' && isFuturesName(e.asset)) return true;
  return false;
}

export function userStreamEvents(allEvents: readonly EngineEvent[], ctx: UserStreamContext): Map<number, UserStreamEvent[]> {
  // Spot's stream: futures orders, fills and wallets are the futures stream's.
  const events = allEvents.some(isFuturesEvent) ? allEvents.filter((e) => !isFuturesEvent(e)) : allEvents;
  const out = new Map<number, UserStreamEvent[]>();
  const touchedAssets = new Map<number, Set<string>>();
  const push = (accountId: number, event: UserStreamEvent) => {
    const list = out.get(accountId);
    if (list === undefined) out.set(accountId, [event]);
    else list.push(event);
  };
  const touch = (accountId: number, ...assets: string[]) => {
    const set = touchedAssets.get(accountId) ?? new Set<string>();
    for (const a of assets) if (!isFuturesName(a)) set.add(a);
    touchedAssets.set(accountId, set);
  };

  // Totals before the batch: the final totals minus the batch's own fills.
  const tracks = new Map<string, OrderTrack>();
  const track = (accountId: number, symbol: string, orderId: number): OrderTrack | undefined => {
    const key = `${symbol}:${orderId}`;
    let t = tracks.get(key);
    if (t === undefined) {
      const view = ctx.engine.getOrder(accountId, symbol, { orderId });
      if (view === undefined) return undefined;
      t = { view, executed: view.executedQty, quote: view.cummulativeQuoteQty };
      tracks.set(key, t);
    }
    return t;
  };
  for (const e of events) {
    if (e.type === 'TradeExecuted') {
      for (const [account, order] of [[e.takerAccountId, e.takerOrderId], [e.makerAccountId, e.makerOrderId]] as const) {
        if (account === SYNTHETIC_MAKER) continue; // the synthetic book: nobody's order
        const t = track(account, e.symbol, order);
        if (t !== undefined) {
          t.executed -= e.quantity;
          t.quote -= e.quoteQuantity;
        }
      }
    } else if (e.type === 'OrderFilledByMarket') {
      const t = track(e.accountId, e.symbol, e.orderId);
      if (t !== undefined) {
        t.executed -= e.quantity;
        t.quote -= e.quoteQuantity;
      }
    }
  }

  const report = (accountId: number, symbol: string, orderId: number, time: number, change: Change): void => {
    const t = track(accountId, symbol, orderId);
    if (t === undefined) return;
    t.executed += change.kind === 'TRADE' ? change.lastQty : 0;
    t.quote += change.kind === 'TRADE' ? change.lastQuote : 0;
    const o = t.view;
    const spec = ctx.engine.symbolSpec(symbol);
    if (spec === undefined) return;
    const price = (units: number) => formatUnits(units, spec.quotePrecision);
    const qty = (units: number) => formatUnits(units, spec.basePrecision);
    const at = apiTime(time, ctx.unit);
    const event: UserStreamEvent = {
      e: 'executionReport',
      E: at,
      s: symbol,
      c: change.clientOrderId ?? o.clientOrderId,
      S: o.side,
      o: o.type,
      f: o.timeInForce,
      q: qty(o.origQty),
      p: price(o.price),
      P: price(o.stopPrice),
      F: qty(o.icebergQty),
      g: o.orderListId,
      C: change.origClientOrderId ?? (change.clientOrderId === undefined ? '' : o.clientOrderId),
      x: change.kind,
      X: change.status,
      r: 'NONE',
      i: o.orderId,
      l: qty(change.lastQty),
      z: qty(t.executed),
      L: price(change.lastPrice),
      n: change.commissionAsset === null ? '0' : formatUnits(change.commission, ctx.assetPrecision(change.commissionAsset)),
      N: change.commissionAsset,
      T: at,
      t: change.tradeId,
      I: ctx.nextExecutionId(symbol),
      w: change.onBook,
      m: change.isMaker,
      M: change.kind === 'TRADE',
      O: apiTime(o.time, ctx.unit),
      Z: price(t.quote),
      Y: price(change.lastQuote),
      Q: price(o.origQuoteOrderQty),
    };
    if (o.workingTime >= 0 && change.onBook) event['W'] = apiTime(o.workingTime, ctx.unit);
    event['V'] = o.selfTradePreventionMode;
    if (o.strategyId !== null) event['j'] = o.strategyId;
    if (o.strategyType !== null) event['J'] = o.strategyType;
    if (o.trailingDelta > 0) {
      event['d'] = o.trailingDelta;
      event['D'] = apiTime(o.trailingTime, ctx.unit);
    }
    if (o.pegPriceType !== null) {
      event['gP'] = o.pegPriceType;
      if (o.pegOffsetValue !== null) {
        event['gOT'] = 'PRICE_LEVEL';
        event['gOV'] = o.pegOffsetValue;
      }
      if (o.peggedPrice > 0) event['gp'] = price(o.peggedPrice);
    }
    if (o.usedSor) {
      event['uS'] = true;
      event['k'] = 'SOR';
    }
    if (change.extra !== undefined) Object.assign(event, change.extra);
    push(accountId, event);
  };
  const quiet = { lastQty: 0, lastPrice: 0, lastQuote: 0, commission: 0, commissionAsset: null, tradeId: -1, isMaker: false } as const;
  const resting = (status: string) => status === 'NEW' || status === 'PARTIALLY_FILLED';

  for (const e of events) {
    switch (e.type) {
      case 'OrderAccepted': {
        report(e.accountId, e.symbol, e.orderId, e.time, { ...quiet, kind: 'NEW', status: e.status, onBook: e.isWorking });
        const spec = ctx.engine.symbolSpec(e.symbol);
        if (spec !== undefined) touch(e.accountId, spec.baseAsset, spec.quoteAsset);
        break;
      }
      case 'TradeExecuted': {
        const base = { kind: 'TRADE' as const, lastQty: e.quantity, lastPrice: e.price, lastQuote: e.quoteQuantity, tradeId: e.tradeId };
        // The taker is on the book only if it rests after its walk; the maker while it has quantity left.
        // An SOR taker's fill is an allocation: t -1, with b (matchType) and a (allocId).
        const allocation = events.find((a) => a.type === 'AllocationRecorded' && a.tradeId === e.tradeId && a.orderId === e.takerOrderId);
        const allocated = allocation?.type === 'AllocationRecorded' ? { tradeId: -1, extra: { b: 'ONE_PARTY_TRADE_REPORT', a: allocation.allocationId } } : {};
        report(e.takerAccountId, e.symbol, e.takerOrderId, e.time, { ...base, status: e.takerStatus, commission: e.takerCommission, commissionAsset: e.takerCommissionAsset, isMaker: false, onBook: false, ...allocated });
        // A fill against the synthetic book has no maker to tell (SYNTHETIC_MAKER).
        const hasMaker = e.makerAccountId !== SYNTHETIC_MAKER;
        if (hasMaker) report(e.makerAccountId, e.symbol, e.makerOrderId, e.time, { ...base, status: e.makerStatus, commission: e.makerCommission, commissionAsset: e.makerCommissionAsset, isMaker: true, onBook: resting(e.makerStatus) });
        const spec = ctx.engine.symbolSpec(e.symbol);
        if (spec !== undefined) {
          touch(e.takerAccountId, spec.baseAsset, spec.quoteAsset, e.takerCommissionAsset);
          if (hasMaker) touch(e.makerAccountId, spec.baseAsset, spec.quoteAsset, e.makerCommissionAsset);
        }
        break;
      }
      case 'MatchPrevented': {
        const sides = [
          [e.takerAccountId, e.takerOrderId, e.takerStatus, e.takerPreventedQuantity, e.makerOrderId],
          [e.makerAccountId, e.makerOrderId, e.makerStatus, e.makerPreventedQuantity, e.takerOrderId],
        ] as const;
        const spec = ctx.engine.symbolSpec(e.symbol);
        for (const [account, orderId, status, prevented, counterOrderId] of sides) {
          if (prevented <= 0 || spec === undefined) continue;
          const view = track(account, e.symbol, orderId)?.view;
          report(account, e.symbol, orderId, e.time, {
            ...quiet,
            kind: 'TRADE_PREVENTION',
            status,
            onBook: resting(status) && orderId === e.makerOrderId,
            extra: {
              v: e.preventedMatchId,
              A: formatUnits(view?.preventedQuantity ?? prevented, spec.basePrecision),
              B: formatUnits(prevented, spec.basePrecision),
              U: counterOrderId,
              Cs: e.symbol,
            },
          });
          touch(account, spec.baseAsset, spec.quoteAsset);
        }
        break;
      }
      case 'OrderCanceled': {
        report(e.accountId, e.symbol, e.orderId, e.time, { ...quiet, kind: 'CANCELED', status: 'CANCELED', onBook: false, clientOrderId: e.cancelClientOrderId });
        const spec = ctx.engine.symbolSpec(e.symbol);
        if (spec !== undefined) touch(e.accountId, spec.baseAsset, spec.quoteAsset);
        break;
      }
      case 'OrderExpired': {
        report(e.accountId, e.symbol, e.orderId, e.time, { ...quiet, kind: 'EXPIRED', status: e.status, onBook: false, extra: { eR: e.expiryReason } });
        const spec = ctx.engine.symbolSpec(e.symbol);
        if (spec !== undefined) touch(e.accountId, spec.baseAsset, spec.quoteAsset);
        break;
      }
      case 'OrderFilledByMarket': {
        report(e.accountId, e.symbol, e.orderId, e.time, {
          kind: 'TRADE',
          status: e.status,
          lastQty: e.quantity,
          lastPrice: e.price,
          lastQuote: e.quoteQuantity,
          commission: e.commission,
          commissionAsset: e.commissionAsset,
          tradeId: e.tradeId,
          isMaker: true,
          onBook: resting(e.status),
        });
        const spec = ctx.engine.symbolSpec(e.symbol);
        if (spec !== undefined) touch(e.accountId, spec.baseAsset, spec.quoteAsset, e.commissionAsset);
        break;
      }
      case 'OrderActivated':
        report(e.accountId, e.symbol, e.orderId, e.time, { ...quiet, kind: 'NEW', status: 'NEW', onBook: true });
        break;
      case 'OrderAmended': {
        const view = track(e.accountId, e.symbol, e.orderId)?.view;
        report(e.accountId, e.symbol, e.orderId, e.time, {
          ...quiet,
          kind: 'REPLACED',
          status: view?.status ?? 'NEW',
          onBook: view?.isWorking ?? false,
          clientOrderId: e.newClientOrderId,
          origClientOrderId: e.origClientOrderId,
        });
        break;
      }
      case 'OrderListUpdated': {
        const at = apiTime(e.time, ctx.unit);
        push(e.accountId, {
          e: 'listStatus',
          E: at,
          s: e.symbol,
          g: e.orderListId,
          c: e.contingencyType,
          l: e.listStatusType,
          L: e.listOrderStatus,
          r: 'NONE',
          C: e.listClientOrderId,
          T: at,
          O: e.orders.map((o) => ({ s: e.symbol, i: o.orderId, c: o.clientOrderId })),
        });
        break;
      }
      case 'BalanceAdjusted': {
        const at = apiTime(e.time, ctx.unit);
        push(e.accountId, { e: 'balanceUpdate', E: at, a: e.asset, d: formatUnits(e.delta, ctx.assetPrecision(e.asset)), T: at });
        touch(e.accountId, e.asset);
        break;
      }
      default:
        break;
    }
  }

  const lastTime = events.length === 0 ? 0 : (events[events.length - 1] as EngineEvent).time;
  for (const [accountId, assets] of touchedAssets) {
    const account = ctx.engine.account(accountId);
    if (account === undefined) continue;
    const balances = account.balances.filter((b) => assets.has(b.asset));
    push(accountId, {
      e: 'outboundAccountPosition',
      E: apiTime(lastTime, ctx.unit),
      u: apiTime(account.updateTime, ctx.unit),
      B: balances.map((b) => ({ a: b.asset, f: formatUnits(b.free, ctx.assetPrecision(b.asset)), l: formatUnits(b.locked, ctx.assetPrecision(b.asset)) })),
    });
  }
  return out;
}
