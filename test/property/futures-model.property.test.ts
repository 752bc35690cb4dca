/**
 * Model-based property test of the futures engine: random streams of transfers, orders (both
 * sides, LIMIT GTC / IOC / FOK / post-only / GTD and MARKET, reduce-only), cancels, waits (GTD expiry), fills by market
 * prints, order modifies, mark moves, funding, leverage / margin type / position mode / isolated margin changes,
 * on two margin symbols sharing um:USDT, with three accounts. After every command it checks, from the outside:
 * - conservation per margin asset: Σ futures wallets (cross + isolated, open-order margin
 *   included) + insurance fund + commissions = the external flows (transfers in − out, realized
 *   PnL of fills, the market's side of liquidations, funding), to the unit;
 * - after each SetMarkPrice and SettleFunding no position is at or below maintenance (cross:
 *   margin balance > Σ MM; isolated: isolated wallet + uPnL > MM);
 * - a reduce-only order's fill never increases or flips the position;
 * - no GTD order is open after a command at or past its due time;
 * - order statuses only move along the legal graph, nothing after a terminal status;
 * - a refused command leaves the state hash unchanged; `checkInvariants()` holds.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { EngineCommand } from '../../src/engine/commands.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EngineEvent } from '../../src/engine/events.ts';
import type { OrderStatus } from '../../src/engine/types.ts';
import { futuresSymbolConfig } from '../../src/futures/trading/contract-rules.ts';
import { propertyParameters } from './property-parameters.ts';

const SYMBOLS = ['um:XUSDT', 'um:YUSDT'] as const;
const E8 = 100_000_000;
const ACCOUNTS = [1, 2, 3];

const config = {
  symbols: [
    { symbol: 'XUSDT', baseAsset: 'X', quoteAsset: 'USDT' },
    ...['XUSDT', 'YUSDT'].map((name) =>
      futuresSymbolConfig(name, {
        tickSize: '0.01', stepSize: '0.001', minPrice: '0.01', maxPrice: '100000', minQty: '0.001', maxQty: '1000', minNotional: '1',
        ladder: [[20, '0', '500', '0.01'], [10, '500', '5000', '0.025'], [5, '5000', '50000', '0.05']],
      }),
    ),
  ],
};

/** A step of the stream; orders and fills pick their target when applied (state-dependent). */
type Step = { sym: 0 | 1 } & (
  | { kind: 'transfer'; account: number; amount: number; toFutures: boolean }
  | { kind: 'order'; account: number; buy: boolean; steps: number; offsetBp: number; market: boolean; tif: 'GTC' | 'IOC' | 'FOK'; reduceOnly: boolean; postOnly: boolean; hedgeSide: boolean; gtdMs: number }
  | { kind: 'wait'; ms: number }
  | { kind: 'cancelAll'; account: number }
  | { kind: 'fill'; pick: number; fraction: number }
  | { kind: 'print'; moveBp: number }
  | { kind: 'mark'; moveBp: number }
  | { kind: 'funding'; rate: number }
  | { kind: 'leverage'; account: number; leverage: number }
  | { kind: 'marginType'; account: number; isolated: boolean }
  | { kind: 'mode'; account: number; hedge: boolean }
  | { kind: 'adjust'; account: number; amount: number; add: boolean; long: boolean }
  | { kind: 'rates'; account: number; maker: number; taker: number }
  | { kind: 'modify'; pick: number; offsetBp: number; steps: number });

const account = fc.constantFrom(...ACCOUNTS);
const bodyArb = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('transfer' as const), account, amount: fc.integer({ min: 1, max: 300 }), toFutures: fc.boolean() }) },
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('order' as const), account, buy: fc.boolean(), steps: fc.integer({ min: 1, max: 3000 }), offsetBp: fc.integer({ min: -600, max: 600 }),
      market: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      tif: fc.constantFrom('GTC' as const, 'GTC' as const, 'GTC' as const, 'IOC' as const, 'FOK' as const),
      reduceOnly: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      postOnly: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
      hedgeSide: fc.boolean(),
      // A third of the GTC orders are GTD, due 1..40 ms ahead (a command is 1 ms apart here).
      gtdMs: fc.integer({ min: -80, max: 40 }).map((n) => Math.max(0, n)),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), account }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('fill' as const), pick: fc.nat(), fraction: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('print' as const), moveBp: fc.integer({ min: -500, max: 500 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('mark' as const), moveBp: fc.integer({ min: -1500, max: 1500 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('funding' as const), rate: fc.integer({ min: -300_000, max: 300_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leverage' as const), account, leverage: fc.integer({ min: 0, max: 21 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('marginType' as const), account, isolated: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mode' as const), account, hedge: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('adjust' as const), account, amount: fc.integer({ min: 1, max: 50 }), add: fc.boolean(), long: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('modify' as const), pick: fc.nat(), offsetBp: fc.integer({ min: -600, max: 600 }), steps: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rates' as const), account, maker: fc.integer({ min: -1, max: 100_000 }), taker: fc.integer({ min: -1, max: 100_000 }) }) },
);
// Most steps on the first symbol; the second shares the margin asset (cross margin across symbols).
const stepArb: fc.Arbitrary<Step> = fc.tuple(bodyArb, fc.integer({ min: 0, max: 3 })).map(([body, n]) => ({ ...body, sym: n === 0 ? 1 : 0 }) as Step);

const LEGAL: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING_NEW: ['NEW'],
  NEW: ['PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH'],
  PARTIALLY_FILLED: ['PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH'],
  FILLED: [],
  CANCELED: [],
  EXPIRED: [],
  EXPIRED_IN_MATCH: [],
};

export const COVERAGE = new Map<string, number>();

class FuturesChecker {
  readonly engine = new Engine(config);
  time = 1_000_000;
  readonly marks = [100 * E8, 100 * E8];
  external = 0;
  readonly statuses = new Map<string, OrderStatus>();
  readonly reduceOnly = new Set<string>();
  /** Last position amount per account/side seen in events. */
  readonly positions = new Map<string, number>();

  run(steps: readonly Step[]): void {
    for (const id of ACCOUNTS) {
      this.apply({ type: 'CreateAccount', accountId: id, balances: { USDT: 2000 * E8 } });
      this.apply({ type: 'TransferFuturesWallet', accountId: id, asset: 'USDT', amount: 200 * E8, direction: 'TO_FUTURES' });
    }
    for (const [i, symbol] of SYMBOLS.entries()) this.apply({ type: 'SetMarkPrice', symbol, markPrice: this.marks[i] });
    for (const step of steps) {
      const command = this.commandOf(step);
      if (command !== null) this.apply(command);
    }
  }

  priceAt(sym: number, offsetBp: number): number {
    const raw = Math.round((this.marks[sym]! * (10_000 + offsetBp)) / 10_000);
    return Math.max(1_000_000, Math.round(raw / 1_000_000) * 1_000_000);
  }

  commandOf(step: Step): Record<string, unknown> | null {
    const SYM = SYMBOLS[step.sym];
    switch (step.kind) {
      case 'transfer':
        return { type: 'TransferFuturesWallet', accountId: step.account, asset: 'USDT', amount: step.amount * E8, direction: step.toFutures ? 'TO_FUTURES' : 'TO_SPOT' };
      case 'order': {
        const hedge = this.engine.futuresPositionMode(step.account) === 'HEDGE';
        const positionSide = hedge ? (step.hedgeSide ? 'LONG' : 'SHORT') : 'BOTH';
        const base = { type: 'PlaceOrder', accountId: step.account, symbol: SYM, side: step.buy ? 'BUY' : 'SELL', quantity: step.steps * 100_000, positionSide, reduceOnly: step.reduceOnly && !hedge ? true : undefined };
        if (step.market) return { ...base, orderType: 'MARKET' };
        const postOnly = step.postOnly && step.tif === 'GTC';
        // GTD: a GTC order that is not post-only, due gtdMs after the command (next command's time + gtdMs ms).
        const gtd = step.gtdMs > 0 && step.tif === 'GTC' && !postOnly ? { goodTillTime: this.time + 1000 + step.gtdMs * 1000 } : {};
        return { ...base, orderType: 'LIMIT', timeInForce: step.tif, price: this.priceAt(step.sym, step.offsetBp), postOnly: postOnly ? true : undefined, ...gtd };
      }
      case 'cancelAll':
        return { type: 'CancelAllOrders', accountId: step.account, symbol: SYM };
      case 'fill': {
        const open = ACCOUNTS.flatMap((id) => this.engine.openOrders(id, SYM));
        if (open.length === 0) return null;
        const order = open[step.pick % open.length]!;
        const remaining = order.origQty - order.executedQty;
        const quantity = Math.max(100_000, Math.floor(remaining / step.fraction / 100_000) * 100_000);
        return { type: 'FillFromMarket', symbol: SYM, orderId: order.orderId, quantity: Math.min(quantity, remaining), reason: 'TRADE_THROUGH' };
      }
      case 'print':
        return { type: 'RecordMarketTrade', symbol: SYM, price: this.priceAt(step.sym, step.moveBp), quantity: 100_000, isBuyerMaker: step.moveBp < 0 };
      case 'mark':
        this.marks[step.sym] = this.priceAt(step.sym, step.moveBp);
        return { type: 'SetMarkPrice', symbol: SYM, markPrice: this.marks[step.sym] };
      case 'funding':
        return { type: 'SettleFunding', symbol: SYM, rate: step.rate };
      case 'leverage':
        return { type: 'SetLeverage', accountId: step.account, symbol: SYM, leverage: step.leverage };
      case 'marginType':
        return { type: 'SetMarginType', accountId: step.account, symbol: SYM, marginType: step.isolated ? 'ISOLATED' : 'CROSSED' };
      case 'mode':
        return { type: 'SetPositionMode', accountId: step.account, mode: step.hedge ? 'HEDGE' : 'ONE_WAY' };
      case 'adjust': {
        const hedge = this.engine.futuresPositionMode(step.account) === 'HEDGE';
        return { type: 'AdjustPositionMargin', accountId: step.account, symbol: SYM, positionSide: hedge ? (step.long ? 'LONG' : 'SHORT') : 'BOTH', amount: step.amount * E8, direction: step.add ? 'ADD' : 'REDUCE' };
      }
      case 'modify': {
        const open = ACCOUNTS.flatMap((id) => this.engine.openOrders(id, SYM));
        if (open.length === 0) return null;
        const order = open[step.pick % open.length]!;
        return { type: 'ModifyMarginOrder', accountId: order.accountId, symbol: SYM, orderId: order.orderId, price: this.priceAt(step.sym, step.offsetBp), quantity: step.steps * 100_000 };
      }
      case 'rates':
        return { type: 'SetFuturesCommissionRates', accountId: step.account, makerRate: step.maker, takerRate: step.taker };
      case 'wait':
        // Time passes; the next command (a mark update) expires what fell due meanwhile.
        this.time += step.ms * 1000;
        return { type: 'SetMarkPrice', symbol: SYM, markPrice: this.marks[step.sym] };
    }
  }

  apply(partial: Record<string, unknown>): void {
    this.time += 1000;
    const command = { ...partial, time: this.time } as unknown as EngineCommand;
    const before = this.engine.stateHash();
    const events = this.engine.apply(command);
    for (const e of events) COVERAGE.set(e.type === 'OrderRejected' ? `rej ${e.reason}` : e.type, (COVERAGE.get(e.type === 'OrderRejected' ? `rej ${e.reason}` : e.type) ?? 0) + 1);
    // A refusal is the last event: GTD orders due by the command's time expire before it, refused or not.
    const refused = events.length !== 0 && events[events.length - 1]!.type === 'OrderRejected';
    if (events.length === 0 && command.type !== 'SetFuturesCommissionRates') throw new Error(`${command.type} emitted nothing`);
    if (refused && events.length === 1 && this.engine.stateHash() !== before) throw new Error(`refused ${command.type} changed the state`);
    if (refused && events.slice(0, -1).some((e) => e.type !== 'OrderExpired')) throw new Error(`refused ${command.type} did more than expire GTD orders`);
    this.observe(command, events, refused);
    this.engine.checkInvariants();
    this.checkConservation();
    this.checkGoodTill(command.time);
    if (!refused && (command.type === 'SetMarkPrice' || command.type === 'SettleFunding')) this.checkAboveMaintenance();
  }

  observe(command: EngineCommand, events: readonly EngineEvent[], refused: boolean): void {
    if (command.type === 'TransferFuturesWallet' && !refused) this.external += command.direction === 'TO_FUTURES' ? command.amount : -command.amount;
    if (command.type === 'SettleFunding' && !refused) {
      // Funding paid and received, from the income ledger of this command's time.
      for (const id of ACCOUNTS) for (const row of this.engine.futuresIncome(id, { incomeType: 'FUNDING_FEE', startTime: command.time })) this.external += row.income;
    }
    for (const e of events) {
      switch (e.type) {
        case 'OrderAccepted':
          this.status(e.symbol, e.orderId, 'NEW', true);
          if (command.type === 'PlaceOrder' && command.reduceOnly === true) this.reduceOnly.add(`${e.symbol}#${e.orderId}`);
          break;
        case 'TradeExecuted':
          this.status(e.symbol, e.takerOrderId, e.takerStatus);
          if (e.makerOrderId !== 0) this.status(e.symbol, e.makerOrderId, e.makerStatus);
          break;
        case 'OrderFilledByMarket':
          this.status(e.symbol, e.orderId, e.status);
          break;
        case 'OrderCanceled':
          this.status(e.symbol, e.orderId, 'CANCELED');
          break;
        case 'OrderExpired':
          this.status(e.symbol, e.orderId, e.status);
          if (this.engine.futuresOrderInfo(e.symbol, e.orderId)?.goodTillTime === e.time) COVERAGE.set('GTD expired', (COVERAGE.get('GTD expired') ?? 0) + 1);
          break;
        case 'FuturesPositionChanged': {
          const key = `${e.accountId}/${e.symbol}/${e.positionSide}`;
          const prev = this.positions.get(key) ?? 0;
          if (e.reason === 'ORDER' && e.tradeId >= 0) {
            this.external += e.realizedPnl;
            if (this.reduceOnly.has(`${e.symbol}#${e.orderId}`)) {
              const flipped = prev !== 0 && e.positionAmt !== 0 && Math.sign(prev) !== Math.sign(e.positionAmt);
              if (flipped || Math.abs(e.positionAmt) >= Math.abs(prev)) throw new Error(`reduce-only order ${e.orderId} moved position ${prev} to ${e.positionAmt}`);
            }
          }
          this.positions.set(key, e.positionAmt);
          break;
        }
        case 'PositionLiquidated':
          // The market's side: the uPnL at mark = what the account realized + what the fund took.
          this.external += e.realizedPnl + e.insuranceFundChange;
          break;
        default:
          break;
      }
    }
  }

  status(symbol: string, orderId: number, to: OrderStatus, fresh = false): void {
    const key = `${symbol}#${orderId}`;
    const from = this.statuses.get(key);
    if (fresh) {
      if (from !== undefined) throw new Error(`order ${orderId} accepted twice`);
    } else if (from === undefined || !LEGAL[from].includes(to)) throw new Error(`order ${orderId}: ${from} -> ${to}`);
    this.statuses.set(key, to);
  }

  checkConservation(): void {
    let held = this.engine.futuresInsuranceFund()[0]?.balance ?? 0;
    held += this.engine.feesCollected()['um:USDT'] ?? 0;
    for (const id of ACCOUNTS) held += this.engine.futuresAccount(id, 'um:USDT')?.walletBalance ?? 0;
    if (held !== this.external) throw new Error(`um:USDT not conserved: held ${held}, external flows ${this.external}`);
  }

  checkGoodTill(time: number): void {
    for (const symbol of SYMBOLS) {
      for (const id of ACCOUNTS) {
        for (const o of this.engine.openOrders(id, symbol)) {
          const due = this.engine.futuresOrderInfo(symbol, o.orderId)!.goodTillTime;
          if (due !== 0 && due <= time) throw new Error(`GTD order ${o.orderId} due at ${due} still open at ${time}`);
        }
      }
    }
  }

  checkAboveMaintenance(): void {
    for (const id of ACCOUNTS) {
      const positions = this.engine.futuresPositions(id).filter((p) => p.positionAmt !== 0);
      const cross = positions.filter((p) => p.marginType === 'CROSSED');
      if (cross.length > 0) {
        const a = this.engine.futuresAccount(id, 'um:USDT')!;
        const mm = cross.reduce((s, p) => s + p.maintMargin, 0);
        if (a.crossWalletBalance + a.crossUnPnl <= mm) throw new Error(`account ${id} left below maintenance: ${a.crossWalletBalance + a.crossUnPnl} <= ${mm}`);
      }
      for (const p of positions.filter((q) => q.marginType === 'ISOLATED')) {
        if (p.isolatedWallet + p.unrealizedProfit <= p.maintMargin) throw new Error(`isolated position of ${id} left below maintenance`);
      }
    }
  }
}

describe('futures engine against its model', () => {
  it('conserves each margin asset, liquidates below maintenance, never lets reduce-only grow a position', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 20, maxLength: 80, size: 'max' }), (steps) => {
        new FuturesChecker().run(steps);
      }),
      propertyParameters({ numRuns: 150 }),
    );
    if (process.env['FUT_COVERAGE']) console.log([...COVERAGE.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join('\n'));
  });
});
