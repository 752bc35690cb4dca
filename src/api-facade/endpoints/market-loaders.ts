/**
 * Endpoints outside the spot API that widely used third-party libraries (CCXT among them) call
 * while loading markets, answered from the simulation so they work with default options:
 *
 * - GET /sapi/v1/capital/config/getall (USER_DATA, weight 10): one entry per asset of the
 *   simulation with the account's free and locked amounts; deposits and withdrawals do not exist
 *   here, so both are disabled on the coin and on its one network (named after the coin).
 * - GET /sapi/v1/margin/allPairs (MARKET_DATA, weight 1) and /sapi/v1/margin/isolated/allPairs
 *   (USER_DATA, weight 10): margin is off in the simulation, so both are empty lists. CCXT signs
 *   every /sapi call, so allPairs also accepts (and ignores) timestamp, recvWindow and signature.
 * The futures exchangeInfo they also load is a real futures endpoint now (futures-general.ts).
 */
import { type AccountView, formatUnits } from '../../engine/index.ts';
import { defineSchema, withSigned } from '../params/param-schema.ts';
import { accountViewOf, OPTIONAL_SYMBOL } from './common.ts';
import { defineEndpoint } from './endpoint-row.ts';

function coinJson(balance: AccountView['balances'][number], precision: number): Record<string, unknown> {
  const coin = balance.asset;
  const smallest = formatUnits(1, precision);
  return {
    coin,
    depositAllEnable: false,
    withdrawAllEnable: false,
    name: coin,
    free: formatUnits(balance.free, precision),
    locked: formatUnits(balance.locked, precision),
    freeze: '0',
    withdrawing: '0',
    ipoing: '0',
    ipoable: '0',
    storage: '0',
    isLegalMoney: false,
    trading: true,
    networkList: [
      {
        network: coin,
        coin,
        withdrawIntegerMultiple: smallest,
        isDefault: true,
        depositEnable: false,
        withdrawEnable: false,
        depositDesc: 'Deposits are not simulated',
        withdrawDesc: 'Withdrawals are not simulated',
        specialTips: '',
        name: coin,
        resetAddressStatus: false,
        addressRegex: '',
        memoRegex: '',
        withdrawFee: '0',
        withdrawMin: '0',
        withdrawMax: '0',
        minConfirm: 0,
        unLockConfirm: 0,
        sameAddress: false,
        estimatedArrivalTime: 0,
        busy: false,
      },
    ],
  };
}

export const capitalConfigGetAll = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/capital/config/getall',
  security: 'USER_DATA',
  weight: 10,
  schema: defineSchema(withSigned([])),
  summary: 'Every asset of the simulation with the account’s balance (deposit and withdrawal disabled)',
  handler: (_p, call) => accountViewOf(call).balances.map((b) => coinJson(b, call.ctx.assetPrecision(b.asset))),
});

const OPTIONAL_SIGNATURE_PARAMS = [
  { name: 'timestamp', kind: 'TIMESTAMP' },
  { name: 'recvWindow', kind: 'RECV_WINDOW' },
  { name: 'signature', kind: 'STRING' },
] as const;

export const marginAllPairs = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/margin/allPairs',
  security: 'MARKET_DATA',
  weight: 1,
  schema: defineSchema([...OPTIONAL_SIGNATURE_PARAMS, OPTIONAL_SYMBOL]),
  summary: 'Cross margin pairs: none (margin is off)',
  handler: () => [],
});

export const isolatedMarginAllPairs = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/margin/isolated/allPairs',
  security: 'USER_DATA',
  weight: 10,
  schema: defineSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'Isolated margin pairs: none (margin is off)',
  handler: () => [],
});
