/**
 * The placement rules of the order instructions beyond LIMIT and MARKET (binance-facts §1, §5.5
 * to §5.9): stop and take-profit types, trailingDelta, icebergQty and price pegs. Two halves,
 * around the common filters: `checkConditional` (shape, symbol permissions, the pegged price)
 * before them, `checkConditionalAfterFilters` (stop price grid, TRAILING_DELTA, iceberg rules,
 * the algo and iceberg counts, "would trigger immediately") after. Pure: reads state only.
 */
import { forEachMergedLevel } from '../liquidity/merged-levels.ts';
import type { Account } from '../accounts/account.ts';
import type { OrderRequest } from '../commands.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { RejectReason } from '../reject-reason.ts';
import type { RangeRule } from '../symbol-spec.ts';
import { CONDITIONAL_TYPES, type OrderType, type PegPriceType } from '../types.ts';
import { lastPrice, triggerHolds, triggersAbove } from './stop-rules.ts';

export interface ConditionalFields {
  /** A stop or take-profit type: it waits for a trigger. */
  conditional: boolean;
  /** STOP_LOSS / TAKE_PROFIT: checked by the filters as the MARKET order they become. */
  marketLike: boolean;
  stopPrice: number;
  trailingDelta: number;
  icebergSteps: number;
  pegPriceType: PegPriceType | null;
  pegOffsetValue: number;
  /** Pegged price taken from the book now (0 for stops: they peg when triggered). */
  peggedTicks: number;
  /** The price the filters check when it is not the sent one (the pegged price), or null. */
  filterPrice: number | null;
}

const PEGGABLE: ReadonlySet<OrderType> = new Set(['LIMIT', 'LIMIT_MAKER', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT']);
const ICEBERG_TYPES = PEGGABLE;

function positive(n: number | undefined): boolean {
  return n !== undefined && Number.isSafeInteger(n) && n > 0;
}

function inRange(value: number, rule: RangeRule): boolean {
  if (rule.min > 0 && value < rule.min) return false;
  if (rule.max > 0 && value > rule.max) return false;
  if (rule.step > 0 && value % rule.step !== 0) return false;
  return true;
}

/**
 * The price level a peg points at, in ticks, or 0 when the book has no such level. PRIMARY_PEG
 * pegs to the order's own side, MARKET_PEG to the opposite; the offset counts price levels from
 * the best (0 = the best itself).
 */
export function peggedTicks(symbol: SymbolState, isBuy: boolean, type: PegPriceType, offset: number): number {
  const isBid = type === 'PRIMARY_PEG' ? isBuy : !isBuy;
  let pegged = 0;
  let skip = offset;
  forEachMergedLevel(symbol, isBid, offset + 1, (ticks) => {
    if (skip-- === 0) pegged = ticks;
  });
  return pegged;
}

export function checkConditional(state: EngineState, symbol: SymbolState, account: Account, command: OrderRequest): RejectReason | ConditionalFields {
  void state;
  void account;
  const spec = symbol.spec;
  const type = command.orderType;
  const isBuy = command.side === 'BUY';
  const conditional = CONDITIONAL_TYPES.has(type);
  if (command.stopPrice !== undefined && !positive(command.stopPrice)) return 'INVALID_AMOUNT';
  if (command.trailingDelta !== undefined) {
    if (!spec.allowTrailingStop) return 'TRAILING_STOP_NOT_SUPPORTED';
    if (!positive(command.trailingDelta) || (command.trailingDelta as number) >= 10_000) return 'INVALID_AMOUNT';
  }
  let icebergSteps = 0;
  if (command.icebergQty !== undefined) {
    if (!spec.icebergAllowed) return 'ICEBERG_NOT_SUPPORTED';
    if (!ICEBERG_TYPES.has(type)) return 'UNSUPPORTED_ORDER_COMBINATION';
    if (!positive(command.icebergQty)) return 'INVALID_AMOUNT';
    const steps = (command.icebergQty as number) / spec.stepUnits;
    if (!Number.isInteger(steps)) return 'FILTER_LOT_SIZE';
    icebergSteps = steps;
  }
  let pegTicks = 0;
  let filterPrice: number | null = null;
  const pegType = command.pegPriceType ?? null;
  if (pegType === null && command.pegOffsetValue !== undefined) return 'UNSUPPORTED_ORDER_COMBINATION';
  if (pegType !== null) {
    if (!spec.pegInstructionsAllowed) return 'PEG_NOT_SUPPORTED';
    if (!PEGGABLE.has(type)) return 'PEG_NOT_ALLOWED_FOR_TYPE';
    if (type === 'LIMIT_MAKER' && pegType === 'MARKET_PEG') return 'PEG_NOT_ALLOWED_WITH_TYPE';
    if (type === 'LIMIT' && pegType === 'PRIMARY_PEG' && command.timeInForce !== 'GTC') return 'UNSUPPORTED_ORDER_COMBINATION';
    const offset = command.pegOffsetValue ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > 100) return 'INVALID_AMOUNT';
    if (!conditional) {
      pegTicks = peggedTicks(symbol, isBuy, pegType, offset);
      if (pegTicks === 0) return 'PEG_LIQUIDITY_TOO_LOW';
      filterPrice = pegTicks * spec.tickUnits;
    } else if (command.price === undefined) {
      // The limit price is only known at trigger; until then the stop price stands in for it.
      filterPrice = command.stopPrice ?? lastPrice(symbol);
    }
  }
  return {
    conditional,
    marketLike: type === 'STOP_LOSS' || type === 'TAKE_PROFIT',
    stopPrice: command.stopPrice ?? 0,
    trailingDelta: command.trailingDelta ?? 0,
    icebergSteps,
    pegPriceType: pegType,
    pegOffsetValue: command.pegOffsetValue ?? 0,
    peggedTicks: pegTicks,
    filterPrice,
  };
}

export function checkConditionalAfterFilters(
  state: EngineState,
  symbol: SymbolState,
  account: Account,
  command: OrderRequest,
  fields: ConditionalFields,
  /** Order lists check their stop legs against the list's price rules instead. */
  skipImmediateTrigger = false,
): RejectReason | null {
  const spec = symbol.spec;
  const isBuy = command.side === 'BUY';
  if (fields.stopPrice > 0 && spec.priceFilter && !inRange(fields.stopPrice, spec.priceFilter)) return 'FILTER_PRICE_FILTER';
  if (fields.trailingDelta > 0 && spec.trailingDelta) {
    const rule = spec.trailingDelta;
    const above = triggersAbove(command.orderType, isBuy);
    const [min, max] = above ? [rule.minAbove, rule.maxAbove] : [rule.minBelow, rule.maxBelow];
    if (fields.trailingDelta < min || fields.trailingDelta > max) return 'FILTER_TRAILING_DELTA';
  }
  if (fields.icebergSteps > 0) {
    const icebergQty = fields.icebergSteps * spec.stepUnits;
    if (spec.lotSize && !inRange(icebergQty, spec.lotSize)) return 'FILTER_LOT_SIZE';
    const quantity = command.quantity ?? 0;
    if (icebergQty >= quantity) return 'ICEBERG_QTY_EXCEEDS_QTY';
    if (spec.icebergParts !== null && Math.ceil(quantity / icebergQty) > spec.icebergParts) return 'FILTER_ICEBERG_PARTS';
    const here = (symbol.icebergByAccount[account.slot] ?? 0) + state.icebergAhead;
    if (spec.maxNumIcebergOrders !== null && here + 1 > spec.maxNumIcebergOrders) return 'FILTER_MAX_NUM_ICEBERG_ORDERS';
    const max = state.exchangeFilters.maxNumIcebergOrders;
    if (max !== null && account.icebergCount + state.icebergAhead + 1 > max) return 'FILTER_EXCHANGE_MAX_NUM_ICEBERG_ORDERS';
  }
  if (fields.conditional) {
    const here = (symbol.algoByAccount[account.slot] ?? 0) + state.algoAhead;
    if (spec.maxNumAlgoOrders !== null && here + 1 > spec.maxNumAlgoOrders) return 'FILTER_MAX_NUM_ALGO_ORDERS';
    const max = state.exchangeFilters.maxNumAlgoOrders;
    if (max !== null && account.algoCount + state.algoAhead + 1 > max) return 'FILTER_EXCHANGE_MAX_NUM_ALGO_ORDERS';
    const last = lastPrice(symbol);
    if (!skipImmediateTrigger && fields.stopPrice > 0 && last !== null && triggerHolds(command.orderType, isBuy, fields.stopPrice, last)) {
      return 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY';
    }
  }
  return null;
}
