import { describe, expect, it } from 'vitest';
import type { CommissionRates } from '../../../../src/engine/commands.ts';
import { Sim, lotSize, qty, symbolConfig, u } from '../helpers.ts';

const rates = (r: Partial<CommissionRates>): CommissionRates => ({ maker: 0, taker: 0, buyer: 0, seller: 0, ...r });

describe('commission', () => {
  it('maker and taker pay their own rate on what they receive: base for the buyer, quote for the seller', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '10' }, { standardCommission: rates({ maker: 100_000, taker: 200_000 }) }); // 0.1% / 0.2%
    sim.createAccount(2, { USDT: '1000' }, { standardCommission: rates({ maker: 100_000, taker: 200_000 }) });
    sim.sell(1, '2', '100'); // maker
    const r = sim.buy(2, '2', '100'); // taker
    expect(r.trades[0]).toMatchObject({
      takerCommission: qty('0.004'),
      takerCommissionAsset: 'BTC',
      makerCommission: u('0.2'),
      makerCommissionAsset: 'USDT',
    });
    expect(sim.balance(2, 'BTC')).toEqual({ free: qty('1.996'), locked: 0 });
    expect(sim.balance(2, 'USDT')).toEqual({ free: u('800'), locked: 0 });
    expect(sim.balance(1, 'USDT')).toEqual({ free: u('199.8'), locked: 0 });
    expect(sim.balance(1, 'BTC')).toEqual({ free: qty('8'), locked: 0 });
    expect(sim.engine.feesCollected()).toEqual({ BTC: qty('0.004'), USDT: u('0.2') });
  });

  it('a SELL taker and a BUY maker swap the rates accordingly', () => {
    const sim = new Sim();
    sim.createAccount(1, { USDT: '1000' }, { standardCommission: rates({ maker: 100_000, taker: 200_000 }) });
    sim.createAccount(2, { BTC: '10' }, { standardCommission: rates({ maker: 100_000, taker: 200_000 }) });
    sim.buy(1, '1', '100'); // maker buyer: 0.1% of 1 BTC
    const r = sim.sell(2, '1', '100'); // taker seller: 0.2% of 100 USDT
    expect(r.trades[0]).toMatchObject({ makerCommission: qty('0.001'), makerCommissionAsset: 'BTC', takerCommission: u('0.2'), takerCommissionAsset: 'USDT' });
  });

  it('buyer and seller rates are added to the maker/taker rate', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '10' }, { standardCommission: rates({ maker: 100_000, seller: 50_000 }) });
    sim.createAccount(2, { USDT: '1000' }, { standardCommission: rates({ taker: 200_000, buyer: 30_000 }) });
    sim.sell(1, '1', '100');
    const r = sim.buy(2, '1', '100');
    // Buyer taker: (0.002 + 0.0003) * 1 BTC; seller maker: (0.001 + 0.0005) * 100 USDT.
    expect(r.trades[0]).toMatchObject({ takerCommission: qty('0.0023'), makerCommission: u('0.15') });
  });

  it('tax and special commissions are added to the standard one', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '10' });
    sim.createAccount(2, { USDT: '1000' }, {
      standardCommission: rates({ taker: 100_000 }),
      taxCommission: rates({ taker: 20_000, buyer: 5_000 }),
      specialCommission: rates({ taker: 1_000_000 }),
    });
    sim.sell(1, '1', '100');
    const r = sim.buy(2, '1', '100');
    // 0.001 + 0.00025 + 0.01 = 0.01125 of 1 BTC.
    expect(r.trades[0]?.takerCommission).toBe(qty('0.01125'));
    expect(sim.balance(2, 'BTC').free).toBe(qty('0.98875'));
  });

  it('is rounded up to the smallest unit of the asset', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '10' });
    sim.createAccount(2, { USDT: '1000' }, { standardCommission: rates({ taker: 1_234 }) }); // 0.00001234
    sim.sell(1, '0.001', '100');
    const r = sim.buy(2, '0.001', '100');
    // 100000 units * 0.00001234 = 1.234 units -> 2.
    expect(r.trades[0]?.takerCommission).toBe(2);
    expect(sim.balance(2, 'BTC').free).toBe(100_000 - 2);
  });

  it('zero rates charge nothing', () => {
    const sim = new Sim();
    sim.createAccount(1, { BTC: '10' });
    sim.createAccount(2, { USDT: '1000' });
    sim.sell(1, '1', '100');
    const r = sim.buy(2, '1', '100');
    expect(r.trades[0]).toMatchObject({ takerCommission: 0, makerCommission: 0 });
    expect(sim.engine.feesCollected()).toEqual({ BTC: 0, USDT: 0 });
  });

  it('doc worked example: SELL 0.49975 @35000 as taker with taker 0.0000002 + seller 0.0000004 pays 0.01049475 USDT', () => {
    const sim = new Sim(symbolConfig({}, [lotSize('0.00001', '9000', '0.00001')]));
    sim.createAccount(1, { USDT: '20000' });
    sim.createAccount(2, { BTC: '1' }, { standardCommission: rates({ maker: 10, taker: 20, buyer: 30, seller: 40 }) });
    sim.buy(1, '0.49975', '35000');
    const r = sim.marketSell(2, '0.49975');
    expect(r.trades[0]).toMatchObject({ quoteQuantity: u('17491.25'), takerCommission: u('0.01049475'), takerCommissionAsset: 'USDT' });
    expect(sim.balance(2, 'USDT').free).toBe(u('17491.25') - u('0.01049475'));
    expect(sim.engine.accountTrades(2, 'BTCUSDT')[0]).toMatchObject({ commission: u('0.01049475'), commissionAsset: 'USDT', isBuyer: false, isMaker: false });
  });

  it('the fees collected per asset equal the sum of all commissions charged', () => {
    const sim = new Sim();
    const fee = { standardCommission: rates({ maker: 75_000, taker: 100_000 }), taxCommission: rates({ buyer: 1_111 }) };
    sim.createAccount(1, { USDT: '10000', BTC: '10' }, fee);
    sim.createAccount(2, { USDT: '10000', BTC: '10' }, fee);
    sim.createAccount(3, { USDT: '10000', BTC: '10' }, fee);
    sim.sell(1, '1.234', '100.01');
    sim.sell(2, '0.777', '100.37');
    sim.buy(3, '0.5', '99.99');
    sim.buy(3, '1.5', '100.5');
    sim.marketSell(1, '0.333');
    sim.marketBuy(2, '0.3');
    const sums: Record<string, number> = { BTC: 0, USDT: 0 };
    for (const id of [1, 2, 3]) for (const t of sim.engine.accountTrades(id, 'BTCUSDT')) sums[t.commissionAsset] = (sums[t.commissionAsset] ?? 0) + t.commission;
    expect(sums.BTC).toBeGreaterThan(0);
    expect(sums.USDT).toBeGreaterThan(0);
    expect(sim.engine.feesCollected()).toEqual(sums);
    sim.engine.checkInvariants();
  });
});

describe('commission in the discount asset (BNB)', () => {
  /** BTCUSDT (discount enabled unless told otherwise) and BNBUSDT, with a BNBUSDT trade at `bnbPrice`. */
  function bnbSim(options: { bnb: string; discountEnabledForSymbol?: boolean; accountDiscount?: boolean; bnbPrice?: string | null } = { bnb: '10' }): Sim {
    const sim = new Sim({
      symbols: [
        symbolConfig({ discountEnabled: options.discountEnabledForSymbol ?? true }, [lotSize('0.00001', '9000', '0.00001')]),
        symbolConfig({ symbol: 'BNBUSDT', baseAsset: 'BNB' }),
      ],
    });
    sim.createAccount(1, { USDT: '100000', BNB: '100' });
    sim.createAccount(9, { BNB: '100', USDT: '100000' });
    const faq = { maker: 10, taker: 20, buyer: 30, seller: 40 };
    sim.createAccount(2, { BTC: '1', BNB: options.bnb }, {
      standardCommission: faq,
      taxCommission: { maker: 112, taker: 114, buyer: 118, seller: 116 },
      specialCommission: { maker: 1_000_000, taker: 2_000_000, buyer: 3_000_000, seller: 4_000_000 },
      discount: { enabled: options.accountDiscount ?? true, asset: 'BNB', rate: 25_000_000 },
    });
    if (options.bnbPrice !== null) {
      sim.sell(9, '1', options.bnbPrice ?? '260', { symbol: 'BNBUSDT' });
      sim.buy(1, '1', options.bnbPrice ?? '260', { symbol: 'BNBUSDT' });
    }
    sim.buy(1, '0.49975', '35000');
    return sim;
  }

  it('doc worked example: standard part x discount plus tax and special, converted at BNBUSDT 260, paid in BNB', () => {
    const sim = bnbSim({ bnb: '10' });
    const r = sim.marketSell(2, '0.49975');
    // 0.000010091 + 0.00015473 + 4.036442308 = 4.036607129 BNB, rounded up at 8 decimals.
    expect(r.trades[0]).toMatchObject({ takerCommission: u('4.03660713'), takerCommissionAsset: 'BNB' });
    expect(sim.balance(2, 'USDT').free).toBe(u('17491.25'));
    expect(sim.balance(2, 'BNB').free).toBe(u('10') - u('4.03660713'));
    expect(sim.engine.feesCollected()).toMatchObject({ BNB: u('4.03660713'), USDT: 0 });
    sim.engine.checkInvariants();
  });

  it('without enough BNB the full commission is taken from the received asset', () => {
    const sim = bnbSim({ bnb: '4.03660712' });
    const r = sim.marketSell(2, '0.49975');
    // standard 0.01049475 + tax 0.040229875 + special 1049.475 = 1049.525724625 -> 1049.52572463 USDT.
    expect(r.trades[0]).toMatchObject({ takerCommission: u('1049.52572463'), takerCommissionAsset: 'USDT' });
    expect(sim.balance(2, 'BNB').free).toBe(u('4.03660712'));
    expect(sim.balance(2, 'USDT').free).toBe(u('17491.25') - u('1049.52572463'));
  });

  it('with exactly enough BNB it pays in BNB', () => {
    const sim = bnbSim({ bnb: '4.03660713' });
    sim.marketSell(2, '0.49975');
    expect(sim.balance(2, 'BNB').free).toBe(0);
  });

  it('without a BNBUSDT last price it pays in the received asset', () => {
    const sim = bnbSim({ bnb: '10', bnbPrice: null });
    const r = sim.marketSell(2, '0.49975');
    expect(r.trades[0]?.takerCommissionAsset).toBe('USDT');
  });

  it('when the symbol does not enable the discount it pays in the received asset', () => {
    const sim = bnbSim({ bnb: '10', discountEnabledForSymbol: false });
    expect(sim.marketSell(2, '0.49975').trades[0]?.takerCommissionAsset).toBe('USDT');
  });

  it('when the account does not enable the discount it pays in the received asset', () => {
    const sim = bnbSim({ bnb: '10', accountDiscount: false });
    expect(sim.marketSell(2, '0.49975').trades[0]?.takerCommissionAsset).toBe('USDT');
  });

  it('the conversion uses the latest BNBUSDT price', () => {
    const sim = bnbSim({ bnb: '10', bnbPrice: '520' });
    const r = sim.marketSell(2, '0.49975');
    // Half the BNB of the 260 case: 2.0183035645... -> 2.01830357.
    expect(r.trades[0]).toMatchObject({ takerCommission: u('2.01830357'), takerCommissionAsset: 'BNB' });
  });
});
