/**
 * GET /fapi/v1/pmAccountInfo (USER_DATA, signed, IP weight 5): the portfolio margin view of one
 * asset of the account: maxWithdrawAmount = its free balance (what is not locked by open orders),
 * maxWithdrawAmountUSD = that amount valued at simulated now: USD stablecoins at 1, an asset with
 * a USD-quoted spot symbol at its last price, an asset quoted only in another priced asset
 * through that cross (ETH via ETHBTC × BTCUSDT); 0 when no price route exists. An asset the
 * simulation does not know is -1130 for `asset`. 8 decimals for USD, the asset's precision for
 * the amount.
 */
import { formatAmount } from '../../../data/index.ts';
import { formatUnits } from '../../../engine/index.ts';
import { USD_QUOTES } from '../../../futures/index.ts';
import { paramErrors, defineSchema, withSigned } from '../../params/index.ts';
import { accountViewOf } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';

const USD_DECIMALS = 8;

/** `units` of `asset` (at its precision) in USD units (8 decimals), or null with no price route. */
export function usdValue(call: HandlerCall, asset: string, units: bigint, depth = 0): bigint | null {
  const precision = call.ctx.assetPrecision(asset);
  if (USD_QUOTES.includes(asset)) return (units * 10n ** BigInt(USD_DECIMALS)) / 10n ** BigInt(precision);
  if (depth > 1) return null;
  const engine = call.ctx.backend.engine;
  for (const name of engine.symbolNames()) {
    const spec = engine.symbolSpec(name);
    if (spec === undefined || spec.baseAsset !== asset) continue;
    const price = call.ctx.backend.history(name).priceTicker(call.nowUs)?.price;
    if (price === undefined) continue;
    // base units × price (quote units per whole base) → quote units.
    const quote = (units * BigInt(price)) / 10n ** BigInt(spec.basePrecision);
    const value = usdValue(call, spec.quoteAsset, quote, depth + 1);
    if (value !== null) return value;
  }
  return null;
}

export const pmAccountInfo = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/pmAccountInfo',
  security: 'USER_DATA',
  weight: 5,
  schema: defineSchema(withSigned([{ name: 'asset', kind: 'STRING', required: true }])),
  summary: 'Portfolio margin account information of one asset: maximum withdrawable amount, also in USD',
  handler: (p, call) => {
    const balance = accountViewOf(call).balances.find((b) => b.asset === p.asset);
    if (balance === undefined) throw paramErrors.invalidData('asset');
    const free = BigInt(balance.free);
    return {
      maxWithdrawAmountUSD: formatAmount(usdValue(call, p.asset, free) ?? 0n, USD_DECIMALS),
      asset: p.asset,
      maxWithdrawAmount: formatUnits(balance.free, call.ctx.assetPrecision(p.asset)),
    };
  },
});
