/**
 * The bench's untimed sanity check: after the last pass, exsim's book, the peer's book and the
 * generator's reference model must hold the same resting orders (count per side and aggregated
 * depth, level by level, in units). Both engines are price-time FIFO books fed the same limit
 * orders, IOCs, cancels and replaces with self-trade prevention off, so their books can only
 * differ if one of them (or the model) matches differently; a difference also means the stream
 * stopped exercising what it claims to (orders canceled or moved that were not resting).
 */
import type { ExsimTarget } from './exsim-adapter.ts';
import { SYMBOL, priceUnits, quantityUnits } from './instrument.ts';
import type { OpStream } from './op-stream.ts';
import type { PeerTarget } from './peer-adapter.ts';
import { BUY, SELL } from './reference-book.ts';

type Level = readonly [price: number, quantity: number];

interface BookShape {
  bidOrders: number;
  askOrders: number;
  bids: readonly Level[];
  asks: readonly Level[];
}

export interface BookComparison {
  ok: boolean;
  model: { bidOrders: number; askOrders: number; bidLevels: number; askLevels: number };
  exsim: { bidOrders: number; askOrders: number; bidLevels: number; askLevels: number };
  peer: { bidOrders: number; askOrders: number; bidLevels: number; askLevels: number };
  /** Empty when everything matched; otherwise what differed first, per engine. */
  differences: string[];
  /** Result of exsim's own Engine.checkInvariants() ('ok' or the error message). */
  exsimInvariants: string;
}

export function compareBooks(stream: OpStream, exsim: ExsimTarget, peer: PeerTarget): BookComparison {
  const book = stream.finalBook;
  const model: BookShape = {
    bidOrders: book.orders[BUY]!,
    askOrders: book.orders[SELL]!,
    bids: book.depth(BUY).map(([tick, lots]) => [priceUnits(tick), quantityUnits(lots)] as const),
    asks: book.depth(SELL).map(([tick, lots]) => [priceUnits(tick), quantityUnits(lots)] as const),
  };

  const exsimDepth = exsim.engine.depth(SYMBOL, 5000);
  const exsimShape: BookShape = {
    bidOrders: exsim.engine.bookOrders(SYMBOL, 'BUY').length,
    askOrders: exsim.engine.bookOrders(SYMBOL, 'SELL').length,
    bids: exsimDepth.bids,
    asks: exsimDepth.asks,
  };

  // The peer's depth() lists both sides in ascending price; best first means bids descending.
  const [peerAsks, peerBids] = peer.book.depth();
  const snapshot = peer.book.snapshot();
  const count = (levels: readonly { orders: readonly unknown[] }[]): number =>
    levels.reduce((sum, level) => sum + level.orders.length, 0);
  const peerShape: BookShape = {
    bidOrders: count(snapshot.bids),
    askOrders: count(snapshot.asks),
    bids: [...peerBids].sort((a, b) => b[0] - a[0]),
    asks: [...peerAsks].sort((a, b) => a[0] - b[0]),
  };

  const differences = [...diff('exsim', exsimShape, model), ...diff('peer', peerShape, model)];
  if (model.bids.length > 5000 || model.asks.length > 5000) differences.push('model has more than 5000 levels a side: exsim depth is truncated');

  let exsimInvariants = 'ok';
  try {
    exsim.engine.checkInvariants();
  } catch (error) {
    exsimInvariants = error instanceof Error ? error.message : String(error);
  }

  return {
    ok: differences.length === 0 && exsimInvariants === 'ok',
    model: counts(model),
    exsim: counts(exsimShape),
    peer: counts(peerShape),
    differences,
    exsimInvariants,
  };
}

function counts(shape: BookShape): BookComparison['model'] {
  return { bidOrders: shape.bidOrders, askOrders: shape.askOrders, bidLevels: shape.bids.length, askLevels: shape.asks.length };
}

function diff(name: string, actual: BookShape, expected: BookShape): string[] {
  const out: string[] = [];
  if (actual.bidOrders !== expected.bidOrders || actual.askOrders !== expected.askOrders) {
    out.push(`${name}: ${actual.bidOrders}/${actual.askOrders} bid/ask orders, model ${expected.bidOrders}/${expected.askOrders}`);
  }
  for (const [sideName, a, e] of [['bids', actual.bids, expected.bids], ['asks', actual.asks, expected.asks]] as const) {
    const n = Math.max(a.length, e.length);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      const y = e[i];
      if (x?.[0] !== y?.[0] || x?.[1] !== y?.[1]) {
        out.push(`${name}: ${sideName} level ${i} is ${JSON.stringify(x ?? null)}, model ${JSON.stringify(y ?? null)} (${a.length} vs ${e.length} levels)`);
        break;
      }
    }
  }
  return out;
}
