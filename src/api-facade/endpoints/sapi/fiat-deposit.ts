/**
 * POST /sapi/v1/fiat/deposit (TRADE, signed; request weight 45000 per user id, plus
 * IP weight 1 like every request here):
 * parameters in a JSON body (currency, apiPaymentMethod, amount, ext) or, for form clients, a
 * form body; timestamp and recvWindow in the query.
 *
 * Checks in order: amount positive with at most 2 decimals (fiat cents; -1111 / -1130), then the
 * account's fiat prerequisites and limits (account-services/fiat-accounts.ts: -16009, -16012,
 * -16010, -16007). An accepted deposit credits the currency to the account's free balance at
 * simulated now through an engine AdjustBalance (journaled, conserved, on the user data stream),
 * is recorded with a deterministic order id (exsimfd<n>), and appears in the payment history as a
 * PAYOUT from the payment channel into the fiat wallet (walletType 3).
 * Answer: {code: "000000", message: "success", data: {orderId}, success: true}.
 */
import { formatUnits } from '../../../engine/index.ts';
import type { ApiError } from '../../core/index.ts';
import { paramErrors, defineSchema, withSigned } from '../../params/index.ts';
import { accountOf } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';

const FIAT_DECIMALS = 2;

const invalidAmount = (): ApiError => paramErrors.invalidData('amount');

export const fiatDeposit = defineEndpoint({
  method: 'POST',
  path: '/sapi/v1/fiat/deposit',
  security: 'TRADE',
  weight: 1,
  keyedLimit: { name: 'uidWeight', weight: 45_000 },
  jsonBody: true,
  schema: defineSchema(
    withSigned([
      { name: 'currency', kind: 'STRING', required: true },
      { name: 'apiPaymentMethod', kind: 'STRING', required: true },
      { name: 'amount', kind: 'DECIMAL', required: true, precision: FIAT_DECIMALS },
      { name: 'ext', kind: 'STRING' },
    ]),
  ),
  envelopeErrors: true,
  summary: 'Fiat deposit (pix): credits the account at simulated now',
  handler: (p, call) => {
    const accountId = accountOf(call);
    const precision = call.ctx.assetPrecision(p.currency);
    const cents = p.amount.units(FIAT_DECIMALS);
    if (cents <= 0) throw paramErrors.invalidData('amount');
    const units = precision >= FIAT_DECIMALS ? cents * 10 ** (precision - FIAT_DECIMALS) : p.amount.units(precision);
    if (!Number.isSafeInteger(units)) throw paramErrors.overflow('amount');
    call.ctx.fiat.check(accountId, p.currency, p.apiPaymentMethod, units, precision, call.nowUs);
    // The engine refuses only amounts beyond its exact supply bound: a malformed amount, changing nothing.
    call.send({ type: 'AdjustBalance', accountId, asset: p.currency, delta: units }, invalidAmount);
    const deposit = call.ctx.fiat.record({ accountId, currency: p.currency, apiPaymentMethod: p.apiPaymentMethod, amountUnits: units, time: call.nowUs, ext: p.ext });
    call.ctx.pay.record({
      orderType: 'PAYOUT',
      time: call.nowUs,
      currency: p.currency,
      amount: formatUnits(units, precision),
      payer: { name: p.apiPaymentMethod, type: 'MERCHANT' },
      receiver: { accountId, name: `account ${accountId}`, type: 'USER' },
      payerWallet: 3,
      receiverWallet: 3,
    });
    return { code: '000000', message: 'success', data: { orderId: deposit.orderId }, success: true };
  },
});
