/**
 * The research helpers of the strategy context, built once per run: `ctx.bars` (closed bars from
 * the market history), `ctx.symbol` (rules and rounding), `ctx.orders` (typed orders over the REST
 * client) and `ctx.tag` (the reason an order was sent, for trades.csv). None of them sends an
 * engine command of its own: bars and rules are reads, orders go through the client as any
 * request does, and tags stay beside the run.
 */
import type { MarketHistory } from '../data/index.ts';
import type { Engine } from '../engine/index.ts';
import { closedBars } from './market-bars.ts';
import { OrderHelper } from './order-helper.ts';
import type { StrategyClient, StrategyContext } from './strategy.ts';
import { SymbolRules } from './symbol-rules.ts';

/** Reasons the strategy gave its orders (`ctx.tag`), by symbol and orderId or by client order id. */
export class OrderTags {
  readonly #byOrder = new Map<string, string>();
  readonly #byClientId = new Map<string, string>();

  set(order: number | string, reason: string, symbol: string): void {
    if (typeof reason !== 'string' || reason === '' || /[\r\n]/.test(reason)) throw new RangeError(`tag(${String(order)}, ${JSON.stringify(reason)}): the reason must be a non-empty line of text`);
    if (typeof order === 'number') this.#byOrder.set(`${symbol} ${order}`, reason);
    else this.#byClientId.set(order, reason);
  }

  /** The reason of an order, or '' when it has none. */
  reasonOf(symbol: string, orderId: number, clientOrderId: string): string {
    return this.#byOrder.get(`${symbol} ${orderId}`) ?? this.#byClientId.get(clientOrderId) ?? '';
  }
}

export interface ResearchHelperOptions {
  readonly engine: Engine;
  readonly history: (symbol: string) => MarketHistory;
  /** Simulated now, µs. */
  readonly now: () => number;
  /** The replayed symbols (the first is the main one). */
  readonly symbols: readonly string[];
  readonly client: StrategyClient;
  readonly tags: OrderTags;
}

export function researchHelpers(options: ResearchHelperOptions): Pick<StrategyContext, 'bars' | 'symbol' | 'orders' | 'tag'> {
  const { engine, symbols, tags } = options;
  const rules = new Map<string, SymbolRules>();
  const replayed = (symbol: string, call: string): void => {
    if (!symbols.includes(symbol)) throw new RangeError(`${call}: ${symbol} is not replayed in this backtest (its symbols: ${symbols.join(', ')})`);
  };
  const symbol = (name: string): SymbolRules => {
    let found = rules.get(name);
    if (found === undefined) {
      const spec = engine.symbolSpec(name);
      if (spec === undefined) throw new RangeError(`symbol(${name}): not a symbol of this market (its symbols: ${engine.symbolNames().join(', ')})`);
      found = new SymbolRules(spec);
      rules.set(name, found);
    }
    return found;
  };
  return {
    bars: (name, interval, limit = 500) => {
      replayed(name, `bars(${name}, ${interval})`);
      const spec = symbol(name);
      return closedBars(options.history(name), spec, name, interval, options.now(), limit);
    },
    symbol,
    orders: new OrderHelper(options.client, (orderId, reason, name) => tags.set(orderId, reason, name)),
    tag: (order, reason, name = symbols[0]!) => tags.set(order, reason, name),
  };
}
