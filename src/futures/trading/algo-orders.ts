/**
 * The conditional (algo) order book of USDⓈ-M futures (futures facts §3.2; docs/usdm-futures.md):
 * STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET and TRAILING_STOP_MARKET orders held outside
 * the matching engine until their trigger, then placed as an engine order (LIMIT at `price` for
 * STOP / TAKE_PROFIT, MARKET otherwise). This module is the book and its rules only: it sends
 * nothing; the facade feeds it prices and places what it hands back.
 *
 * Rules
 * - Triggers (P = the mark price for workingType MARK_PRICE, else the contract's last trade):
 *   STOP/STOP_MARKET fire BUY when P ≥ trigger, SELL when P ≤ trigger; TAKE_PROFIT/_MARKET fire
 *   BUY when P ≤ trigger, SELL when P ≥ trigger. TRAILING_STOP_MARKET: once the price has reached
 *   `activatePrice` (BUY: the low since placement ≤ activation; SELL: the high ≥ activation), a
 *   BUY fires when P ≥ low × (1 + cb), a SELL when P ≤ high × (1 − cb), cb = callbackRate / 100.
 * - Placement refuses an order that would fire at once (-2021 "Order would immediately trigger.")
 *   against the price it would watch, when that price is known; a trailing order whose activation
 *   is on the wrong side of the latest price likewise (§3.2).
 * - At most 200 open (NEW) conditional orders per account across symbols (CL 2025-12-29).
 * - Statuses: NEW (waiting) → TRIGGERING (fired, being sent) → TRIGGERED (the engine took the
 *   order) → FINISHED (the engine order is done), or REJECTED (the engine refused it at the
 *   trigger: `rejectReason`), CANCELED (by the user), EXPIRED (by the system).
 * - priceProtect (§3.2 table: "at trigger, mark-vs-last deviation must be ≤ symbol
 *   `triggerProtect`"): an order sent with priceProtect does not fire while the mark and the
 *   contract's last price stand further apart than the symbol's triggerProtect (the caller hands
 *   both as ppm with the price); it stays NEW and fires at a later price once both agree
 *   (**chosen**: Binance does not say whether a protected order is kept or dropped; kept).
 * - GTD (timeInForce GTD, `goodTillTime`): an order still waiting at its goodTillDate expires
 *   (`expireDue`, called before the prices of each batch, stamped with the due time).
 * - Ids: algoId counts from 1 per book (deterministic); clientAlgoId defaults to `exsimalgo<id>`.
 * Prices and quantities are engine integers (price units, base units); rates are decimals as sent.
 * Pure and deterministic: time arrives as arguments (µs).
 */

export type AlgoOrderType = 'STOP' | 'STOP_MARKET' | 'TAKE_PROFIT' | 'TAKE_PROFIT_MARKET' | 'TRAILING_STOP_MARKET';
export type AlgoStatus = 'NEW' | 'TRIGGERING' | 'TRIGGERED' | 'FINISHED' | 'REJECTED' | 'CANCELED' | 'EXPIRED';
export type WorkingType = 'MARK_PRICE' | 'CONTRACT_PRICE';

export const MAX_OPEN_ALGO_ORDERS = 200;

export interface AlgoRequest {
  readonly accountId: number;
  /** Engine symbol (um:BTCUSDT). */
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly positionSide: 'BOTH' | 'LONG' | 'SHORT';
  readonly type: AlgoOrderType;
  readonly timeInForce: 'GTC' | 'IOC' | 'FOK' | 'GTX' | 'GTD';
  /**
   * GTD: when the order ends (µs, whole seconds; absent or 0 otherwise). Still waiting then, it
   * expires (EXPIRED, **chosen**); fired before, its LIMIT order carries the GTD into the engine.
   */
  readonly goodTillTime?: number;
  /** Base units; 0 with closePosition (sized at the trigger). */
  readonly quantity: number;
  /** Price units; 0 for the market types. */
  readonly price: number;
  /** Price units; 0 for trailing orders. */
  readonly triggerPrice: number;
  readonly workingType: WorkingType;
  readonly priceProtect: boolean;
  readonly reduceOnly: boolean;
  readonly closePosition: boolean;
  /** Price units; 0 when not trailing. */
  readonly activatePrice: number;
  /** Percent as sent ("1" = 1%); '' when not trailing. */
  readonly callbackRate: string;
  readonly selfTradePreventionMode: string;
  readonly clientAlgoId?: string;
}

export interface AlgoOrder extends AlgoRequest {
  readonly algoId: number;
  readonly clientAlgoId: string;
  status: AlgoStatus;
  readonly createTime: number;
  updateTime: number;
  /** µs; 0 until fired. */
  triggerTime: number;
  /** The engine order placed at the trigger (-1 before). */
  actualOrderId: number;
  /** Why the engine refused the order at the trigger ('' otherwise). */
  rejectReason: string;
  /** Trailing: extreme price since placement (price units; 0 before any price). */
  extreme: number;
  /** Trailing: the activation price has been reached. */
  activated: boolean;
}

/** The whole book as plain data (the served exchange journals it): the next id and every order. */
export interface AlgoBookSnapshot {
  readonly nextId: number;
  readonly orders: AlgoOrder[];
}

export type PlaceRefusal = 'WOULD_IMMEDIATELY_TRIGGER' | 'TOO_MANY_ALGO_ORDERS' | 'DUPLICATE_CLIENT_ALGO_ID';

/** Parts per million of a percent text ("1" → 10_000 ppm of 1). */
function callbackPpm(rate: string): number {
  return Math.round(Number(rate) * 10_000);
}

/**
 * The symbol's mark-vs-last deviation at a price, for priceProtect: |mark − last| / mark and the
 * symbol's triggerProtect, both in ppm (parts per million). Absent while either price is unknown.
 */
export interface TriggerProtection {
  readonly deviationPpm: number;
  readonly limitPpm: number;
}

/** `triggerProtect` as exchangeInfo writes it ("0.15") in ppm (150000), exactly: at most 6 decimals are meaningful. */
export function protectPpm(triggerProtect: string): number {
  const [whole = '0', fraction = ''] = triggerProtect.split('.');
  return Number(whole) * 1_000_000 + Number((fraction + '000000').slice(0, 6));
}

/** |mark − last| / mark in ppm, rounded up (a deviation a hair over the limit counts as over). */
export function deviationPpm(mark: number, last: number): number {
  // Price units reach 1e13 (50 000 at 8 decimals): the product needs BigInt to stay exact.
  const m = BigInt(mark);
  return Number((BigInt(Math.abs(mark - last)) * 1_000_000n + m - 1n) / m);
}

export function isOpen(o: AlgoOrder): boolean {
  return o.status === 'NEW';
}

/** Whether a non-trailing order fires at price `p`. */
function fires(o: AlgoRequest, p: number): boolean {
  const stop = o.type === 'STOP' || o.type === 'STOP_MARKET';
  const buy = o.side === 'BUY';
  if (stop) return buy ? p >= o.triggerPrice : p <= o.triggerPrice;
  return buy ? p <= o.triggerPrice : p >= o.triggerPrice;
}

export class AlgoOrderBook {
  readonly #orders = new Map<number, AlgoOrder>();
  /** Orders still NEW, TRIGGERING or TRIGGERED: what prices and fills can move (kept, not scanned). */
  readonly #live = new Set<number>();
  #nextId = 1;
  /** Changed since the last takeChanged (placement, a fire, a trailing extreme, a status). */
  #dirty = false;

  /** Every order and the next id, copied. */
  snapshot(): AlgoBookSnapshot {
    return { nextId: this.#nextId, orders: [...this.#orders.values()].map((o) => ({ ...o })) };
  }

  /** The whole book when anything changed since the last call, else undefined. */
  takeChanged(): AlgoBookSnapshot | undefined {
    if (!this.#dirty) return undefined;
    this.#dirty = false;
    return this.snapshot();
  }

  /** Puts a journaled book back (it counts as journaled). */
  restore(snapshot: AlgoBookSnapshot): void {
    this.#orders.clear();
    this.#live.clear();
    for (const o of snapshot.orders) {
      this.#orders.set(o.algoId, { ...o });
      if (o.status === 'NEW' || o.status === 'TRIGGERING' || o.status === 'TRIGGERED') this.#live.add(o.algoId);
    }
    this.#nextId = snapshot.nextId;
    this.#dirty = false;
  }

  /**
   * Adds an order, or says why not. `watchedPrice` is the price its workingType watches now
   * (undefined when none is known yet: nothing can fire at once).
   */
  place(request: AlgoRequest, nowUs: number, watchedPrice: number | undefined): AlgoOrder | PlaceRefusal {
    let open = 0;
    for (const o of this.#orders.values()) {
      if (o.accountId !== request.accountId) continue;
      if (isOpen(o)) open++;
      if (request.clientAlgoId !== undefined && o.clientAlgoId === request.clientAlgoId && isOpen(o)) return 'DUPLICATE_CLIENT_ALGO_ID';
    }
    if (open >= MAX_OPEN_ALGO_ORDERS) return 'TOO_MANY_ALGO_ORDERS';
    if (watchedPrice !== undefined) {
      if (request.type === 'TRAILING_STOP_MARKET') {
        // BUY trails a fall: activation must be below the latest price; SELL above it.
        if (request.activatePrice !== 0 && (request.side === 'BUY' ? request.activatePrice >= watchedPrice : request.activatePrice <= watchedPrice)) return 'WOULD_IMMEDIATELY_TRIGGER';
      } else if (fires(request, watchedPrice)) return 'WOULD_IMMEDIATELY_TRIGGER';
    }
    const algoId = this.#nextId++;
    const order: AlgoOrder = {
      ...request,
      algoId,
      clientAlgoId: request.clientAlgoId ?? `exsimalgo${algoId}`,
      status: 'NEW',
      createTime: nowUs,
      updateTime: nowUs,
      triggerTime: 0,
      actualOrderId: -1,
      rejectReason: '',
      extreme: watchedPrice ?? 0,
      // No activation price: it activates at placement (the docs: "defaults to the latest price").
      activated: request.type === 'TRAILING_STOP_MARKET' && request.activatePrice === 0,
    };
    this.#orders.set(algoId, order);
    this.#live.add(algoId);
    this.#dirty = true;
    return order;
  }

  /**
   * A price of `symbol` of one kind at `nowUs`: the open orders watching it that fire now, marked
   * TRIGGERING, in algoId order. Trailing orders update their extreme first.
   */
  onPrice(symbol: string, kind: WorkingType, price: number, nowUs: number, protection?: TriggerProtection): AlgoOrder[] {
    const fired: AlgoOrder[] = [];
    const guarded = protection !== undefined && protection.deviationPpm > protection.limitPpm;
    for (const id of this.#live) {
      const o = this.#orders.get(id)!;
      if (!isOpen(o) || o.symbol !== symbol || o.workingType !== kind) continue;
      if (o.type === 'TRAILING_STOP_MARKET') {
        this.#dirty = true; // its extreme may have moved
        if (!this.#trail(o, price)) continue;
      } else if (!fires(o, price)) continue;
      if (guarded && o.priceProtect) continue;
      this.#dirty = true;
      o.status = 'TRIGGERING';
      o.triggerTime = nowUs;
      o.updateTime = nowUs;
      fired.push(o);
    }
    return fired;
  }

  /** Trailing bookkeeping at price `p`; whether the order fires. */
  #trail(o: AlgoOrder, p: number): boolean {
    const buy = o.side === 'BUY';
    if (o.extreme === 0 || (buy ? p < o.extreme : p > o.extreme)) o.extreme = p;
    if (!o.activated && (buy ? o.extreme <= o.activatePrice : o.extreme >= o.activatePrice)) o.activated = true;
    if (!o.activated) return false;
    const ppm = callbackPpm(o.callbackRate);
    // BUY: p ≥ low × (1 + cb); SELL: p ≤ high × (1 − cb), cb = callbackRate / 100 (ppm of 1 / 1e6).
    return buy ? p * 1_000_000 >= o.extreme * (1_000_000 + ppm) : p * 1_000_000 <= o.extreme * (1_000_000 - ppm);
  }

  /** The engine took the order placed at the trigger. */
  triggered(algoId: number, orderId: number, nowUs: number): void {
    this.#dirty = true;
    const o = this.#orders.get(algoId);
    if (o === undefined) return;
    o.status = 'TRIGGERED';
    o.actualOrderId = orderId;
    o.updateTime = nowUs;
  }

  /** The engine refused the order placed at the trigger. */
  rejected(algoId: number, reason: string, nowUs: number): void {
    this.#dirty = true;
    const o = this.#orders.get(algoId);
    if (o === undefined) return;
    o.status = 'REJECTED';
    o.rejectReason = reason;
    o.updateTime = nowUs;
    this.#live.delete(algoId);
  }

  /** The engine order of a TRIGGERED algo order is done (filled, canceled or expired). */
  finished(algoId: number, nowUs: number): void {
    this.#dirty = true;
    const o = this.#orders.get(algoId);
    if (o === undefined || o.status !== 'TRIGGERED') return;
    o.status = 'FINISHED';
    o.updateTime = nowUs;
    this.#live.delete(algoId);
  }

  /** Cancels an open order of the account; undefined when it is not open. */
  cancel(accountId: number, algoId: number, nowUs: number): AlgoOrder | undefined {
    const o = this.#orders.get(algoId);
    if (o === undefined || o.accountId !== accountId || !isOpen(o)) return undefined;
    o.status = 'CANCELED';
    o.updateTime = nowUs;
    this.#live.delete(algoId);
    this.#dirty = true;
    return o;
  }

  /** An account's order by algoId or clientAlgoId (the latest with that client id). */
  find(accountId: number, ref: { readonly algoId?: number; readonly clientAlgoId?: string }): AlgoOrder | undefined {
    if (ref.algoId !== undefined) {
      const o = this.#orders.get(ref.algoId);
      return o !== undefined && o.accountId === accountId && (ref.clientAlgoId === undefined || o.clientAlgoId === ref.clientAlgoId) ? o : undefined;
    }
    let found: AlgoOrder | undefined;
    for (const o of this.#orders.values()) if (o.accountId === accountId && o.clientAlgoId === ref.clientAlgoId) found = o;
    return found;
  }

  /** An account's orders (optionally of one engine symbol), algoId order. */
  ordersOf(accountId: number, symbol?: string): AlgoOrder[] {
    const out: AlgoOrder[] = [];
    for (const o of this.#orders.values()) if (o.accountId === accountId && (symbol === undefined || o.symbol === symbol)) out.push(o);
    return out;
  }

  /** The system ends an order that cannot work any more (closePosition with nothing to close). */
  expire(algoId: number, nowUs: number): void {
    this.#dirty = true;
    const o = this.#orders.get(algoId);
    if (o === undefined) return;
    o.status = 'EXPIRED';
    o.updateTime = nowUs;
    this.#live.delete(algoId);
  }

  /**
   * GTD orders still waiting (NEW) whose goodTillDate is at or before `nowUs`: EXPIRED at their
   * due time, returned in algoId order.
   */
  expireDue(nowUs: number): AlgoOrder[] {
    const out: AlgoOrder[] = [];
    for (const id of this.#live) {
      const o = this.#orders.get(id)!;
      const due = o.goodTillTime ?? 0;
      if (due === 0 || due > nowUs || !isOpen(o)) continue;
      o.status = 'EXPIRED';
      o.updateTime = due;
      out.push(o);
    }
    for (const o of out) this.#live.delete(o.algoId);
    if (out.length > 0) this.#dirty = true;
    return out.sort((a, b) => a.algoId - b.algoId);
  }

  /** TRIGGERED orders whose engine order is `orderId` on `symbol`. */
  byEngineOrder(symbol: string, orderId: number): AlgoOrder | undefined {
    for (const id of this.#live) {
      const o = this.#orders.get(id)!;
      if (o.status === 'TRIGGERED' && o.symbol === symbol && o.actualOrderId === orderId) return o;
    }
    return undefined;
  }

  /** Whether any order can still move (the facade skips every batch otherwise: spot-only runs pay nothing). */
  get hasLive(): boolean {
    return this.#live.size > 0;
  }
}
