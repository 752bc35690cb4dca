/**
 * A perpetual with a 4 h funding interval in a backtest (`--futures BTCUSDT:4h`): a short held
 * over the sample day (2024-01-01, BTCUSDT) pays or receives funding at 04, 08, 12, 16 and 20 UTC,
 * each at the rate of its 4 h interval (interest 0.01 % × 4 / 8 = 0.005 %) times the mark then; and
 * a bad interval is refused before the run.
 */
import { expect, test } from 'vitest';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { futuresEntryTexts, parseFuturesEntries } from '../../src/backtest/futures-setup.ts';
import { parseBacktestRequest } from '../../src/backtest/backtest-request.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';

const FROM = Date.UTC(2024, 0, 1) * 1000;
const DAY = 86_400_000_000;
const H = 3_600_000;
const T = Date.UTC(2024, 0, 1);

interface Row {
  [key: string]: string | number;
}

test('a short on a 4 h perpetual is funded at 04, 08, 12, 16 and 20 UTC; fundingInfo and premiumIndex say 4 h', async () => {
  const seen: { income: Row[]; rates: Row[]; info: Row[]; premium: Row } = { income: [], rates: [], info: [], premium: {} };
  const result = await runBacktest({
    data: 'sample',
    from: FROM,
    to: FROM + DAY,
    futures: ['BTCUSDT:4h'],
    strategy: {
      name: 'hold-short-4h',
      path: 'inline',
      params: {},
      balances: undefined,
      fees: undefined,
      bnbDiscount: undefined,
      description: 'hold-short-4h',
      futures: undefined,
      run: async (ctx: StrategyContext) => {
        await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '2000' });
        await ctx.client.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 5 });
        await ctx.clock.sleep(60_000);
        await ctx.client.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
        await ctx.clock.sleep(DAY / 1000 - 120_000);
        seen.income = await ctx.client.get<Row[]>('/fapi/v1/income', { incomeType: 'FUNDING_FEE', startTime: FROM / 1000, limit: 100 });
        seen.rates = await ctx.client.get<Row[]>('/fapi/v1/fundingRate', { symbol: 'BTCUSDT', startTime: FROM / 1000 });
        seen.info = await ctx.client.get<Row[]>('/fapi/v1/fundingInfo');
        seen.premium = await ctx.client.get<Row>('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' });
      },
    },
  });
  // Each 4 h rate is the interest 0.00005 (the model's premium stays inside the ±0.05 % clamp),
  // half the 8 h run's 0.0001: at 08:00, at the same mark 42313.05775668 as there
  // (futures-backtest.test.ts), the short receives 0.1 × 42313.05775668 × 0.00005 =
  // 0.211565288783…, rounded down to 0.21156528 (the 8 h run's 0.42313057 halved, less a unit).
  expect(seen.income.map((r) => [r['time'], r['income']])).toEqual([
    [T + 4 * H, '0.21220505'],
    [T + 8 * H, '0.21156528'],
    [T + 12 * H, '0.21621829'],
    [T + 16 * H, '0.21920519'],
    [T + 20 * H, '0.22072406'],
  ]);
  // The history rows: the same times, each 4 h rate, the mark of the funding instant (04:00:
  // 0.1 × 42441.01171440 × 0.00005 = 0.21220505857…, the first income above).
  expect(seen.rates.map((r) => [r['fundingTime'], r['fundingRate'], r['markPrice']])).toEqual([
    [T + 4 * H, '0.00005000', '42441.01171440'],
    [T + 8 * H, '0.00005000', '42313.05775668'],
    [T + 12 * H, '0.00005000', '43243.65921869'],
    [T + 16 * H, '0.00005000', '43841.03969264'],
    [T + 20 * H, '0.00005000', '44144.81232469'],
  ]);
  expect(seen.info).toEqual([{ symbol: 'BTCUSDT', adjustedFundingRateCap: '0.02500000', adjustedFundingRateFloor: '-0.02500000', fundingIntervalHours: 4, disclaimer: false }]);
  expect(seen.premium).toMatchObject({ interestRate: '0.00005000', nextFundingTime: T + 24 * H });
  expect(result.futures).toMatchObject({ funding: "the futures model's rate every 4 h" });
  expect(result.futures!.symbols[0]).toMatchObject({ fundings: 5 });
});

test('--futures takes :1h, :4h or :8h after a name; anything else is refused with a plain message', () => {
  expect(parseFuturesEntries('btcusdt:4h, ETHUSDT')).toEqual([{ symbol: 'BTCUSDT', intervalHours: 4 }, { symbol: 'ETHUSDT' }]);
  expect(futuresEntryTexts(['BTCUSDT:1H', 'BTCUSDT:1h'])).toEqual(['BTCUSDT:1h']);
  expect(() => parseFuturesEntries('BTCUSDT:2h')).toThrow('--futures BTCUSDT:2H: the funding interval is 1h, 4h, 8h (Binance\'s), not 2h');
  expect(() => parseFuturesEntries('BTCUSDT:4')).toThrow('--futures: "BTCUSDT:4" is not a symbol (e.g. BTCUSDT, or BTCUSDT:4h for a 4-hour funding interval)');
  expect(() => parseFuturesEntries('BTCUSDT:4h,BTCUSDT:8h')).toThrow('--futures names BTCUSDT twice with different funding intervals');
  // `exsim backtest --futures btcusdt:4h` keeps the interval on the request (and a queued job's).
  expect(parseBacktestRequest('short', { data: 'sample', fillModel: 'queue', latency: 'none', seed: '1', futures: 'btcusdt:4h' }).futures).toEqual(['BTCUSDT:4h']);
  expect(() => parseBacktestRequest('short', { data: 'sample', fillModel: 'queue', latency: 'none', seed: '1', futures: 'BTCUSDT:3h' })).toThrow('not 3h');
});
