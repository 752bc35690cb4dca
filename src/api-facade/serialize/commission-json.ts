/**
 * Commission rates as GET /api/v3/account/commission and order/test (computeCommissionRates)
 * show them: fractions with 8 decimals, and the discount as the reduction it grants.
 */
import { type AccountView, type SymbolSpec, formatUnits } from '../../engine/index.ts';

type Rates = AccountView['standardCommission'];

export function ratesJson(r: Rates): { maker: string; taker: string; buyer: string; seller: string } {
  return { maker: formatUnits(r.maker, 8), taker: formatUnits(r.taker, 8), buyer: formatUnits(r.buyer, 8), seller: formatUnits(r.seller, 8) };
}

/** order/test shows only the maker and taker parts of each rate set. */
export function makerTakerJson(r: Rates): { maker: string; taker: string } {
  return { maker: formatUnits(r.maker, 8), taker: formatUnits(r.taker, 8) };
}

export function discountJson(account: AccountView, spec: SymbolSpec): Record<string, unknown> {
  return {
    enabledForAccount: account.discount.enabled,
    enabledForSymbol: spec.discountEnabled,
    discountAsset: account.discount.asset,
    // The engine keeps the multiplier paid (0.75); the API shows the reduction (0.25).
    discount: formatUnits(100_000_000 - account.discount.rate, 8),
  };
}
