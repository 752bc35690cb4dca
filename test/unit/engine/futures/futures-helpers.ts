/**
 * Helpers for the futures engine tests: an engine with spot USDT and one or two margin symbols
 * (`um:XUSDT` on the default ladder, simple grid), and a driver stamping increasing times.
 * Every asset has precision 8: u('1.5') === 150_000_000 for prices, quantities and balances.
 */
import { Engine } from '../../../../src/engine/engine.ts';
import type { EngineCommand, PlaceOrder } from '../../../../src/engine/commands.ts';
import type { EngineEvent, OrderRejected } from '../../../../src/engine/events.ts';
import type { EngineConfig, SymbolConfig } from '../../../../src/engine/symbol-config.ts';
import { parseUnits } from '../../../../src/engine/units.ts';
import { futuresSymbolConfig, type Ladder } from '../../../../src/futures/trading/contract-rules.ts';

export function u(decimal: string, precision = 8): number {
  const n = parseUnits(decimal, precision);
  if (n === null) throw new Error(`bad decimal ${decimal}`);
  return n;
}

/** A plain ladder for hand-checked numbers: 20x to 5 000 (mmr 1%), 10x to 50 000 (mmr 2.5%, cum 75). */
export const TEST_LADDER: Ladder = [
  [20, '0', '5000', '0.01'],
  [10, '5000', '50000', '0.025'],
];

export function testContract(name = 'XUSDT', extra: Parameters<typeof futuresSymbolConfig>[1] = {}): SymbolConfig {
  return futuresSymbolConfig(name, { tickSize: '0.01', stepSize: '0.001', minPrice: '0.01', maxPrice: '100000', minQty: '0.001', maxQty: '1000', minNotional: '5', ladder: TEST_LADDER, ...extra });
}

export function futuresConfig(symbols: SymbolConfig[] = [testContract()]): EngineConfig {
  return {
    symbols: [{ symbol: 'XUSDT', baseAsset: 'X', quoteAsset: 'USDT' }, ...symbols],
  };
}

export const SYM = 'um:XUSDT';

export class FutSim {
  readonly engine: Engine;
  time = 1_000_000;
  constructor(config: EngineConfig = futuresConfig()) {
    this.engine = new Engine(config);
  }
  /** Applies a command (without `time`: the driver stamps it) and checks the invariants after it. */
  apply(command: object): readonly EngineEvent[] {
    this.time += 1000;
    const events = this.engine.apply({ ...command, time: this.time } as EngineCommand);
    this.engine.checkInvariants();
    return events;
  }
  /** Creates an account with `usdt` spot USDT and moves `futures` of it into um:USDT. */
  account(accountId: number, usdt: string, futures = usdt): void {
    this.apply({ type: 'CreateAccount', accountId, balances: { USDT: u(usdt), 'um:USDT': 0 } } );
    if (u(futures) > 0) expectNoReject(this.apply({ type: 'TransferFuturesWallet', accountId, asset: 'USDT', amount: u(futures), direction: 'TO_FUTURES' }));
  }
  order(accountId: number, side: 'BUY' | 'SELL', quantity: string, price?: string, extra: Partial<PlaceOrder> = {}): readonly EngineEvent[] {
    const base: Partial<PlaceOrder> = price === undefined
      ? { orderType: 'MARKET' }
      : { orderType: 'LIMIT', timeInForce: 'GTC', price: u(price) };
    return this.apply({ type: 'PlaceOrder', accountId, symbol: SYM, side, quantity: u(quantity), ...base, ...extra });
  }
  mark(price: string, symbol = SYM): readonly EngineEvent[] {
    return this.apply({ type: 'SetMarkPrice', symbol, markPrice: u(price) });
  }
  position(accountId: number, side: 'BOTH' | 'LONG' | 'SHORT' = 'BOTH', symbol = SYM) {
    const p = this.engine.futuresPositions(accountId, symbol).find((v) => v.positionSide === side);
    if (!p) throw new Error('no position row');
    return p;
  }
  wallet(accountId: number) {
    return this.engine.futuresAccount(accountId, 'um:USDT')!;
  }
}

export function rejectOf(events: readonly EngineEvent[]): string | null {
  const r = events.find((e): e is OrderRejected => e.type === 'OrderRejected');
  return r ? r.reason : null;
}

export function expectNoReject(events: readonly EngineEvent[]): readonly EngineEvent[] {
  const r = rejectOf(events);
  if (r !== null) throw new Error(`unexpected reject ${r}`);
  return events;
}
