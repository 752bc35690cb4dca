/**
 * Helpers the endpoint rows share: symbol resolution (-1121), the symbolStatus filter (-1220),
 * the authenticated account, request times and windows (-1127), `limit`, and the parameter specs
 * several rows declare identically. Rows import helpers from here (or order-request.ts,
 * order-answers.ts), never from another row's file.
 */
import { type SymbolSpec, type AccountView, type SymbolStatus, isFuturesSymbol } from '../../engine/index.ts';
import { type ApiError, apiError } from '../core/index.ts';
import { ENUM_ERRORS, SYMBOL_PATTERN } from '../params/index.ts';
import type { WireContext } from '../serialize/index.ts';
import type { HandlerCall } from './endpoint-row.ts';

export const invalidSymbol = (): ApiError => apiError('INVALID_SYMBOL');
/** -1127: startTime and endTime further apart than an endpoint allows. */
export const spanTooLong = (hours: number): ApiError => apiError('TIME_SPAN_TOO_LONG', hours);
export const statusMismatch = (): ApiError => apiError('SYMBOL_STATUS_MISMATCH');

const DAY_US = 24 * 60 * 60 * 1_000_000;

/** A request time in µs: ms below 10^15, µs from 10^15 on (as TIMESTAMP parameters). */
export function timeUs(value: number): number {
  return value < 1e15 ? value * 1000 : value;
}

/** -1127 when startTime and endTime (ms or µs) are more than 24 hours apart. */
function checkSpan(startTime: number | undefined, endTime: number | undefined): void {
  if (startTime !== undefined && endTime !== undefined && timeUs(endTime) - timeUs(startTime) > DAY_US) throw spanTooLong(24);
}

/**
 * The [from, to] window (µs, inclusive) of a query's startTime / endTime (ms or µs), open where
 * one is absent; more than 24 hours between them is -1127.
 */
export function timeWindow(p: { readonly startTime?: number; readonly endTime?: number }): { from: number; to: number } {
  checkSpan(p.startTime, p.endTime);
  return { from: p.startTime === undefined ? -Infinity : timeUs(p.startTime), to: p.endTime === undefined ? Infinity : timeUs(p.endTime) };
}

/** A spot history query's `limit`: 500 when absent or 0, at most 1000 (larger values are capped). */
export function spotLimit(limit: number | undefined): number {
  return limit === undefined || limit === 0 ? 500 : Math.min(limit, 1000);
}

export const SYMBOL = { name: 'symbol', kind: 'STRING', required: true, pattern: SYMBOL_PATTERN } as const;
export const OPTIONAL_SYMBOL = { name: 'symbol', kind: 'STRING', pattern: SYMBOL_PATTERN } as const;
export const SYMBOLS = { name: 'symbols', kind: 'JSON_ARRAY' } as const;
export const SYMBOL_STATUS = {
  name: 'symbolStatus',
  kind: 'ENUM',
  values: ['TRADING', 'HALT', 'BREAK'],
  invalid: ENUM_ERRORS.symbolStatus,
} as const;

/** The spec of a listed symbol, or -1121. */
export function symbolSpec(call: HandlerCall, symbol: string): SymbolSpec {
  const spec = call.ctx.backend.engine.symbolSpec(symbol);
  if (spec === undefined) throw invalidSymbol();
  return spec;
}

export function statusOf(call: HandlerCall, symbol: string): SymbolStatus {
  return call.ctx.backend.engine.symbolStatus(symbol) ?? 'HALT';
}

/**
 * The symbols a market-data request names: one (`symbol`, status mismatch → -1220), a list
 * (`symbols`, unknown → -1121, mismatches dropped) or all (mismatches dropped). `single` says
 * whether the answer is one object rather than an array.
 */
export function selectSymbols(
  call: HandlerCall,
  p: { readonly symbol?: string; readonly symbols?: readonly string[]; readonly symbolStatus?: SymbolStatus },
): { specs: SymbolSpec[]; single: boolean } {
  const engine = call.ctx.backend.engine;
  const wanted = p.symbolStatus;
  if (p.symbol !== undefined) {
    const spec = symbolSpec(call, p.symbol);
    if (!statusMatches(call, p.symbol, wanted)) throw statusMismatch();
    return { specs: [spec], single: true };
  }
  // Spot rows list spot symbols only: a margin symbol (`um:…`) is the /fapi rows'.
  const names = p.symbols ?? engine.symbolNames().filter((n) => !isFuturesSymbol(n));
  const specs = names.map((n) => symbolSpec(call, n)).filter((s) => statusMatches(call, s.symbol, wanted));
  return { specs, single: false };
}

/** No symbolStatus asked, or the symbol's status is the one asked (a function, not a per-request closure). */
function statusMatches(call: HandlerCall, symbol: string, wanted: SymbolStatus | undefined): boolean {
  return wanted === undefined || statusOf(call, symbol) === wanted;
}

/** The account the request acts for (keyed endpoints only). */
export function accountOf(call: HandlerCall): number {
  if (call.key === null) throw new Error('accountOf on an endpoint without an API key'); // table bug
  return call.key.accountId;
}

/** The authenticated key's account; a key whose account is gone answers as a rejected key. */
export function accountViewOf(call: HandlerCall): AccountView {
  const view = call.ctx.backend.engine.account(accountOf(call));
  if (view === undefined) throw apiError('REJECTED_API_KEY');
  return view;
}

export function wireContext(call: HandlerCall, spec: SymbolSpec): WireContext {
  return { spec, unit: call.unit, assetPrecision: call.ctx.assetPrecision };
}
