/**
 * The quant metrics against values worked out by hand on small fixed inputs.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { maxDrawdown, riskRatios } from '../../../src/backtest/metrics.ts';
import { roundTrips, type TripFill } from '../../../src/backtest/round-trips.ts';

const MINUTE = 60_000_000;
const d = (x: number | string) => new Decimal(x);

describe('risk ratios', () => {
  test('Sharpe and Sortino annualised by √525,600 from minute returns; Calmar on the simple annualised return', () => {
    // returns 1%, -2%, 3%: mean 0.0066667, sample sd 0.0251661 (n - 1), downside deviation
    // √(0.02² / 3) = 0.0115470; √525600 = 724.9828.
    // Sharpe 0.264906 × 724.9828 = 192.0526; Sortino 0.577350 × 724.9828 = 418.569.
    // A 2% return over 3 minutes: × (525600 / 3) = 3504 a year (simple); Calmar 3504 / 0.02 = 175200.
    const r = riskRatios([0.01, -0.02, 0.03], MINUTE, 0.02, 3 * MINUTE, 0.02);
    expect(r).toEqual({ sampleSeconds: 60, periodsPerYear: 525_600, samples: 3, sharpeAnnualised: 192.0526, sortinoAnnualised: 418.569, annualisedReturn: 3504, calmar: 175_200 });
  });

  test('no variation, no losses, no drawdown: the ratios are null, not infinite', () => {
    expect(riskRatios([0.01, 0.01], MINUTE, 0.02, 2 * MINUTE, 0)).toMatchObject({ sharpeAnnualised: null, sortinoAnnualised: null, calmar: null });
    expect(riskRatios([], MINUTE, null, 0, null)).toMatchObject({ samples: 0, sharpeAnnualised: null, annualisedReturn: null });
  });
});

describe('max drawdown', () => {
  test('amount, fraction, peak to recovery, the longest time under water', () => {
    // 100, 110 (peak), 99 (trough: -11, 10% of 110), 105, 111 (recovered 3 minutes after the peak), 104.
    const equity = [100, 110, 99, 105, 111, 104].map((e, i) => ({ time: i * MINUTE, equity: d(e) }));
    expect(maxDrawdown(equity, (x) => x.toFixed(2))).toEqual({
      amount: '11.00',
      fraction: 0.1,
      peakTime: MINUTE,
      troughTime: 2 * MINUTE,
      durationSeconds: 180,
      recovered: true,
      longestUnderwaterSeconds: 120, // 110 at 1 min, still under it at 3 min; 104 after 111 is 1 min
    });
    const falling = [100, 90, 95].map((e, i) => ({ time: i * MINUTE, equity: d(e) }));
    expect(maxDrawdown(falling, (x) => x.toFixed(2))).toMatchObject({ amount: '10.00', fraction: 0.1, durationSeconds: 120, recovered: false, longestUnderwaterSeconds: 120 });
  });
});

describe('round trips', () => {
  const fill = (time: number, side: 'buy' | 'sell', qty: string, price: string, fee: { base?: string; quote?: string } = {}): TripFill => {
    const q = d(qty);
    const notional = q.mul(price);
    return {
      time,
      price: d(price),
      qty: q,
      isBuyer: side === 'buy',
      baseDelta: (side === 'buy' ? q : q.neg()).sub(fee.base ?? 0),
      quoteDelta: (side === 'buy' ? notional.neg() : notional).sub(fee.quote ?? 0),
      otherFees: d(0),
      fee: d(fee.base ?? 0).mul(price).add(fee.quote ?? 0),
      orderId: time,
      clientOrderId: `c${time}`,
    };
  };

  test('long, short from inventory, a flip, and base and quote commissions', () => {
    const { trips, openSince } = roundTrips(
      [
        // Long: buy 1 at 100 paying 0.001 BTC (holds 0.999), sell 0.999 at 110 paying 0.10989 USDT:
        // -100 + 109.89 - 0.10989 = 9.78011.
        fill(1, 'buy', '1', '100', { base: '0.001' }),
        fill(2, 'sell', '0.999', '110', { quote: '0.10989' }),
        // Short: sell 0.5 at 100 paying 0.05 USDT, then buy 1 at 90 (flips to +0.5):
        // 50 - 0.05 - 90 + 0.5 × 90 = 4.95; the next trip holds 0.5 bought at 90.
        fill(3, 'sell', '0.5', '100', { quote: '0.05' }),
        fill(4, 'buy', '1', '90'),
        // Long from the flip: sold at 80: (80 - 90) × 0.5 = -5.
        fill(5, 'sell', '0.5', '80'),
        // Dust under the minimum quantity opens nothing; a new long stays open at the end.
        fill(6, 'buy', '0.000001', '80'),
        fill(7, 'buy', '0.2', '80'),
      ],
      d('0.00001'),
    );
    expect(trips.map((t) => [t.side, t.open, t.close, t.pnl.toString()])).toEqual([
      ['long', 1, 2, '9.78011'],
      ['short', 3, 4, '4.95'],
      ['long', 4, 5, '-5'],
    ]);
    // What trades.csv shows of them: the opening side's quantity, the volume-weighted prices (the
    // flip's exit is the 0.5 that closed the short; the other 0.5 opens the next trip at 90),
    // the commissions in the quote (0.001 BTC at 100 = 0.1, plus 0.10989), the orders.
    expect(trips.map((t) => [t.quantity.toString(), t.entryPrice.toString(), t.exitPrice.toString(), t.fees.toString(), t.entryOrder.clientOrderId, t.exitOrder.clientOrderId])).toEqual([
      ['1', '100', '110', '0.20989', 'c1', 'c2'],
      ['0.5', '100', '90', '0.05', 'c3', 'c4'],
      ['0.5', '90', '80', '0', 'c4', 'c5'],
    ]);
    expect(openSince).toBe(7);
  });
});
