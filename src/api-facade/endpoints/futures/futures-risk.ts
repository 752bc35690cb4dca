/**
 * Risk information of USDⓈ-M futures:
 * - ADL risk (/fapi/v1/symbolAdlRisk, symbol optional, weight 1): the positions model's rating
 *   (high / medium / low from the 24 h index move), refreshed every 30 minutes: computed as of
 *   the last half-hour boundary, which is its updateTime.
 * - Trading schedule (/fapi/v1/tradingSchedule, weight 5): EQUITY and COMMODITY sessions a week
 *   either side of the day before the query (src/futures/trading-schedule.ts); updateTime now.
 * - Insurance fund (/fapi/v1/insuranceBalance, symbol optional, weight 1): one group per margin
 *   asset (its contracts and the fund's balance), a daily snapshot at 00:00 UTC; with a symbol,
 *   that symbol's group as an object, otherwise every group in an array.
 */
import { MICROS_PER_DAY } from '../../../clock/index.ts';
import { formatAmount } from '../../../data/index.ts';
import { futuresParameters, scheduleWindow, sessionsBetween, type ScheduledMarket } from '../../../futures/index.ts';
import { defineSchema } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';
import { selectContracts } from './futures-common.ts';

export const symbolAdlRisk = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/symbolAdlRisk',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([OPTIONAL_SYMBOL]),
  summary: 'USDⓈ-M ADL risk rating per symbol (refreshed every 30 minutes)',
  handler: (p, call) => {
    const updated = Math.floor(call.nowUs / futuresParameters.ADL_REFRESH_US) * futuresParameters.ADL_REFRESH_US;
    const { contracts, single } = selectContracts(call, 'USD_M', p);
    const rows = contracts.map((c) => ({ symbol: c.symbol, adlRisk: call.ctx.positions.adlRisk(c.pair, updated), updateTime: apiTime(updated, call.unit) }));
    return single ? rows[0] : rows;
  },
});

const SCHEDULED: readonly ScheduledMarket[] = ['EQUITY', 'COMMODITY'];

export const tradingSchedule = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/tradingSchedule',
  security: 'NONE',
  weight: 5,
  schema: defineSchema([]),
  summary: 'USDⓈ-M trading sessions of TradFi underlyings (EQUITY, COMMODITY)',
  handler: (_p, call) => {
    const { from, to } = scheduleWindow(call.nowUs);
    const marketSchedules: Record<string, unknown> = {};
    for (const market of SCHEDULED) {
      marketSchedules[market] = {
        sessions: sessionsBetween(market, from, to).map((s) => ({ startTime: apiTime(s.startTime, call.unit), endTime: apiTime(s.endTime, call.unit), type: s.type })),
      };
    }
    return { updateTime: apiTime(call.nowUs, call.unit), marketSchedules };
  },
});

export const insuranceBalance = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/insuranceBalance',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([OPTIONAL_SYMBOL]),
  summary: 'USDⓈ-M insurance fund balance snapshot per margin asset group',
  handler: (p, call) => {
    const snapshot = Math.floor(call.nowUs / MICROS_PER_DAY) * MICROS_PER_DAY;
    const all = call.ctx.futures.contracts('USD_M', call.nowUs);
    const groupOf = (asset: string) => ({
      symbols: all.filter((c) => c.pair.marginAsset === asset).map((c) => c.symbol),
      assets: [{ asset, marginBalance: formatAmount(call.ctx.positions.insuranceFund(asset, snapshot), 8), updateTime: apiTime(snapshot, call.unit) }],
    });
    if (p.symbol !== undefined) return groupOf(selectContracts(call, 'USD_M', p).contracts[0]!.pair.marginAsset);
    return [...new Set(all.map((c) => c.pair.marginAsset))].map(groupOf);
  },
});
