/**
 * A SHA-256 digest of a canonical text of the whole engine state. Two engines that applied the
 * same commands have the same digest; replaying a journal must reproduce it. Everything is
 * written in a fixed order (ids ascending, books best-first), never in hash-map order.
 */
import { createHash } from 'node:crypto';
import type { EngineState } from './engine-state.ts';

export function computeStateHash(state: EngineState): string {
  const hash = createHash('sha256');
  const line = (text: string) => hash.update(text + '\n');
  // The time of the last command is not state: a refused command must leave the hash unchanged.
  line(`assets ${state.assetNames.map((a, i) => `${a}:${state.assetPrecision[i]}`).join(',')}`);
  line(`fees ${state.fees.join(',')}`);
  line(`deposited ${state.deposited.join(',')}`);
  const accountIds = [...state.accounts.keys()].sort((a, b) => a - b);
  for (const id of accountIds) {
    const a = state.accounts.get(id)!;
    line(
      `account ${id} ${a.canTrade} ${a.tradeGroupId} ${a.updateTime} ${a.openCount} ` +
        `free ${a.free.join(',')} locked ${a.locked.join(',')} perms ${a.permissions.join(',')} ` +
        `rates ${JSON.stringify([a.standardCommission, a.taxCommission, a.specialCommission, a.discount])}`,
    );
    a.trades.forEach((list, symbolIndex) => {
      if (list && list.length > 0) line(`trades ${id} ${symbolIndex} ${list.length} ${JSON.stringify(list[list.length - 1])}`);
    });
  }
  // Lines for conditional state appear only once it exists, so plain histories keep their digests.
  if (state.nextOrderListId > 0) line(`lists next ${state.nextOrderListId}`);
  for (const list of state.orderLists.values()) {
    line(`list ${list.orderListId} ${list.kind} ${list.symbol} ${list.accountId} ${list.listClientOrderId} ${list.listStatusType} ${list.listOrderStatus} ${list.transactionTime} ${list.orderIds.join(',')} ${list.clientOrderIds.join(',')}`);
  }
  // Futures lines only in engines with margin symbols, so spot histories keep their digests.
  const futures = state.futures;
  if (futures !== null) {
    line(`futures fund ${futures.insuranceFund.join(',')} pnl ${futures.realizedFlow.join(',')} funding ${futures.fundingFlow.join(',')} tran ${futures.nextTranId}`);
    for (const fa of futures.accountList) {
      line(`futures account ${fa.accountId} ${fa.hedge} rates ${fa.makerRate}/${fa.takerRate} income ${fa.income.length}`);
      fa.settings.forEach((st, index) => {
        if (st === undefined) return;
        line(`futures settings ${fa.accountId} ${index} ${st.leverage} ${st.isolated} ${st.positions.map((p) => `${p.amount}/${p.entryCost}/${p.isolatedWallet}/${p.realized}/${p.feesPaid}/${p.updateTime}`).join(' ')}`);
      });
    }
    for (const index of futures.marginSymbols) {
      const m = state.symbolList[index]!.margin!;
      line(`futures mark ${index} ${m.markPrice} ${m.indexPrice} ${m.markTime} ${m.lastFundingRate} reducing ${m.reducing.join(',')}`);
      // GTD lines only when there are GTD orders, so earlier futures digests stay as they were.
      if (m.goodTill.size !== 0) line(`futures gtd ${index} ${[...m.goodTill].sort((a, b) => a[0] - b[0]).map(([id, due]) => `${id}@${due}`).join(',')}`);
    }
    // The queue's open orders only: entries of orders closed otherwise wait to be dropped when
    // due (good-till-date.ts), a bookkeeping detail no command or query can see.
    const waiting = futures.gtdQueue.filter((e) => state.symbolList[e.symbolIndex]!.live.get(e.orderId)?.isOpen === true);
    if (waiting.length !== 0) line(`futures gtd queue ${waiting.map((e) => `${e.due}/${e.symbolIndex}/${e.orderId}`).join(',')}`);
  }
  for (const s of state.symbolList) {
    line(
      `symbol ${s.spec.symbol} ${s.status} ref ${s.referencePrice} next ${s.nextOrderId}/${s.nextTradeId}/${s.nextPreventedMatchId} ` +
        `trades ${s.tradeCount} last ${JSON.stringify(s.lastTrade)} window ${s.window.describe()} prevented ${s.preventedMatches.length}`,
    );
    if (s.meanReference !== null) line(`mean reference ${s.meanReference.describe()}`);
    for (let orderId = 1; orderId < s.nextOrderId; orderId++) {
      const o = s.record(orderId)!;
      line(
        `order ${o.orderId} ${o.clientOrderId} ${o.accountId} ${o.isBuy ? 'B' : 'S'} ${o.type} ${o.timeInForce} ` +
          `${o.priceTicks} ${o.origSteps} ${o.executedSteps} ${o.preventedSteps} ${o.cumQuote} ${o.quoteOrderQty} ` +
          `${o.status} ${o.expiryReason} ${o.time} ${o.updateTime} ${o.workingTime} ${o.locked} ${o.stpMode} ${o.preventedMatchId}` +
          // Conditional orders only, so plain histories keep their digests.
          (o.extras === null ? '' : ` list ${o.orderListId} working ${o.isWorking} ${JSON.stringify(o.extras)}`),
      );
    }
    const live = s.live.values();
    for (const o of live) {
      const x = o.ext;
      if (x !== null) line(`extras ${o.orderId} ${x.untriggered} ${x.trailExtreme} ${x.visibleSteps} ${x.sharesLock} ${x.quantityFromWorking}`);
    }
    if (s.nextAllocationId > 0) line(`allocations next ${s.nextAllocationId}`);
    if (s.stops.length > 0 || s.amendments.length > 0) line(`stops ${s.stops.map((o) => o.orderId).join(',')} amendments ${s.amendments.length} next ${s.nextExecutionId}`);
    if (s.liquidity !== null) line(`synthetic ${s.liquidity.describe()}`);
    for (const side of [s.book.bids, s.book.asks]) {
      side.forEachLive((level) => {
        const ids: number[] = [];
        for (let o = level.head; o !== null; o = o.next) ids.push(o.orderId);
        line(`level ${side.isBid ? 'bid' : 'ask'} ${level.ticks} ${level.totalSteps} ${ids.join(',')}`);
      });
    }
  }
  return hash.digest('hex');
}
