/**
 * General endpoints (security NONE): ping, time, exchangeInfo.
 *
 * exchangeInfo rules (spec, General): symbol and symbols exclude each other; permissions and
 * symbolStatus combine with neither; an unknown symbol is -1121; without `permissions` the
 * symbols with SPOT, MARGIN or LEVERAGED in their permission sets are listed; showPermissionSets
 * false leaves `permissionSets` empty. rateLimits come from the context's limits config.
 */
import { exchangeInfoRateLimits } from '../../limits/index.ts';
import { exclusive, defineSchema } from '../../params/index.ts';
import { apiTime, symbolInfoJson } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL_STATUS, SYMBOLS, selectSymbols, statusOf } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';

const DEFAULT_PERMISSIONS = ['SPOT', 'MARGIN', 'LEVERAGED'];
const PERMISSION_ITEM = { source: '[A-Z0-9_]{1,30}', text: '[A-Z0-9_]{1,30}' } as const;

export const ping = defineEndpoint({
  method: 'GET',
  path: '/api/v3/ping',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([]),
  summary: 'Test connectivity: {}',
  handler: () => ({}),
});

export const time = defineEndpoint({
  method: 'GET',
  path: '/api/v3/time',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([]),
  summary: 'Simulated server time: {serverTime}',
  tellsServerTime: true,
  handler: (_p, call) => ({ serverTime: apiTime(call.nowUs, call.unit) }),
});

export const exchangeInfo = defineEndpoint({
  method: 'GET',
  path: '/api/v3/exchangeInfo',
  security: 'NONE',
  weight: 20,
  schema: defineSchema(
    [
      OPTIONAL_SYMBOL,
      SYMBOLS,
      { name: 'permissions', kind: 'JSON_ARRAY', item: PERMISSION_ITEM, acceptBare: true },
      { name: 'showPermissionSets', kind: 'BOOLEAN' },
      SYMBOL_STATUS,
    ],
    [exclusive('symbol', 'symbols'), exclusive('permissions', 'symbol'), exclusive('permissions', 'symbols'), exclusive('symbolStatus', 'symbol'), exclusive('symbolStatus', 'symbols')],
  ),
  summary: 'Rate limits, exchange filters and symbol rules',
  handler: (p, call) => {
    const engine = call.ctx.backend.engine;
    const { specs } = selectSymbols(call, { ...(p.symbol === undefined ? {} : { symbol: p.symbol }), ...(p.symbols === undefined ? {} : { symbols: p.symbols }) });
    const named = p.symbol !== undefined || p.symbols !== undefined;
    const wanted = new Set(p.permissions ?? DEFAULT_PERMISSIONS);
    const listed = specs.filter((s) => {
      if (p.symbolStatus !== undefined && statusOf(call, s.symbol) !== p.symbolStatus) return false;
      return named || s.permissionSets.some((set) => set.some((perm) => wanted.has(perm)));
    });
    return {
      timezone: 'UTC',
      serverTime: apiTime(call.nowUs, call.unit),
      rateLimits: exchangeInfoRateLimits(call.ctx.rateLimits),
      exchangeFilters: (engine.config.exchangeFilters ?? []).map((f) => ({ ...f })),
      symbols: listed.map((s) => symbolInfoJson(s, statusOf(call, s.symbol), p.showPermissionSets ?? true)),
      // Present only when SOR is available (binance-facts §8.1).
      ...(call.ctx.sors.length === 0 ? {} : { sors: call.ctx.sors.map((g) => ({ baseAsset: g.baseAsset, symbols: [...g.symbols] })) }),
    };
  },
});
