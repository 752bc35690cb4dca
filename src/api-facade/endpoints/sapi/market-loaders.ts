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
 * - GET /sapi/v1/system/status (NONE, weight 1): `{"status": 0, "msg": "normal"}`, always (no
 *   maintenance is simulated). Clients that sign every /sapi call may send timestamp, recvWindow
 *   and signature: accepted and ignored.
 * - GET /sapi/v1/asset/tradeFee (USER_DATA, weight 1): `[{symbol, makerCommission,
 *   takerCommission}]` for every symbol, or the one `symbol` asked (-1121 when unknown), from the
 *   account's commission rates: maker (taker) = the standard + special + tax maker (taker) parts,
 *   before buyer/seller parts and the BNB discount (the docs do not say which parts it sums; this
 *   is what a fill pays per side). Rates as the docs show them: "0.001", trailing zeros dropped.
 * The futures exchangeInfo they also load is a real futures endpoint now (futures-general.ts).
 */
import { type AccountView, formatUnits, isFuturesAsset, isFuturesSymbol } from '../../../engine/index.ts';
import { defineSchema, withSigned } from '../../params/index.ts';
import { accountViewOf, OPTIONAL_SYMBOL, symbolSpec } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';

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

/** The spot balances of an account: its futures wallet (`um:` assets) is the /fapi rows'. */
function spotBalances(account: AccountView): AccountView['balances'] {
  return account.balances.filter((b) => !isFuturesAsset(b.asset));
}

export const capitalConfigGetAll = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/capital/config/getall',
  security: 'USER_DATA',
  weight: 10,
  schema: defineSchema(withSigned([])),
  summary: 'Every asset of the simulation with the account’s balance (deposit and withdrawal disabled)',
  // The futures wallet (`um:` assets) is not a spot coin.
  handler: (_p, call) => spotBalances(accountViewOf(call)).map((b) => coinJson(b, call.ctx.assetPrecision(b.asset))),
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

export const systemStatus = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/system/status',
  security: 'NONE',
  weight: 1,
  schema: defineSchema([...OPTIONAL_SIGNATURE_PARAMS]),
  summary: 'System status: normal (0); maintenance is not simulated',
  handler: () => ({ status: 0, msg: 'normal' }),
});

type Rates = AccountView['standardCommission'];

/** A commission rate as tradeFee shows it: "0.001" (formatUnits at 8 places, trailing zeros dropped). */
function rateText(rate: number): string {
  return formatUnits(rate, 8).replace(/\.?0+$/, '') || '0';
}

export const tradeFee = defineEndpoint({
  method: 'GET',
  path: '/sapi/v1/asset/tradeFee',
  security: 'USER_DATA',
  weight: 1,
  schema: defineSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'Maker and taker commission per symbol, from the account’s commission rates',
  handler: (p, call) => {
    const acct = accountViewOf(call);
    const parts: readonly Rates[] = [acct.standardCommission, acct.specialCommission, acct.taxCommission];
    const makerCommission = rateText(parts.reduce((sum, r) => sum + r.maker, 0));
    const takerCommission = rateText(parts.reduce((sum, r) => sum + r.taker, 0));
    const symbols = p.symbol === undefined ? call.ctx.backend.engine.symbolNames().filter((n) => !isFuturesSymbol(n)) : [symbolSpec(call, p.symbol).symbol];
    return symbols.map((symbol) => ({ symbol, makerCommission, takerCommission }));
  },
});
