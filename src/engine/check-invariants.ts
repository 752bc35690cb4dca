/**
 * The engine's invariants, checked over the whole state (the property tests call this after
 * every command; exchange-core keeps its `validateInternalState` apart the same way):
 * - books never crossed, nor with the synthetic book's levels merged in; levels in price order,
 *   FIFO by arrival, level totals and counts equal to what their orders show;
 * - each open order reserves exactly `requiredLock`; an account's locked balance of an asset is
 *   the sum over its open orders; open, algo, iceberg and list counts equal what is open;
 * - lists: ALL_DONE exactly when every leg ended; an OCO pair never trades both legs;
 * - every asset conserved: Σ (free + locked) + fees = net deposits; nothing negative. For a
 *   margin asset the isolated wallets and the insurance fund count too, and the net deposits
 *   include the futures flows whose counterparty is outside the engine (realized PnL, funding):
 *   wallets + locked + fund + fees − external flows is constant;
 * - futures: positions on the side their mode allows (LONG ≥ 0, SHORT ≤ 0), entry cost and
 *   isolated wallets never negative (and zero when flat or cross), every open margin order known
 *   with its futures fields, and the open reducing orders of a position adding up to at most its
 *   size on the side that reduces it (so a reduce-only order can never increase a position);
 *   every open GTD order queued at its due time.
 */
import type { Account } from './accounts/account.ts';
import { lockedAsset, requiredLock } from './accounts/settle.ts';
import type { EngineState } from './engine-state.ts';
import { bestTicks } from './liquidity/merged-levels.ts';
import { CONDITIONAL_TYPES } from './types.ts';
import { SIDE_BOTH, SIDE_LONG, SIDE_SHORT } from './futures/futures-state.ts';
import type { Order } from './order.ts';

/** Throws if an internal invariant is broken (crossed book, level totals, locked funds, ...). */
export function checkInvariants(state: EngineState): void {
  const lockedByAccount = new Map<Account, number[]>();
  const openEverywhere = new Map<Account, number>();
  // Lists: ALL_DONE exactly when every leg ended; an OCO pair never has both legs traded.
  for (const list of state.orderLists.values()) {
    const s = state.symbols.get(list.symbol)!;
    const anyOpen = list.orderIds.some((id) => s.live.get(id) !== undefined);
    if (anyOpen !== list.isOpen) throw new Error(`list ${list.orderListId} is ${list.listOrderStatus} with ${anyOpen ? 'open' : 'no open'} legs`);
    const pair = list.kind === 'OCO' ? [0, 1] : list.kind === 'OTOCO' || list.kind === 'OPOCO' ? [1, 2] : null;
    if (pair) {
      const traded = pair.filter((role) => (s.record(list.orderIds[role]!)?.executedSteps ?? 0) > 0);
      if (traded.length === 2) throw new Error(`OCO legs of list ${list.orderListId} both traded`);
    }
  }
  for (const s of state.symbolList) {
    for (const stop of s.stops) if (!stop.isOpen || !stop.ext?.untriggered) throw new Error(`stop list of ${s.spec.symbol} holds ${stop.orderId} (${stop.status})`);
    const bid = s.book.bids.best();
    const ask = s.book.asks.best();
    if (bid && ask && bid.ticks >= ask.ticks) throw new Error(`${s.spec.symbol}: book crossed (${bid.ticks} >= ${ask.ticks})`);
    if (s.liquidity !== null) {
      // As takers and market data see it, with the synthetic book merged in: never crossed either.
      const shownBid = bestTicks(s, true);
      const shownAsk = bestTicks(s, false);
      if (shownBid !== undefined && shownAsk !== undefined && shownBid >= shownAsk) throw new Error(`${s.spec.symbol}: book with the synthetic levels crossed (${shownBid} >= ${shownAsk})`);
    }
    for (const side of [s.book.bids, s.book.asks]) {
      let count = 0;
      const levels = side.levelsIncludingDormant();
      for (let i = 0; i < levels.length; i++) {
        const level = levels[i]!;
        if (i > 0 && !side.better(level.ticks, levels[i - 1]!.ticks)) throw new Error(`${s.spec.symbol}: levels out of order`);
        let total = 0;
        let n = 0;
        let prevId = 0;
        for (let o: Order | null = level.head; o !== null; o = o.next) {
          if (o.level !== level || o.priceTicks !== level.ticks) throw new Error(`order ${o.orderId} linked to the wrong level`);
          if (!o.isOpen || o.remainingSteps <= 0) throw new Error(`order ${o.orderId} rests while ${o.status}`);
          // FIFO by arrival: plain orders arrive in id order. Triggered stops, activated list
          // legs and refilled iceberg slices arrive later than their ids say, so only plain
          // orders are compared.
          if (o.ext === null && !(s.margin?.orders.get(o.orderId)?.requeued ?? false)) {
            if (o.orderId <= prevId) throw new Error(`${s.spec.symbol}: FIFO broken at ${level.ticks}`);
            prevId = o.orderId;
          }
          if (o.isIceberg && (o.bookSteps <= 0 || o.bookSteps > o.ext!.icebergSteps || o.bookSteps > o.remainingSteps)) {
            throw new Error(`iceberg ${o.orderId} shows ${o.bookSteps} of ${o.remainingSteps}`);
          }
          total += o.bookSteps;
          n += 1;
        }
        if (total !== level.totalSteps || n !== level.count) throw new Error(`${s.spec.symbol}: level ${level.ticks} totals wrong`);
        if (n === 0 && i === levels.length - 1) throw new Error(`${s.spec.symbol}: the best level is empty`);
        count += n;
      }
      if (count !== side.orderCount) throw new Error(`${s.spec.symbol}: side order count wrong`);
    }
    for (const order of s.live.values()) {
      openEverywhere.set(order.account, (openEverywhere.get(order.account) ?? 0) + 1);
      if (order.executedSteps + order.preventedSteps > order.origSteps) throw new Error(`order ${order.orderId} over-executed`);
      if (order.isOpen) {
        if (order.locked !== requiredLock(s, order)) throw new Error(`order ${order.orderId} reserves ${order.locked}, needs ${requiredLock(s, order)}`);
        const waiting = !order.isWorking;
        if (!waiting && !order.level) throw new Error(`open order ${order.orderId} is not on the book`);
        if (waiting && order.level) throw new Error(`order ${order.orderId} rests on the book before it works`);
        if ((order.ext?.untriggered ?? false) !== s.stops.includes(order)) throw new Error(`stop ${order.orderId} and the stop list disagree`);
        const list = order.ext?.list ?? null;
        if (list !== null && !list.isOpen) throw new Error(`order ${order.orderId} is open in finished list ${list.orderListId}`);
        let locks = lockedByAccount.get(order.account);
        if (!locks) lockedByAccount.set(order.account, (locks = []));
        const asset = lockedAsset(s, order);
        locks[asset] = (locks[asset] ?? 0) + order.locked;
      } else {
        throw new Error(`order ${order.orderId} is ${order.status} but still live`);
      }
    }
  }
  for (const s of state.symbolList) {
    for (const account of state.accounts.values()) {
      const counted = s.openOrdersOf(account).length;
      if ((s.openByAccount[account.slot] ?? 0) !== counted) throw new Error(`${s.spec.symbol}: open count of account ${account.accountId} is off`);
    }
  }
  for (const account of state.accounts.values()) {
    if (account.openCount !== (openEverywhere.get(account) ?? 0)) throw new Error(`account ${account.accountId}: exchange-wide open count is off`);
  }
  // The counts behind MAX_NUM_ALGO_ORDERS, MAX_NUM_ICEBERG_ORDERS, MAX_NUM_ORDER_LISTS.
  for (const account of state.accounts.values()) {
    let algo = 0;
    let iceberg = 0;
    let lists = 0;
    for (const s of state.symbolList) {
      let algoHere = 0;
      let icebergHere = 0;
      for (const o of s.openOrdersOf(account)) {
        if (CONDITIONAL_TYPES.has(o.type)) algoHere += 1;
        if (o.isIceberg) icebergHere += 1;
      }
      let listsHere = 0;
      for (const l of state.orderLists.values()) if (l.isOpen && l.accountId === account.accountId && l.symbol === s.spec.symbol) listsHere += 1;
      if ((s.algoByAccount[account.slot] ?? 0) !== algoHere || (s.icebergByAccount[account.slot] ?? 0) !== icebergHere || (s.listsByAccount[account.slot] ?? 0) !== listsHere) {
        throw new Error(`account ${account.accountId} on ${s.spec.symbol}: algo/iceberg/list counts are off`);
      }
      algo += algoHere;
      iceberg += icebergHere;
      lists += listsHere;
    }
    if (account.algoCount !== algo || account.icebergCount !== iceberg || account.openListCount !== lists) {
      throw new Error(`account ${account.accountId}: exchange-wide algo/iceberg/list counts are off`);
    }
  }
  const totals = state.fees.slice();
  if (state.futures !== null) checkFuturesInvariants(state, totals);
  for (const account of state.accounts.values()) {
    const locks = lockedByAccount.get(account) ?? [];
    for (let asset = 0; asset < state.assetNames.length; asset++) {
      const free = account.freeOf(asset);
      const locked = account.lockedOf(asset);
      if (free < 0 || locked < 0) throw new Error(`account ${account.accountId}: negative balance of ${state.assetNames[asset]}`);
      if (locked !== (locks[asset] ?? 0)) {
        throw new Error(`account ${account.accountId}: locked ${state.assetNames[asset]} ${locked} != open orders' ${locks[asset] ?? 0}`);
      }
      totals[asset] = (totals[asset] as number) + free + locked;
    }
  }
  for (let asset = 0; asset < state.assetNames.length; asset++) {
    if (totals[asset] !== state.deposited[asset]) {
      throw new Error(`asset ${state.assetNames[asset]} not conserved: ${totals[asset]} held vs ${state.deposited[asset]} deposited`);
    }
  }
}

/** The futures invariants; adds isolated wallets and insurance funds to `totals` for conservation. */
function checkFuturesInvariants(state: EngineState, totals: number[]): void {
  const futures = state.futures!;
  futures.insuranceFund.forEach((fund, asset) => {
    totals[asset] = (totals[asset] as number) + fund;
  });
  for (const fa of futures.accountList) {
    const account = state.account(fa.accountId);
    if (account === undefined) throw new Error(`futures account ${fa.accountId} has no account`);
    for (const index of futures.marginSymbols) {
      const symbol = state.symbolList[index]!;
      const settings = fa.settings[index];
      if (settings === undefined) continue;
      const where = `account ${fa.accountId} on ${symbol.spec.symbol}`;
      settings.positions.forEach((p, side) => {
        if (p.entryCost < 0 || p.isolatedWallet < 0) throw new Error(`${where}: negative entry cost or isolated wallet`);
        if (p.amount === 0 && (p.entryCost !== 0 || p.isolatedWallet !== 0)) throw new Error(`${where}: flat position keeps cost ${p.entryCost} / isolated ${p.isolatedWallet}`);
        if (!settings.isolated && p.isolatedWallet !== 0) throw new Error(`${where}: cross position with an isolated wallet`);
        if (fa.hedge ? side === SIDE_BOTH && p.amount !== 0 : side !== SIDE_BOTH && p.amount !== 0) throw new Error(`${where}: position on side ${side} in ${fa.hedge ? 'hedge' : 'one-way'} mode`);
        if ((side === SIDE_LONG && p.amount < 0) || (side === SIDE_SHORT && p.amount > 0)) throw new Error(`${where}: ${side === SIDE_LONG ? 'LONG' : 'SHORT'} position ${p.amount}`);
        totals[symbol.quoteAsset] = (totals[symbol.quoteAsset] as number) + p.isolatedWallet;
      });
    }
  }
  for (const index of futures.marginSymbols) {
    const symbol = state.symbolList[index]!;
    const margin = symbol.margin!;
    for (const order of symbol.live.values()) {
      if (!margin.orders.has(order.orderId)) throw new Error(`margin order ${order.orderId} on ${symbol.spec.symbol} has no futures fields`);
      // An open GTD order waits in the queue at its due time (good-till-date.ts).
      const due = margin.goodTill.size === 0 ? undefined : margin.goodTill.get(order.orderId);
      if (due !== undefined && !futures.gtdQueue.some((e) => e.symbolIndex === index && e.orderId === order.orderId && e.due === due)) {
        throw new Error(`GTD order ${order.orderId} on ${symbol.spec.symbol} is not queued for ${due}`);
      }
    }
    // Open reducing orders per (account, side): on the reducing side, within the position.
    const used = new Map<string, number>();
    for (const id of margin.reducing) {
      const order = symbol.live.get(id);
      if (order === undefined) continue;
      const info = margin.orders.get(id)!;
      const position = futures.accounts.get(order.account.accountId)?.settings[index]?.positions[info.side];
      const amount = position?.amount ?? 0;
      if (amount === 0 || order.isBuy !== amount < 0) throw new Error(`reducing order ${id} on ${symbol.spec.symbol} would increase position ${amount}`);
      const key = `${order.account.accountId}/${info.side}`;
      const total = (used.get(key) ?? 0) + order.remainingSteps;
      used.set(key, total);
      if (total > Math.abs(amount)) throw new Error(`reducing orders of ${key} on ${symbol.spec.symbol} exceed position ${amount}`);
    }
    for (const order of symbol.live.values()) {
      if (margin.orders.get(order.orderId)!.reducing && !margin.reducing.includes(order.orderId)) throw new Error(`reducing order ${order.orderId} not tracked`);
    }
  }
}
