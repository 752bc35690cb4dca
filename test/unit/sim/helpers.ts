/**
 * Helpers for the replay tests: a small BTCUSDT market (tick 0.01, step 0.001, no other
 * filter), hand-made tapes written as decimal strings, and a harness that builds a Replay with
 * an in-memory journal and a decision log and reads the fills back out of the journal.
 */
import { afterEach } from 'vitest';
import { BEST_MATCH, BUYER_MAKER, type TradeBatch } from '../../../src/data/tape.ts';
import { parseUnits, type EngineConfig, type OrderFilledByMarket } from '../../../src/engine/index.ts';
import { Replay, ReplayJournal, type FillModel, type MarketDecision, type ReplayConfig, type TapeInput } from '../../../src/sim/index.ts';

/** Decimal string to units at 8 decimals (prices, quantities and balances alike). */
export function u(decimal: string): number {
  const n = parseUnits(decimal, 8);
  if (n === null) throw new Error(`bad decimal ${decimal}`);
  return n;
}

export const T0 = 1_700_000_000_000_000;

function symbol(name: string, base: string) {
  return {
    symbol: name,
    baseAsset: base,
    quoteAsset: 'USDT',
    defaultSelfTradePreventionMode: 'NONE' as const,
    allowedSelfTradePreventionModes: ['NONE' as const],
    filters: [
      { filterType: 'PRICE_FILTER' as const, minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
      { filterType: 'LOT_SIZE' as const, minQty: '0.001', maxQty: '100000', stepSize: '0.001' },
    ],
  };
}

export const CONFIG: EngineConfig = { symbols: [symbol('BTCUSDT', 'BTC'), symbol('ETHUSDT', 'ETH')] };

/** One print: taker side, price and size as decimals; `at` in ms after T0 (default: its index). */
export interface Print {
  taker: 'BUY' | 'SELL';
  price: string;
  qty: string;
  at?: number;
}

/** Hand-made tape as columnar batches of at most `batchSize` rows; ids from `firstId`. */
export function tape(prints: readonly Print[], options: { firstId?: number; batchSize?: number } = {}): TradeBatch[] {
  const size = options.batchSize ?? 1000;
  const batches: TradeBatch[] = [];
  for (let start = 0; start < prints.length; start += size) {
    const rows = prints.slice(start, start + size);
    const batch = {
      length: rows.length,
      id: new Float64Array(rows.length),
      price: new Float64Array(rows.length),
      qty: new Float64Array(rows.length),
      quoteQty: new Float64Array(rows.length),
      time: new Float64Array(rows.length),
      flags: new Uint8Array(rows.length),
    };
    rows.forEach((p, i) => {
      batch.id[i] = (options.firstId ?? 1001) + start + i;
      batch.price[i] = u(p.price);
      batch.qty[i] = u(p.qty);
      batch.quoteQty[i] = Math.floor((u(p.price) * u(p.qty)) / 1e8);
      batch.time[i] = T0 + (p.at ?? start + i) * 1000;
      batch.flags[i] = (p.taker === 'SELL' ? BUYER_MAKER : 0) | BEST_MATCH;
    });
    batches.push(batch);
  }
  return batches;
}

const live: Replay[] = [];
afterEach(() => {
  for (const replay of live.splice(0)) replay.engine.checkInvariants();
});

export interface Harness {
  replay: Replay;
  journal: ReplayJournal;
  decisions: MarketDecision[];
  /** Places a GTC LIMIT for account 1 now; returns its orderId. */
  limit(side: 'BUY' | 'SELL', price: string, qty: string, accountId?: number): number;
  /** Every market fill so far, in journal order. */
  fills(): Pick<OrderFilledByMarket, 'orderId' | 'quantity' | 'price' | 'status' | 'reason' | 'tradeId'>[];
}

/**
 * A replay of `tapes` (default: one BTCUSDT tape) under `model`, starting 1 s before T0, with
 * accounts 1 and 2 funded with 1,000,000 USDT, 1,000 BTC and 1,000 ETH each (no fees).
 */
export function harness(model: FillModel, tapes: readonly TapeInput[] | readonly Print[], extra: Partial<ReplayConfig> = {}): Harness {
  const journal = new ReplayJournal();
  const decisions: MarketDecision[] = [];
  const tapeInputs: readonly TapeInput[] =
    tapes.length > 0 && 'trades' in (tapes[0] as object) ? (tapes as readonly TapeInput[]) : [{ symbol: 'BTCUSDT', trades: tape(tapes as readonly Print[]) }];
  const replay = new Replay({
    engine: CONFIG,
    tapes: tapeInputs,
    fillModel: model,
    seed: 'test',
    startTime: T0 - 1_000_000,
    journal,
    onDecision: (d) => decisions.push(d),
    ...extra,
  });
  live.push(replay);
  for (const accountId of [1, 2]) {
    replay.apply({ type: 'CreateAccount', accountId, balances: { USDT: u('1000000'), BTC: u('1000'), ETH: u('1000') } });
  }
  return {
    replay,
    journal,
    decisions,
    limit(side, price, qty, accountId = 1) {
      const events = replay.apply({ type: 'PlaceOrder', accountId, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price: u(price), quantity: u(qty) });
      const accepted = events.find((e) => e.type === 'OrderAccepted');
      if (accepted === undefined) throw new Error(`not accepted: ${JSON.stringify(events)}`);
      return accepted.orderId;
    },
    fills() {
      return journal.entries
        .flatMap((e) => e.events)
        .filter((e): e is OrderFilledByMarket => e.type === 'OrderFilledByMarket')
        .map(({ orderId, quantity, price, status, reason, tradeId }) => ({ orderId, quantity, price, status, reason, tradeId }));
    },
  };
}
