/**
 * The engine's state as bytes and back (GraphCodec): every class the engine's state graph holds
 * is registered here, with the private-field ones saved through their own `exportFields` /
 * `importFields`. A snapshot read back into an engine of the same config gives the same state
 * hash and the same events for every later command (tested), so `exsim serve --journal` can
 * restart from one instead of re-applying every command.
 */
import { Account } from '../accounts/account.ts';
import { BookSide, type BookSideFields } from '../book/book-side.ts';
import { OrderBook } from '../book/order-book.ts';
import { PriceLevel } from '../book/price-level.ts';
import { EngineState, SymbolState } from '../engine-state.ts';
import { ExactSum } from '../exact-math.ts';
import { PriceBandCache } from '../filters/check-order-filters.ts';
import { SyntheticLadder } from '../liquidity/synthetic-ladder.ts';
import { DepthBook, DepthSide } from '../liquidity/depth-book.ts';
import { OrderFlowProcess } from '../liquidity/order-flow.ts';
import { LiveOrders, type LiveOrdersFields } from '../live-orders.ts';
import { OrderArchive } from '../order-archive.ts';
import { OrderList } from '../order-lists/order-list.ts';
import { Order, OrderExtras } from '../order.ts';
import { TradeWindow } from '../reference-price.ts';
import { BucketedMean } from '../reference-price-buckets.ts';
import { GraphCodec } from './graph-codec.ts';
import { FuturesAccount, FuturesOrderInfo, FuturesPosition, FuturesState, FuturesSymbolSettings, MarginSymbol } from '../futures/futures-state.ts';

/** Registers the engine's classes on `codec` (the replay adds its own beside them). */
export function registerEngineClasses(codec: GraphCodec): GraphCodec {
  return codec
    .plain('engine.Order', Order)
    .plain('engine.OrderExtras', OrderExtras)
    .plain('engine.Account', Account)
    .plain('engine.PriceLevel', PriceLevel)
    .plain('engine.OrderList', OrderList)
    .plain('engine.SymbolState', SymbolState)
    .plain('engine.OrderBook', OrderBook)
    .plain('engine.DepthBook', DepthBook)
    .plain('engine.DepthSide', DepthSide)
    .plain('engine.FuturesState', FuturesState)
    .plain('engine.FuturesAccount', FuturesAccount)
    .plain('engine.FuturesSymbolSettings', FuturesSymbolSettings)
    .plain('engine.FuturesPosition', FuturesPosition)
    .plain('engine.FuturesOrderInfo', FuturesOrderInfo)
    .plain('engine.MarginSymbol', MarginSymbol)
    .custom('engine.EngineState', EngineState, { save: (s) => s.exportFields(), load: (f: Record<string, unknown>) => EngineState.importFields(f) })
    .custom('engine.BookSide', BookSide, { save: (s) => s.exportFields(), load: (f: BookSideFields) => BookSide.importFields(f) })
    .custom('engine.LiveOrders', LiveOrders, { save: (s) => s.exportFields(), load: (f: LiveOrdersFields) => LiveOrders.importFields(f) })
    .custom('engine.OrderArchive', OrderArchive, { save: (s) => s.exportFields(), load: (f: unknown[]) => OrderArchive.importFields(f) })
    .custom('engine.ExactSum', ExactSum, { save: (s) => s.exportFields(), load: (f: [bigint, number]) => ExactSum.importFields(f) })
    .custom('engine.TradeWindow', TradeWindow, { save: (s) => s.exportFields(), load: (f: unknown[]) => TradeWindow.importFields(f) })
    .custom('engine.BucketedMean', BucketedMean, {
      save: (s) => s.exportFields(),
      load: (f: [number, number, number[], bigint[], bigint[]]) => BucketedMean.importFields(f),
    })
    .custom('engine.OrderFlowProcess', OrderFlowProcess, { save: (s) => s.exportFields(), load: (f: unknown[]) => OrderFlowProcess.importFields(f) })
    .custom('engine.SyntheticLadder', SyntheticLadder, { save: (s) => s.exportFields(), load: (f: unknown[]) => SyntheticLadder.importFields(f) })
    // A cache of bands derived from the reference price: a fresh one recomputes the same bands.
    .custom('engine.PriceBandCache', PriceBandCache, { save: () => null, load: () => new PriceBandCache() });
}

let engineCodec: GraphCodec | null = null;

/** The codec of a bare engine's state. */
export function engineStateCodec(): GraphCodec {
  return (engineCodec ??= registerEngineClasses(new GraphCodec()));
}
