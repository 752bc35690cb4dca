/**
 * Moving money between an account's spot wallet and its USDⓈ-M futures wallet (docs/usdm-futures.md:
 * `USDT` ↔ `um:USDT` inside one account, an engine TransferFuturesWallet, so every asset stays
 * conserved):
 * - POST /sapi/v1/asset/transfer (universal transfer; TRADE, 900 weight per UID): `type`
 *   MAIN_UMFUTURE (spot → futures) or UMFUTURE_MAIN (futures → spot), `asset`, `amount` →
 *   `{"tranId": n}`. Every other transfer type names a wallet this exchange does not have: -1130
 *   "Data sent for parameter 'type' is not valid." (not supported here).
 * - POST /sapi/v1/futures/transfer (the older futures transfer; TRADE, weight 1): `type` 1
 *   (spot → USDⓈ-M) or 2 (USDⓈ-M → spot); 3 and 4 (COIN-M) are -1130 (no COIN-M wallet here).
 * - GET /sapi/v1/asset/transfer (USER_DATA, weight 1): the account's transfers of one `type`,
 *   newest first, `current` page (1) of `size` rows (10, at most 100), `{total, rows:[{asset,
 *   amount, type, status "CONFIRMED", tranId, timestamp}]}`. The rows are the futures wallet's
 *   TRANSFER income rows (same tranId), so the history needs no state of its own.
 * Refusals: more than the source wallet can give (spot free balance; futures max withdraw amount)
 * is -5013 "Asset transfer failed: insufficient balance"; an asset that is no margin asset, or an
 * amount of zero, -1130 on that parameter. Nothing changes on a refusal.
 */
import { formatUnits, futuresWalletAsset, spotAssetOf, type RejectReason } from '../../../engine/index.ts';
import { type ApiError, apiError } from '../../core/index.ts';
import { defineSchema, paramErrors, withSigned, type DecimalParam } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { accountOf, timeUs } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';

const UNIVERSAL_TYPES = ['MAIN_UMFUTURE', 'UMFUTURE_MAIN'] as const;

function transferRefusal(reason: RejectReason): ApiError {
  if (reason === 'FUTURES_ASSET_NOT_SUPPORTED' || reason === 'UNKNOWN_ASSET') return paramErrors.invalidData('asset');
  if (reason === 'INVALID_AMOUNT' || reason === 'FUTURES_QTY_NOT_POSITIVE') return paramErrors.invalidData('amount');
  return apiError('ASSET_TRANSFER_INSUFFICIENT');
}

/** Sends the transfer and answers its tranId (the TRANSFER income row it booked). */
function transfer(call: HandlerCall, asset: string, amount: DecimalParam, direction: 'TO_FUTURES' | 'TO_SPOT'): { tranId: number } {
  const accountId = accountOf(call);
  let units: number;
  try {
    units = amount.units(call.ctx.assetPrecision(asset));
  } catch {
    throw paramErrors.invalidData('amount');
  }
  if (units <= 0) throw paramErrors.invalidData('amount');
  call.send({ type: 'TransferFuturesWallet', accountId, asset, amount: units, direction }, transferRefusal);
  const walletAsset = futuresWalletAsset(asset);
  const rows = call.ctx.backend.engine.futuresIncome(accountId);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.incomeType === 'TRANSFER' && row.asset === walletAsset) return { tranId: row.tranId };
  }
  throw new Error('transfer booked no TRANSFER income row'); // engine contract
}

export const universalTransfer = defineEndpoint({
  method: 'POST',
  path: '/sapi/v1/asset/transfer',
  security: 'TRADE',
  weight: 1,
  keyedLimit: { name: 'uidWeight', weight: 900 },
  schema: defineSchema(
    withSigned([
      { name: 'type', kind: 'STRING', required: true },
      { name: 'asset', kind: 'STRING', required: true },
      { name: 'amount', kind: 'DECIMAL', required: true },
      { name: 'fromSymbol', kind: 'STRING' },
      { name: 'toSymbol', kind: 'STRING' },
    ]),
  ),
  summary: 'Universal transfer between spot and USDⓈ-M futures (MAIN_UMFUTURE, UMFUTURE_MAIN; other types not supported here)',
  handler: (p, call) => {
    if (!(UNIVERSAL_TYPES as readonly string[]).includes(p.type)) throw paramErrors.invalidData('type');
    return transfer(call, p.asset, p.amount, p.type === 'MAIN_UMFUTURE' ? 'TO_FUTURES' : 'TO_SPOT');
  },
});

export const futuresTransfer = defineEndpoint({
  method: 'POST',
  path: '/sapi/v1/futures/transfer',
  security: 'TRADE',
  weight: 1,
  schema: defineSchema(
    withSigned([
      { name: 'asset', kind: 'STRING', required: true },
      { name: 'amount', kind: 'DECIMAL', required: true },
      { name: 'type', kind: 'INT', required: true },
    ]),
  ),
  summary: 'Futures transfer: type 1 spot → USDⓈ-M, 2 USDⓈ-M → spot (3/4 COIN-M not supported here)',
  handler: (p, call) => {
    if (p.type !== 1 && p.type !== 2) throw paramErrors.invalidData('type');
    return transfer(call, p.asset, p.amount, p.type === 1 ? 'TO_FUTURES' : 'TO_SPOT');
  },
});

export const transferHistory = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/asset/transfer',
  security: 'USER_DATA',
  weight: 1,
  schema: defineSchema(
    withSigned([
      { name: 'type', kind: 'STRING', required: true },
      { name: 'startTime', kind: 'LONG' },
      { name: 'endTime', kind: 'LONG' },
      { name: 'current', kind: 'INT' },
      { name: 'size', kind: 'INT' },
      { name: 'fromSymbol', kind: 'STRING' },
      { name: 'toSymbol', kind: 'STRING' },
    ]),
  ),
  summary: 'Universal transfer history of one type (MAIN_UMFUTURE, UMFUTURE_MAIN), newest first',
  handler: (p, call) => {
    if (!(UNIVERSAL_TYPES as readonly string[]).includes(p.type)) throw paramErrors.invalidData('type');
    const size = p.size ?? 10;
    const current = p.current ?? 1;
    if (size < 1 || size > 100) throw paramErrors.invalidData('size');
    if (current < 1) throw paramErrors.invalidData('current');
    const from = p.startTime === undefined ? -Infinity : timeUs(p.startTime);
    const to = p.endTime === undefined ? Infinity : timeUs(p.endTime);
    const toFutures = p.type === 'MAIN_UMFUTURE';
    const rows = call.ctx.backend.engine
      .futuresIncome(accountOf(call))
      .filter((r) => r.incomeType === 'TRANSFER' && (r.income > 0) === toFutures && r.time >= from && r.time <= to)
      .reverse();
    return {
      total: rows.length,
      rows: rows.slice((current - 1) * size, current * size).map((r) => ({
        asset: spotAssetOf(r.asset) ?? r.asset,
        amount: formatUnits(Math.abs(r.income), call.ctx.assetPrecision(r.asset)),
        type: p.type,
        status: 'CONFIRMED',
        tranId: r.tranId,
        timestamp: apiTime(r.time, call.unit),
      })),
    };
  },
});

/**
 * GET /sapi/v1/futures/transfer (USER_DATA, weight 10): the older futures transfer history of one
 * `asset` from `startTime` (both mandatory), `current` page (1) of `size` rows (10, at most 100),
 * `{rows:[{asset, tranId, amount, type, timestamp, status}], total}` with `type` the POST's code as
 * a string ("1" spot → USDⓈ-M, "2" back; Binance's example shows it quoted). Rows are the futures
 * wallet's TRANSFER income rows of that asset, made by either transfer endpoint (one wallet move),
 * newest first (**chosen**, as the universal history; Binance does not say).
 */
export const futuresTransferHistory = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/futures/transfer',
  security: 'USER_DATA',
  weight: 10,
  schema: defineSchema(
    withSigned([
      { name: 'asset', kind: 'STRING', required: true },
      { name: 'startTime', kind: 'LONG', required: true },
      { name: 'endTime', kind: 'LONG' },
      { name: 'current', kind: 'LONG' },
      { name: 'size', kind: 'LONG' },
    ]),
  ),
  summary: 'Futures transfer history of one asset (type "1" spot → USDⓈ-M, "2" USDⓈ-M → spot), newest first',
  handler: (p, call) => {
    const size = p.size ?? 10;
    const current = p.current ?? 1;
    if (size < 1 || size > 100) throw paramErrors.invalidData('size');
    if (current < 1) throw paramErrors.invalidData('current');
    const from = timeUs(p.startTime);
    const to = p.endTime === undefined ? Infinity : timeUs(p.endTime);
    const walletAsset = futuresWalletAsset(p.asset);
    const rows = call.ctx.backend.engine
      .futuresIncome(accountOf(call))
      .filter((r) => r.incomeType === 'TRANSFER' && r.asset === walletAsset && r.time >= from && r.time <= to)
      .reverse();
    return {
      rows: rows.slice((current - 1) * size, current * size).map((r) => ({
        asset: p.asset,
        tranId: r.tranId,
        amount: formatUnits(Math.abs(r.income), call.ctx.assetPrecision(r.asset)),
        type: r.income > 0 ? '1' : '2',
        timestamp: apiTime(r.time, call.unit),
        status: 'CONFIRMED',
      })),
      total: rows.length,
    };
  },
});
