/**
 * USDⓈ-M account rows (futures facts §2, §6): GET /fapi/v2|v3/account, /fapi/v2|v3/balance,
 * /fapi/v2|v3/positionRisk, GET /fapi/v1/income, all from the engine's futures queries at
 * simulated now (mark-driven: uPnL, margins and liquidation prices as the engine computes them).
 *
 * Shapes, field for field in the docs' order:
 * - account v3: totals (single-asset mode: the USDT wallet's figures; multi-assets mode is off
 *   here), `assets[]` for every margin asset of the exchange's margin symbols (zeros when never
 *   funded) and
 *   `positions[]` only for positions that are open or have open orders. v2 adds the account flags
 *   before the totals (feeTier 0, feeBurn false: no BNB fee discount is modelled, canTrade,
 *   canDeposit, canWithdraw, updateTime, multiAssetsMargin false, tradeGroupId -1), `marginAvailable`
 *   per asset, and a row per symbol and side whether open or not, with leverage and isolation.
 * - balance: per margin asset accountAlias (chosen: "SgsR" + the account id in base 36, as
 *   Binance's are opaque per account), asset, balance, crossWalletBalance, crossUnPnl,
 *   availableBalance, maxWithdrawAmount, marginAvailable, updateTime.
 * - positionRisk v3 lists open positions (and those with open orders); v2 every symbol's rows.
 * - income: rows of the account, oldest first within the window (7 days back from endTime or now
 *   by default), `incomeType` filter, limit 100 by default, 1000 at most.
 * Money at the margin asset's precision, prices at the price precision or finer (futures-wire.ts),
 * quantities at the quantity precision. `updateTime` of an asset is the time of its last income
 * row (0 when none).
 */
import type { OrderView, SymbolSpec } from '../../../engine/index.ts';
import { futuresWalletAsset, fapiSymbolOf, formatUnits, spotAssetOf, type FuturesAccountView, type FuturesPositionView, type FuturesIncomeView } from '../../../engine/index.ts';
import { paramErrors, withSigned } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { accountViewOf, OPTIONAL_SYMBOL, timeUs } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { accountOf, fapiName, marginSpec, marginSpecs } from './futures-engine.ts';
import { fprice, fqty } from './futures-wire.ts';
import { fapiSchema } from './futures-order-request.ts';

const DAY_US = 24 * 60 * 60 * 1_000_000;
const INCOME_TYPES = ['TRANSFER', 'WELCOME_BONUS', 'REALIZED_PNL', 'FUNDING_FEE', 'COMMISSION', 'INSURANCE_CLEAR', 'REFERRAL_KICKBACK', 'COMMISSION_REBATE', 'API_REBATE', 'CONTEST_REWARD', 'CROSS_COLLATERAL_TRANSFER', 'OPTIONS_PREMIUM_FEE', 'OPTIONS_SETTLE_PROFIT', 'INTERNAL_TRANSFER', 'AUTO_EXCHANGE', 'DELIVERED_SETTELMENT', 'COIN_SWAP_DEPOSIT', 'COIN_SWAP_WITHDRAW', 'POSITION_LIMIT_INCREASE_FEE', 'STRATEGY_UMFUTURES_TRANSFER', 'FEE_RETURN', 'BFUSD_REWARD'] as const;

/** Money of a futures wallet asset at its precision. */
function money(call: HandlerCall, walletAsset: string, units: number): string {
  return formatUnits(units, call.ctx.assetPrecision(walletAsset));
}

const EMPTY_ASSET = (asset: string): FuturesAccountView => ({
  asset,
  walletBalance: 0,
  crossWalletBalance: 0,
  unrealizedProfit: 0,
  crossUnPnl: 0,
  marginBalance: 0,
  initialMargin: 0,
  positionInitialMargin: 0,
  openOrderInitialMargin: 0,
  maintMargin: 0,
  availableBalance: 0,
  maxWithdrawAmount: 0,
});

/** The account's view of every margin asset the exchange has (its margin symbols'), zeros when unfunded. */
function walletViews(call: HandlerCall): FuturesAccountView[] {
  const accountId = accountOf(call);
  const engine = call.ctx.backend.engine;
  return engine.futuresAssets().map((walletAsset) => engine.futuresAccount(accountId, walletAsset) ?? EMPTY_ASSET(walletAsset));
}

/** The wallet the totals are of: USDT in single-asset mode (zeros when the exchange has none). */
function usdtWallet(wallets: readonly FuturesAccountView[]): FuturesAccountView {
  return wallets.find((w) => w.asset === futuresWalletAsset('USDT')) ?? EMPTY_ASSET(futuresWalletAsset('USDT'));
}

/** Last income time of a wallet asset (the asset's updateTime), 0 when none. */
function assetUpdateTime(call: HandlerCall, income: readonly FuturesIncomeView[], walletAsset: string): number {
  let last = -1;
  for (const row of income) if (row.asset === walletAsset && row.time > last) last = row.time;
  return last < 0 ? 0 : apiTime(last, call.unit);
}

function incomeOf(call: HandlerCall): readonly FuturesIncomeView[] {
  return call.ctx.backend.engine.futuresIncome(accountOf(call));
}

function totals(call: HandlerCall, usdt: FuturesAccountView): Record<string, string> {
  const m = (units: number) => money(call, usdt.asset, units);
  return {
    totalInitialMargin: m(usdt.initialMargin),
    totalMaintMargin: m(usdt.maintMargin),
    totalWalletBalance: m(usdt.walletBalance),
    totalUnrealizedProfit: m(usdt.unrealizedProfit),
    totalMarginBalance: m(usdt.marginBalance),
    totalPositionInitialMargin: m(usdt.positionInitialMargin),
    totalOpenOrderInitialMargin: m(usdt.openOrderInitialMargin),
    totalCrossWalletBalance: m(usdt.crossWalletBalance),
    totalCrossUnPnl: m(usdt.crossUnPnl),
    availableBalance: m(usdt.availableBalance),
    maxWithdrawAmount: m(usdt.maxWithdrawAmount),
  };
}

function assetJson(call: HandlerCall, v: FuturesAccountView, income: readonly FuturesIncomeView[], v2: boolean): Record<string, unknown> {
  const m = (units: number) => money(call, v.asset, units);
  return {
    asset: spotAssetOf(v.asset) ?? v.asset,
    walletBalance: m(v.walletBalance),
    unrealizedProfit: m(v.unrealizedProfit),
    marginBalance: m(v.marginBalance),
    maintMargin: m(v.maintMargin),
    initialMargin: m(v.initialMargin),
    positionInitialMargin: m(v.positionInitialMargin),
    openOrderInitialMargin: m(v.openOrderInitialMargin),
    crossWalletBalance: m(v.crossWalletBalance),
    crossUnPnl: m(v.crossUnPnl),
    availableBalance: m(v.availableBalance),
    maxWithdrawAmount: m(v.maxWithdrawAmount),
    ...(v2 ? { marginAvailable: true } : {}),
    updateTime: assetUpdateTime(call, income, v.asset),
  };
}

/** Notional of the account's open orders on a symbol and side (the rest of each order at its price). */
function openNotional(spec: SymbolSpec, orders: readonly OrderView[], side: 'BUY' | 'SELL'): number {
  let total = 0n;
  for (const o of orders) if (o.side === side) total += (BigInt(o.origQty - o.executedQty) * BigInt(o.price)) / 10n ** BigInt(spec.basePrecision);
  return Number(total);
}

interface PositionRow {
  readonly spec: SymbolSpec;
  readonly view: FuturesPositionView;
  readonly orders: readonly OrderView[];
}

/** Every position row of the account (one per symbol in one-way mode, two in hedge mode). */
function positionRows(call: HandlerCall, specs: readonly SymbolSpec[]): PositionRow[] {
  const accountId = accountOf(call);
  const engine = call.ctx.backend.engine;
  const rows: PositionRow[] = [];
  for (const spec of specs) {
    const orders = engine.openOrders(accountId, spec.symbol);
    for (const view of engine.futuresPositions(accountId, spec.symbol)) rows.push({ spec, view, orders });
  }
  return rows;
}

const isLive = (r: PositionRow): boolean => r.view.positionAmt !== 0 || r.orders.length > 0;

export const futuresAccountV3 = defineEndpoint({
  method: 'GET',
  path: '/fapi/v3/account',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([])),
  summary: 'USDⓈ-M futures account: totals, margin assets, open positions (single-asset mode)',
  handler: (_p, call) => {
    const wallets = walletViews(call);
    const income = incomeOf(call);
    return {
      ...totals(call, usdtWallet(wallets)),
      assets: wallets.map((w) => assetJson(call, w, income, false)),
      positions: positionRows(call, marginSpecs(call))
        .filter(isLive)
        .map(({ spec, view }) => {
          const m = (units: number) => money(call, view.marginAsset, units);
          return {
            symbol: fapiName(spec),
            positionSide: view.positionSide,
            positionAmt: fqty(spec, view.positionAmt),
            unrealizedProfit: m(view.unrealizedProfit),
            isolatedMargin: m(view.isolatedMargin),
            notional: m(view.notional),
            isolatedWallet: m(view.isolatedWallet),
            initialMargin: m(view.initialMargin),
            maintMargin: m(view.maintMargin),
            updateTime: apiTime(view.updateTime, call.unit),
          };
        }),
    };
  },
});

export const futuresAccountV2 = defineEndpoint({
  method: 'GET',
  path: '/fapi/v2/account',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([])),
  summary: 'USDⓈ-M futures account (v2): flags, totals, margin assets, a row per symbol and side',
  handler: (_p, call) => {
    const wallets = walletViews(call);
    const income = incomeOf(call);
    const account = accountViewOf(call);
    return {
      feeTier: 0,
      feeBurn: false,
      canTrade: account.canTrade,
      canDeposit: true,
      canWithdraw: true,
      updateTime: 0,
      multiAssetsMargin: false,
      tradeGroupId: -1,
      ...totals(call, usdtWallet(wallets)),
      assets: wallets.map((w) => assetJson(call, w, income, true)),
      positions: positionRows(call, marginSpecs(call)).map(({ spec, view, orders }) => {
        const m = (units: number) => money(call, view.marginAsset, units);
        return {
          symbol: fapiName(spec),
          initialMargin: m(view.initialMargin),
          maintMargin: m(view.maintMargin),
          unrealizedProfit: m(view.unrealizedProfit),
          positionInitialMargin: m(view.initialMargin),
          openOrderInitialMargin: m(view.openOrderInitialMargin),
          leverage: String(view.leverage),
          isolated: view.marginType === 'ISOLATED',
          entryPrice: fprice(spec, view.entryPrice),
          breakEvenPrice: fprice(spec, view.breakEvenPrice),
          maxNotional: m(view.maxNotionalValue),
          bidNotional: m(openNotional(spec, orders, 'BUY')),
          askNotional: m(openNotional(spec, orders, 'SELL')),
          positionSide: view.positionSide,
          positionAmt: fqty(spec, view.positionAmt),
          updateTime: apiTime(view.updateTime, call.unit),
        };
      }),
    };
  },
});

function balanceRows(call: HandlerCall): Record<string, unknown>[] {
  const income = incomeOf(call);
  const alias = `SgsR${accountOf(call).toString(36)}`;
  return walletViews(call).map((v) => {
    const m = (units: number) => money(call, v.asset, units);
    return {
      accountAlias: alias,
      asset: spotAssetOf(v.asset) ?? v.asset,
      balance: m(v.walletBalance),
      crossWalletBalance: m(v.crossWalletBalance),
      crossUnPnl: m(v.crossUnPnl),
      availableBalance: m(v.availableBalance),
      maxWithdrawAmount: m(v.maxWithdrawAmount),
      marginAvailable: true,
      updateTime: assetUpdateTime(call, income, v.asset),
    };
  });
}

export const futuresBalanceV2 = defineEndpoint({
  method: 'GET',
  path: '/fapi/v2/balance',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([])),
  summary: 'USDⓈ-M futures balances per margin asset',
  handler: (_p, call) => balanceRows(call),
});

export const futuresBalanceV3 = defineEndpoint({
  method: 'GET',
  path: '/fapi/v3/balance',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([])),
  summary: 'USDⓈ-M futures balances per margin asset (v3)',
  handler: (_p, call) => balanceRows(call),
});

function positionSpecs(call: HandlerCall, symbol: string | undefined): SymbolSpec[] {
  return symbol === undefined ? marginSpecs(call) : [marginSpec(call, symbol)];
}

export const futuresPositionRiskV3 = defineEndpoint({
  method: 'GET',
  path: '/fapi/v3/positionRisk',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'USDⓈ-M positions with a position or open orders: entry, mark, uPnL, liquidation price, margins',
  handler: (p, call) =>
    positionRows(call, positionSpecs(call, p.symbol))
      .filter(isLive)
      .map(({ spec, view, orders }) => {
        const m = (units: number) => money(call, view.marginAsset, units);
        return {
          symbol: fapiName(spec),
          positionSide: view.positionSide,
          positionAmt: fqty(spec, view.positionAmt),
          entryPrice: fprice(spec, view.entryPrice),
          breakEvenPrice: fprice(spec, view.breakEvenPrice),
          markPrice: fprice(spec, view.markPrice),
          unRealizedProfit: m(view.unrealizedProfit),
          liquidationPrice: fprice(spec, view.liquidationPrice),
          isolatedMargin: m(view.isolatedMargin),
          notional: m(view.notional),
          marginAsset: spotAssetOf(view.marginAsset) ?? view.marginAsset,
          isolatedWallet: m(view.isolatedWallet),
          initialMargin: m(view.initialMargin + view.openOrderInitialMargin),
          maintMargin: m(view.maintMargin),
          positionInitialMargin: m(view.initialMargin),
          openOrderInitialMargin: m(view.openOrderInitialMargin),
          adl: 0,
          bidNotional: m(openNotional(spec, orders, 'BUY')),
          askNotional: m(openNotional(spec, orders, 'SELL')),
          updateTime: apiTime(view.updateTime, call.unit),
        };
      }),
});

export const futuresPositionRiskV2 = defineEndpoint({
  method: 'GET',
  path: '/fapi/v2/positionRisk',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'USDⓈ-M positions of every symbol (v2: leverage, margin type, max notional)',
  handler: (p, call) =>
    positionRows(call, positionSpecs(call, p.symbol)).map(({ spec, view }) => {
      const m = (units: number) => money(call, view.marginAsset, units);
      return {
        entryPrice: fprice(spec, view.entryPrice),
        breakEvenPrice: fprice(spec, view.breakEvenPrice),
        marginType: view.marginType === 'ISOLATED' ? 'isolated' : 'cross',
        isAutoAddMargin: 'false',
        isolatedMargin: m(view.isolatedMargin),
        leverage: String(view.leverage),
        liquidationPrice: fprice(spec, view.liquidationPrice),
        markPrice: fprice(spec, view.markPrice),
        maxNotionalValue: m(view.maxNotionalValue),
        positionAmt: fqty(spec, view.positionAmt),
        notional: m(view.notional),
        isolatedWallet: m(view.isolatedWallet),
        symbol: fapiName(spec),
        unRealizedProfit: m(view.unrealizedProfit),
        positionSide: view.positionSide,
        updateTime: apiTime(view.updateTime, call.unit),
      };
    }),
});

/**
 * GET /fapi/v1/income. `page` was removed on 2026-10-16 ("use startTime and endTime", spec change
 * log): it is no longer read, so sending it is -1104 like any parameter the row does not take.
 */
export const futuresIncome = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/income',
  security: 'USER_DATA',
  weight: 30,
  schema: fapiSchema(
    withSigned([
      OPTIONAL_SYMBOL,
      { name: 'incomeType', kind: 'ENUM', values: INCOME_TYPES },
      { name: 'startTime', kind: 'LONG' },
      { name: 'endTime', kind: 'LONG' },
      { name: 'limit', kind: 'INT' },
    ]),
  ),
  summary: 'USDⓈ-M income history: TRANSFER, REALIZED_PNL, COMMISSION, FUNDING_FEE, INSURANCE_CLEAR (7 days by default)',
  handler: (p, call) => {
    const limit = p.limit === undefined ? 100 : p.limit;
    if (limit < 1 || limit > 1000) throw paramErrors.invalidData('limit');
    const symbol = p.symbol === undefined ? undefined : marginSpec(call, p.symbol).symbol;
    // No times: the last 7 days to now; one given: 7 days from it or up to it (the docs' window).
    const to = p.endTime !== undefined ? timeUs(p.endTime) : p.startTime !== undefined ? timeUs(p.startTime) + 7 * DAY_US : call.nowUs;
    const from = p.startTime !== undefined ? timeUs(p.startTime) : to - 7 * DAY_US;
    const rows = incomeOf(call).filter(
      (r) => (p.incomeType === undefined || r.incomeType === p.incomeType) && (symbol === undefined || r.symbol === symbol) && r.time >= from && r.time <= to,
    );
    return rows.slice(0, limit).map((r) => ({
      symbol: fapiSymbolOf(r.symbol) ?? r.symbol,
      incomeType: r.incomeType,
      income: money(call, r.asset, r.income),
      asset: spotAssetOf(r.asset) ?? r.asset,
      info: r.info,
      time: apiTime(r.time, call.unit),
      tranId: r.tranId,
      tradeId: r.tradeId === -1 ? '' : String(r.tradeId),
    }));
  },
});
