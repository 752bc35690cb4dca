/**
 * PlaceOrderList: OCO, OTO, OTOCO, OPO and OPOCO (binance-facts §5.12). The whole list is
 * checked before any leg is accepted; a refusal names the first problem and changes nothing.
 *
 * Checks, in order: the symbol allows the kind; the legs' count and roles (OCO: one leg a
 * LIMIT_MAKER / TAKE_PROFIT(_LIMIT), the other a STOP_LOSS(_LIMIT), on the sides the docs give;
 * OTO-kinds: a LIMIT or LIMIT_MAKER working order; OPO: a BUY working order and SELL pending
 * ones); every leg as an order of its own (filters, counts including the legs before it); the
 * OCO prices straddle the last price; the list counts (MAX_NUM_ORDER_LISTS and its exchange
 * version); a free listClientOrderId; and funds.
 *
 * Funds: an OCO pair holds its funds once. The leg that can fill without a trigger (the
 * LIMIT_MAKER), else the first, reserves its own need; its partner reserves nothing while the
 * first is open (`sharesLock`), and reserves its own when it starts working, after the partner
 * expired. Placement still requires the larger of the two needs to be free. Pending legs of
 * OTO-kinds reserve nothing until placed.
 */
import type { Account } from '../accounts/account.ts';
import { generateClientOrderId } from '../client-order-id.ts';
import type { OrderRequest, PlaceOrder, PlaceOrderList } from '../commands.ts';
import { emitListStatus } from '../conditional/contingency.ts';
import { stopLockAtPlacement } from '../conditional/stop-rules.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { matchTaker } from '../matching/match-order.ts';
import { planTakerWalk } from '../matching/plan-taker-walk.ts';
import type { Order } from '../order.ts';
import { checkPlacement, freshPlacement, type CheckedPlacement } from '../place-order.ts';
import { accept, expire, finishTaker, waitForTrigger } from '../order-lifecycle.ts';
import type { RejectReason } from '../reject-reason.ts';
import { CONDITIONAL_TYPES, type OrderListKind, type OrderType } from '../types.ts';
import { OrderList } from './order-list.ts';

const LEG_COUNT: Record<OrderListKind, number> = { OCO: 2, OTO: 2, OPO: 2, OTOCO: 3, OPOCO: 3 };

const LIMIT_SIDE_TYPES: ReadonlySet<OrderType> = new Set(['LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);
const STOP_LOSS_TYPES: ReadonlySet<OrderType> = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT']);

/** The OCO leg rules for a pair [above, below] of one side. */
function ocoShapeProblem(above: OrderRequest, below: OrderRequest): RejectReason | null {
  for (const leg of [above, below]) {
    if (!LIMIT_SIDE_TYPES.has(leg.orderType) && !STOP_LOSS_TYPES.has(leg.orderType)) return 'OCO_ORDER_TYPE_REJECTED';
  }
  if (above.side !== below.side) return 'UNSUPPORTED_ORDER_COMBINATION';
  if (above.orderType === 'LIMIT_MAKER' && below.orderType === 'LIMIT_MAKER') return 'OCO_BOTH_LIMIT';
  const sell = above.side === 'SELL';
  if (sell) {
    // SELL: the limit / take-profit leg above, the stop-loss leg below.
    if (STOP_LOSS_TYPES.has(above.orderType)) return 'SELL_OCO_STOP_LOSS_MUST_BE_BELOW';
    if (below.orderType === 'LIMIT_MAKER') return 'SELL_OCO_LIMIT_MUST_BE_ABOVE';
    if (LIMIT_SIDE_TYPES.has(below.orderType)) return 'SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE';
  } else {
    // BUY: the stop-loss leg above, the limit / take-profit leg below.
    if (above.orderType === 'LIMIT_MAKER') return 'BUY_OCO_LIMIT_MUST_BE_BELOW';
    if (LIMIT_SIDE_TYPES.has(above.orderType)) return 'BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW';
    if (STOP_LOSS_TYPES.has(below.orderType)) return 'BUY_OCO_STOP_LOSS_MUST_BE_ABOVE';
  }
  for (const leg of [above, below]) {
    if (leg.icebergQty !== undefined && leg.timeInForce !== undefined && leg.timeInForce !== 'GTC') return 'OCO_ICEBERG_NEEDS_GTC';
  }
  return null;
}

/** The price a leg is judged by in the straddle rule: a stop's stop price, a LIMIT_MAKER's price. */
function legTriggerPrice(leg: OrderRequest): number | undefined {
  return leg.orderType === 'LIMIT_MAKER' ? leg.price : leg.stopPrice;
}

/** OCO prices must straddle the last price: above > last > below (binance-facts §5.12). */
function ocoPricesProblem(symbol: SymbolState, above: OrderRequest, below: OrderRequest): RejectReason | null {
  const last = symbol.lastTrade?.price;
  const high = legTriggerPrice(above);
  const low = legTriggerPrice(below);
  if (high !== undefined && low !== undefined && high <= low) return 'OCO_BAD_PRICES';
  if (last === undefined) return null;
  if (high !== undefined && !(high > last)) return 'OCO_BAD_PRICES';
  if (low !== undefined && !(low < last)) return 'OCO_BAD_PRICES';
  return null;
}

function shapeProblem(command: PlaceOrderList): RejectReason | null {
  const legs = command.legs;
  if (legs.length !== LEG_COUNT[command.kind]) return 'ORDER_LIST_BAD_LEG_COUNT';
  if (command.kind === 'OCO') return ocoShapeProblem(legs[0]!, legs[1]!);
  const working = legs[0]!;
  if (working.orderType !== 'LIMIT' && working.orderType !== 'LIMIT_MAKER') return 'ORDER_LIST_BAD_WORKING_TYPE';
  const opo = command.kind === 'OPO' || command.kind === 'OPOCO';
  if (opo && working.side !== 'BUY') return 'OPO_WORKING_MUST_BE_BUY';
  for (const pending of legs.slice(1)) {
    if (pending.quoteOrderQty !== undefined) return 'UNSUPPORTED_ORDER_COMBINATION';
    if (opo && pending.side !== 'SELL') return 'OPO_PENDING_MUST_BE_SELL';
    if (opo && pending.quantity !== undefined) return 'UNSUPPORTED_ORDER_COMBINATION';
  }
  if (command.kind === 'OTOCO' || command.kind === 'OPOCO') return ocoShapeProblem(legs[1]!, legs[2]!);
  return null;
}

function supportProblem(symbol: SymbolState, kind: OrderListKind): RejectReason | null {
  const spec = symbol.spec;
  const needsOco = kind === 'OCO' || kind === 'OTOCO' || kind === 'OPOCO';
  const needsOto = kind !== 'OCO';
  const needsOpo = kind === 'OPO' || kind === 'OPOCO';
  if (needsOco && !spec.ocoAllowed) return 'OCO_NOT_SUPPORTED';
  if (needsOto && !spec.otoAllowed) return 'OTO_NOT_SUPPORTED';
  if (needsOpo && !spec.opoAllowed) return 'OPO_NOT_SUPPORTED';
  return null;
}

interface CheckedLeg {
  request: PlaceOrder;
  checked: CheckedPlacement;
  /** What the leg must reserve if it holds funds at placement (0 for pending legs). */
  need: number;
  pending: boolean;
}

/** Every leg checked as an order of its own, counting the legs before it. */
function checkLegs(state: EngineState, command: PlaceOrderList): RejectReason | CheckedLeg[] {
  const out: CheckedLeg[] = [];
  const fromWorking = command.kind === 'OPO' || command.kind === 'OPOCO';
  state.ordersAhead = 0;
  state.algoAhead = 0;
  state.icebergAhead = 0;
  try {
    for (let i = 0; i < command.legs.length; i++) {
      const leg = command.legs[i]!;
      const pending = command.kind !== 'OCO' && i > 0;
      // OPO pending legs have no quantity yet: they are checked at the working quantity.
      const quantity = fromWorking && pending ? command.legs[0]!.quantity : leg.quantity;
      // Built onto a fresh literal (ARCHITECTURE.md, "Object shapes").
      const request: PlaceOrder = Object.assign({ type: 'PlaceOrder' as const, time: command.time, accountId: command.accountId, symbol: command.symbol }, leg);
      if (quantity !== undefined) request.quantity = quantity;
      const checked = checkPlacement(state, request, freshPlacement(), true);
      if (typeof checked === 'string') return checked;
      const { symbol, isBuy, priceTicks, steps } = checked;
      let need = 0;
      if (!pending) {
        if (!isBuy) need = steps * symbol.spec.stepUnits;
        else if (CONDITIONAL_TYPES.has(leg.orderType)) need = stopLockAtPlacement(symbol, isBuy, leg.orderType, priceTicks, checked.special!.stopPrice, steps);
        else need = symbol.notional(priceTicks, steps);
      }
      out.push({ request, checked, need, pending });
      state.ordersAhead += 1;
      if (CONDITIONAL_TYPES.has(leg.orderType)) state.algoAhead += 1;
      if (leg.icebergQty !== undefined) state.icebergAhead += 1;
    }
  } finally {
    state.ordersAhead = 0;
    state.algoAhead = 0;
    state.icebergAhead = 0;
  }
  return out;
}

function listCountProblem(state: EngineState, symbol: SymbolState, account: Account): RejectReason | null {
  const max = symbol.spec.maxNumOrderLists;
  if (max !== null && (symbol.listsByAccount[account.slot] ?? 0) + 1 > max) return 'FILTER_MAX_NUM_ORDER_LISTS';
  const exchangeMax = state.exchangeFilters.maxNumOrderLists;
  if (exchangeMax !== null && account.openListCount + 1 > exchangeMax) return 'FILTER_EXCHANGE_MAX_NUM_ORDER_LISTS';
  return null;
}

function clientIdProblem(state: EngineState, command: PlaceOrderList, account: Account): RejectReason | null {
  const ids = command.legs.map((l) => l.clientOrderId).filter((id): id is string => id !== undefined);
  if (new Set(ids).size !== ids.length) return 'DUPLICATE_ORDER';
  if (command.listClientOrderId !== undefined) {
    for (const list of state.orderLists.values()) {
      if (list.accountId === account.accountId && list.isOpen && list.listClientOrderId === command.listClientOrderId) return 'DUPLICATE_ORDER_LIST';
    }
  }
  return null;
}

export function placeOrderList(state: EngineState, command: PlaceOrderList): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const account = state.accounts.get(command.accountId);
  if (!account) return state.reject(command, 'UNKNOWN_ACCOUNT');
  const refusal = supportProblem(symbol, command.kind) ?? shapeProblem(command);
  if (refusal) return state.reject(command, refusal);
  const legs = checkLegs(state, command);
  if (typeof legs === 'string') return state.reject(command, legs);
  const pair = command.kind === 'OCO' ? [0, 1] : command.kind === 'OTOCO' || command.kind === 'OPOCO' ? [1, 2] : null;
  if (pair) {
    const problem = command.kind === 'OCO' ? ocoPricesProblem(symbol, command.legs[0]!, command.legs[1]!) : null;
    if (problem) return state.reject(command, problem);
  }
  const countProblem = listCountProblem(state, symbol, account) ?? clientIdProblem(state, command, account);
  if (countProblem) return state.reject(command, countProblem);

  // Funds. OCO: one leg holds (the LIMIT_MAKER if there is one), the larger need must be free.
  const isBuy = legs[0]!.checked.isBuy;
  const asset = isBuy ? symbol.quoteAsset : symbol.baseAsset;
  let holder = 0;
  if (command.kind === 'OCO') {
    holder = command.legs[1]!.orderType === 'LIMIT_MAKER' ? 1 : 0;
    const largest = Math.max(legs[0]!.need, legs[1]!.need);
    if (account.freeOf(asset) < largest) return state.reject(command, 'INSUFFICIENT_BALANCE');
  } else {
    // The working leg may sell or buy a different asset than its pending legs; only it reserves now.
    const workingAsset = legs[0]!.checked.isBuy ? symbol.quoteAsset : symbol.baseAsset;
    if (account.freeOf(workingAsset) < legs[0]!.need) return state.reject(command, 'INSUFFICIENT_BALANCE');
  }

  const time = command.time;
  const orderListId = state.nextOrderListId++;
  const orders: Order[] = [];
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i]!;
    const shares = command.kind === 'OCO' && i !== holder;
    const lock = leg.pending || shares ? 0 : leg.need;
    const legAsset = leg.checked.isBuy ? symbol.quoteAsset : symbol.baseAsset;
    if (lock > 0 && !account.reserve(legAsset, lock)) throw new Error(`order list ${orderListId}: funds checked but not reservable`);
    const { priceTicks, steps, stpMode } = leg.checked;
    const order = accept(state, symbol, account, leg.request, { priceTicks, steps, stpMode, lock, special: leg.checked.special, orderListId, pending: leg.pending });
    const ext = order.extras();
    ext.sharesLock = shares;
    ext.quantityFromWorking = leg.pending && (command.kind === 'OPO' || command.kind === 'OPOCO');
    orders.push(order);
  }
  const listClientOrderId = command.listClientOrderId ?? generateClientOrderId(symbol.spec.index, orderListId, 2);
  const list = new OrderList(
    orderListId,
    symbol.spec.index,
    symbol.spec.symbol,
    account.accountId,
    command.kind,
    listClientOrderId,
    orders.map((o) => o.orderId),
    orders.map((o) => o.clientOrderId),
    time,
  );
  for (const order of orders) order.ext!.list = list;
  state.orderLists.set(orderListId, list);
  symbol.listsByAccount[account.slot] = (symbol.listsByAccount[account.slot] ?? 0) + 1;
  account.openListCount += 1;
  emitListStatus(state, list, time);

  // Start the legs that work now: OCO legs (the LIMIT_MAKER rests, stops wait), or the working order.
  const working = command.kind === 'OCO' ? orders : [orders[0]!];
  for (const order of working) {
    if (!order.isOpen) continue;
    if (CONDITIONAL_TYPES.has(order.type)) waitForTrigger(state, symbol, order, time);
    else startNow(state, symbol, order, time);
  }
}

/** A working leg placed with the list: LIMIT (any time in force) or LIMIT_MAKER, matched at once. */
function startNow(state: EngineState, symbol: SymbolState, order: Order, time: number): void {
  if (order.timeInForce === 'FOK' && order.type === 'LIMIT') {
    const plan = planTakerWalk(symbol, { account: order.account, isBuy: order.isBuy, stpMode: order.stpMode, limitTicks: order.priceTicks, wantSteps: order.remainingSteps, quoteBudget: Infinity, time: time });
    if (!plan.complete) return expire(state, symbol, order, 'EXPIRED', 'UNFILLED_FOK_ORDER_EXPIRED', time);
  }
  finishTaker(state, symbol, order, time, matchTaker(state, symbol, order, time));
}
