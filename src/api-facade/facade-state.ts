/**
 * The facade's own state beyond the engine, as plain data: what a served exchange's journal
 * records so a restart answers rate limits exactly as before (request weight and raw requests
 * per IP with their 429/418 episodes and bans, unfilled order counts per account, the keyed
 * limits), and how far the seeded fault stream has been drawn.
 *
 * Not here: listen keys (secrets, re-issued after a restart), user stream subscriptions
 * (connections), fiat deposit records, the pay ledger and equity disclaimers (not yet journaled;
 * a fiat deposit's balance is an engine command and is restored).
 */
import type { ExchangeContext } from './exchange-context.ts';
import type { CountersSnapshot } from './limits/fixed-window-counters.ts';
import type { IpSnapshot } from './limits/request-weight-limiter.ts';
import type { KeyedLimitName } from './limits/keyed-weight-limiter.ts';

export interface FacadeState {
  readonly weight: IpSnapshot[];
  readonly orders: [string, CountersSnapshot][];
  readonly keyed: [KeyedLimitName, [string, CountersSnapshot][]][];
  readonly faultDraws: number;
}

export function captureFacadeState(ctx: ExchangeContext): FacadeState {
  const names = Object.keys(ctx.keyedLimiters).sort() as KeyedLimitName[];
  return {
    weight: ctx.weightLimiter.snapshot(),
    orders: ctx.orderLimiter.snapshot(),
    keyed: names.map((name) => [name, ctx.keyedLimiters[name].snapshot()]),
    faultDraws: ctx.faults.draws,
  };
}

export function restoreFacadeState(ctx: ExchangeContext, state: FacadeState): void {
  ctx.weightLimiter.restore(state.weight);
  ctx.orderLimiter.restore(state.orders);
  for (const [name, rows] of state.keyed) ctx.keyedLimiters[name]?.restore(rows);
  ctx.faults.skipTo(state.faultDraws);
}
