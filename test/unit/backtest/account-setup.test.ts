import { describe, expect, test } from 'vitest';
import { accountCommand, parseBalances, parseFees, resolveAccount } from '../../../src/backtest/account-setup.ts';
import { InputError } from '../../../src/backtest/input-error.ts';

const btcUsdt = (asset: string) => asset === 'BTC' || asset === 'USDT';

describe('account setup', () => {
  test('--balances and --fees parse; tier names are case-insensitive', () => {
    expect(parseBalances('BTC=0,USDT=10000')).toEqual({ BTC: '0', USDT: '10000' });
    expect(parseFees('maker=0.0002,taker=0.0004')).toEqual({ tier: null, maker: '0.0002', taker: '0.0004' });
    expect(parseFees('vip3')).toEqual({ tier: 'VIP3', maker: '0.00042', taker: '0.0006' });
    expect(parseFees('VIP 9')).toEqual({ tier: 'VIP9', maker: '0.00012', taker: '0.00024' });
  });

  test.each([
    ['BTC', '--balances must be ASSET=amount'],
    ['BTC=1,BTC=2', 'names BTC twice'],
    ['btc=1', '--balances must be ASSET=amount'],
  ])('bad --balances %s: one-line input error', (text, message) => {
    expect(() => parseBalances(text)).toThrow(InputError);
    expect(() => parseBalances(text)).toThrow(message);
  });

  test.each([
    ['VIP10', 'a tier (VIP0'],
    ['maker=0.001', 'needs both maker= and taker='],
    ['maker=0.001,taker=-0.001', 'taker must be a fraction 0..0.1'],
    ['maker=0.5,taker=0.001', 'maker must be a fraction 0..0.1'],
    ['maker=0.000000001,taker=0.001', 'at most 8 decimals'],
    ['maker=0.001,rebate=0.001', 'unknown rate'],
  ])('bad --fees %s: one-line input error', (text, message) => {
    expect(() => parseFees(text)).toThrow(InputError);
    expect(() => parseFees(text)).toThrow(message);
  });

  test('defaults: VIP0 0.1%, the default balances the run can value; ETH is not funded on BTCUSDT alone', () => {
    const setup = resolveAccount({}, {}, btcUsdt, 'trend');
    expect(setup.balances).toEqual({ BTC: '1', USDT: '100000' });
    expect(setup.balancesSource).toBe('default');
    expect(setup.unfunded).toEqual(['ETH']);
    expect(setup.fees).toEqual({ tier: 'VIP0', maker: '0.001', taker: '0.001', bnbDiscount: false, effectiveMaker: '0.00100000', effectiveTaker: '0.00100000', source: 'default' });
  });

  test('the command line wins over the module, part by part; the BNB discount takes 25% off, rounded up', () => {
    const module = { balances: { USDT: '500' }, fees: 'VIP9', bnbDiscount: false };
    const setup = resolveAccount({ fees: 'maker=0.00001001,taker=0.0004', bnbDiscount: true }, module, btcUsdt, 'mine');
    expect(setup.balances).toEqual({ USDT: '500' });
    expect(setup.balancesSource).toBe('strategy module');
    // 1001e-8 × 0.75 = 750.75e-8: charged 751e-8 (never under-stated); 0.0004 × 0.75 = 0.0003 exactly.
    expect(setup.fees).toMatchObject({ tier: null, bnbDiscount: true, effectiveMaker: '0.00000751', effectiveTaker: '0.00030000', source: 'command line' });
    const fromModule = resolveAccount({}, { fees: { maker: '0.0002', taker: '0.0004' }, bnbDiscount: true }, btcUsdt, 'mine');
    expect(fromModule.fees).toMatchObject({ maker: '0.0002', effectiveMaker: '0.00015000', effectiveTaker: '0.00030000', source: 'strategy module' });
    expect(accountCommand(fromModule, 1, () => 8)).toEqual({
      type: 'CreateAccount',
      accountId: 1,
      balances: { BTC: 100_000_000, USDT: 10_000_000_000_000 },
      standardCommission: { maker: 15_000, taker: 30_000, buyer: 0, seller: 0 },
    });
  });

  test('an asked-for balance the run cannot value, or a module export of the wrong type, is an input error', () => {
    expect(() => resolveAccount({ balances: { ETH: '1' } }, {}, btcUsdt, 'x')).toThrow('--balances: ETH cannot be valued on this run');
    expect(() => resolveAccount({}, { balances: { ETH: '1' } }, btcUsdt, 'x')).toThrow('strategy x: balances: ETH cannot be valued');
    expect(() => resolveAccount({}, { fees: 3 as unknown as string }, btcUsdt, 'x')).toThrow('strategy x: fees must be a tier name');
    expect(() => resolveAccount({}, { bnbDiscount: 'yes' as unknown as boolean }, btcUsdt, 'x')).toThrow('bnbDiscount must be true or false');
    expect(() => accountCommand(resolveAccount({ balances: { BTC: '0.123456789' } }, {}, btcUsdt, 'x'), 1, () => 8)).toThrow('at most 8 places');
  });
});
