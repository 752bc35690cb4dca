/**
 * Commission on a fill (faqs/commission_faq.md): standard, tax and special parts, each
 * received amount * (maker|taker rate + buyer|seller rate), taken from the received asset.
 * When the account and the symbol enable the discount asset (BNB) and the account holds enough
 * of it, the commission is paid in that asset instead: the standard part multiplied by the
 * account's discount rate, the other parts in full, converted at the last trade price of a
 * symbol pairing the two assets. Without such a price, or without enough of the discount asset,
 * the full commission is taken from the received asset.
 *
 * Rounding (the docs do not say): each commission is rounded UP to the asset's smallest unit, so
 * a backtest never under-states fees. Payer and collector use the same rounded amount.
 */
import type { CommissionRates } from '../commands.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { mulDivCeil } from '../exact-math.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import type { Account } from './account.ts';

export interface Commission {
  amount: number;
  asset: number;
}

function partRate(rates: CommissionRates, isMaker: boolean, isBuyer: boolean): number {
  return (isMaker ? rates.maker : rates.taker) + (isBuyer ? rates.buyer : rates.seller);
}

export function commissionFor(
  state: EngineState,
  symbol: SymbolState,
  account: Account,
  isMaker: boolean,
  isBuyer: boolean,
  receivedAsset: number,
  received: number,
): Commission {
  const standard = partRate(account.standardCommission, isMaker, isBuyer);
  const other = partRate(account.taxCommission, isMaker, isBuyer) + partRate(account.specialCommission, isMaker, isBuyer);
  if (account.discount.enabled && symbol.spec.discountEnabled && received > 0) {
    const paid = discountedCommission(state, account, standard, other, receivedAsset, received);
    if (paid) return paid;
  }
  const rate = standard + other;
  return { amount: rate === 0 ? 0 : mulDivCeil(received, rate, RATE_SCALE), asset: receivedAsset };
}

function discountedCommission(
  state: EngineState,
  account: Account,
  standard: number,
  other: number,
  receivedAsset: number,
  received: number,
): Commission | null {
  const discountAsset = state.findAsset(account.discount.asset);
  if (discountAsset === undefined) return null;
  const scale = BigInt(RATE_SCALE);
  // Commission in received units, exact: received * (standard * discount / 1e8 + other) / 1e8.
  let num = BigInt(received) * (BigInt(standard) * BigInt(account.discount.rate) + BigInt(other) * scale);
  let den = scale * scale;
  if (discountAsset !== receivedAsset) {
    const conversion = conversionTo(state, receivedAsset, discountAsset);
    if (!conversion) return null;
    num *= conversion.num;
    den *= conversion.den;
  }
  const amountBig = (num + den - 1n) / den;
  if (amountBig > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const amount = Number(amountBig);
  if (account.freeOf(discountAsset) < amount) return null;
  return { amount, asset: discountAsset };
}

/** Units of `to` per unit of `from`, as a ratio, from the last trade of a symbol pairing them. */
function conversionTo(state: EngineState, from: number, to: number): { num: bigint; den: bigint } | null {
  for (const symbol of state.symbolList) {
    const last = symbol.window.lastPrice;
    if (last === null || last === 0) continue;
    if (symbol.baseAsset === to && symbol.quoteAsset === from) {
      // price = from-units per whole `to`: to-units = from-units * 10^toPrecision / price
      return { num: 10n ** BigInt(state.assetPrecision[to] as number), den: BigInt(last) };
    }
    if (symbol.baseAsset === from && symbol.quoteAsset === to) {
      // price = to-units per whole `from`: to-units = from-units * price / 10^fromPrecision
      return { num: BigInt(last), den: 10n ** BigInt(state.assetPrecision[from] as number) };
    }
  }
  return null;
}
