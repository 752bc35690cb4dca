/**
 * What the /fapi trading rows ask of the engine, in one place: the margin symbol of a /fapi name
 * (-1121 for anything that is not one), the futures extras of an order, and the futures queries
 * (EngineQueries.futures…, docs/usdm-futures.md). Rows call these, never the engine's futures
 * queries directly, so the contract with the engine is read in one file.
 */
import { type SymbolSpec, type OrderView, type ContractConfig, futuresEngineSymbol, fapiSymbolOf } from '../../../engine/index.ts';
import { apiError } from '../../core/index.ts';
import { accountOf } from '../common.ts';
import type { HandlerCall } from '../endpoint-row.ts';
import type { FuturesOrderExtras, FuturesOrderWire } from './futures-order-json.ts';

/** The margin symbol's spec for a /fapi name, or -1121 "Invalid symbol.". */
export function marginSpec(call: HandlerCall, fapiSymbol: string): SymbolSpec {
  const engine = call.ctx.backend.engine;
  const name = futuresEngineSymbol(fapiSymbol);
  const spec = engine.symbolSpec(name);
  if (spec === undefined || !engine.isMarginSymbol(name)) throw apiError('INVALID_SYMBOL');
  return spec;
}

/** Every margin symbol's spec, in the engine's symbol order. */
export function marginSpecs(call: HandlerCall): SymbolSpec[] {
  const engine = call.ctx.backend.engine;
  return engine.symbolNames().flatMap((name) => {
    if (fapiSymbolOf(name) === undefined) return [];
    const spec = engine.symbolSpec(name);
    return spec === undefined || !engine.isMarginSymbol(name) ? [] : [spec];
  });
}

/** The /fapi name of a margin symbol's spec. */
export function fapiName(spec: SymbolSpec): string {
  return fapiSymbolOf(spec.symbol) ?? spec.symbol;
}

export function wireOf(call: HandlerCall, spec: SymbolSpec): FuturesOrderWire {
  return { spec, symbol: fapiName(spec), unit: call.unit };
}

/** The futures extras of an order (position side, reduce only, post only). */
export function extrasOf(call: HandlerCall, order: OrderView): FuturesOrderExtras {
  const info = call.ctx.backend.engine.futuresOrderInfo(order.symbol, order.orderId);
  return {
    positionSide: info?.positionSide ?? 'BOTH',
    reduceOnly: info?.reduceOnly ?? false,
    postOnly: info?.postOnly ?? false,
    // Binance's goodTillDate is ms; the engine keeps µs, on whole seconds.
    goodTillDate: Math.floor((info?.goodTillTime ?? 0) / 1000),
    priceMatch: call.ctx.futuresPriceMatch.modeOf(order.symbol, order.orderId),
  };
}

/** The contract block a margin symbol was configured with (filters, brackets, rates). */
export function contractOf(call: HandlerCall, spec: SymbolSpec): ContractConfig {
  const contract = call.ctx.backend.engine.config.symbols.find((s) => s.symbol === spec.symbol)?.contract;
  if (contract === undefined) throw new Error(`margin symbol ${spec.symbol} without a contract`); // marginSpec's guarantee
  return contract;
}

export { accountOf };
