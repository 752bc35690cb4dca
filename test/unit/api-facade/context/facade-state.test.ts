/**
 * The facade state a served exchange journals: changes carry only what is new, the merger folds a
 * full line and the changes after it into the whole, and restoring it into a fresh context gives
 * the same state (keys verify, records list, limits as they were).
 */
import { expect, test } from 'vitest';
import { captureFacadeChanges, captureFacadeState, ExchangeContext, FacadeStateMerger, isEmptyFacadeChange, restoreFacadeState } from '../../../../src/api-facade/index.ts';
import { EngineBackend } from '../../../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../../../src/sample/index.ts';

const T0 = Date.UTC(2024, 0, 1) * 1000;
const context = () => new ExchangeContext({ backend: new EngineBackend(SAMPLE_CONFIG, T0, sampleAccounts(T0)) });
const hmac = (apiKey: string, accountId: number) => ({ apiKey, accountId, keyType: 'HMAC' as const, secretKey: `${apiKey}-secret` });

test('a change holds only what is new; nothing new is an empty change', () => {
  const ctx = context();
  const first = captureFacadeChanges(ctx);
  expect(isEmptyFacadeChange(first, ctx.faults.draws)).toBe(true);
  ctx.apiKeys.add(hmac('k1', 1));
  ctx.equityDisclaimers.accept(1, T0 + 5);
  ctx.fiat.record({ accountId: 1, currency: 'BRL', apiPaymentMethod: 'pix', amountUnits: 100, time: T0, ext: undefined });
  const change = captureFacadeChanges(ctx);
  expect(change.apiKeys).toEqual([hmac('k1', 1)]);
  expect(change.disclaimers).toEqual([[1, T0 + 5]]);
  expect(change.fiatDeposits?.map((d) => d.orderId)).toEqual(['exsimfd1']);
  expect(change.payments).toBeUndefined();
  expect(isEmptyFacadeChange(change, ctx.faults.draws)).toBe(false);
  // Accepting again changes nothing.
  ctx.equityDisclaimers.accept(1, T0 + 9);
  expect(isEmptyFacadeChange(captureFacadeChanges(ctx), ctx.faults.draws)).toBe(true);
});

test('full line + changes merge into the whole; a restore into a fresh context equals it', () => {
  const ctx = context();
  ctx.apiKeys.add(hmac('k1', 1));
  ctx.pay.record({ orderType: 'C2C', time: T0, currency: 'USDT', amount: '1.5', payer: { accountId: 1, name: 'a', type: 'USER' }, receiver: { name: 'b', type: 'USER' } });
  const merger = new FacadeStateMerger();
  merger.merge(captureFacadeState(ctx));
  captureFacadeChanges(ctx);
  ctx.apiKeys.add(hmac('k2', 2));
  ctx.pay.record({ orderType: 'PAY', time: T0 + 1, currency: 'USDT', amount: '2', payer: { accountId: 1, name: 'a', type: 'USER' }, receiver: { name: 'shop', type: 'MERCHANT' } });
  ctx.equityDisclaimers.accept(2, T0 + 2);
  merger.merge(captureFacadeChanges(ctx));
  const merged = merger.result()!;
  expect(merged).toEqual(captureFacadeState(ctx));

  const fresh = context();
  restoreFacadeState(fresh, merged);
  expect(captureFacadeState(fresh)).toEqual(captureFacadeState(ctx));
  expect(fresh.apiKeys.get('k2')?.accountId).toBe(2);
  // Both payments, not two empty lists (the comparison alone would pass with none).
  const paid = ctx.pay.transactions(1, T0, T0 + 10, 10).map((t) => t.transactionId);
  expect(paid).toHaveLength(2);
  expect(fresh.pay.transactions(1, T0, T0 + 10, 10).map((t) => t.transactionId)).toEqual(paid);
  expect(fresh.equityDisclaimers.acceptedAt(2)).toBe(T0 + 2);
  // What the restore put back is not new: the next change is empty.
  expect(isEmptyFacadeChange(captureFacadeChanges(fresh), fresh.faults.draws)).toBe(true);
});
