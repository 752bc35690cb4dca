/**
 * Values an account in one asset (the quote asset of the backtest's first symbol, e.g. USDT)
 * at the last replayed prices, exactly (decimal.js). An asset is valued through a symbol that
 * pairs it with the valuation asset, or through one intermediate asset (ETH via ETHBTC and
 * BTCUSDT). Assets no replayed symbol reaches (BNB on the sample market, or ETH when only BTCUSDT
 * is replayed) are left out of equity; summary.json's start and end balances still show them.
 */
import { Decimal } from 'decimal.js';
import { isFuturesAsset, spotAssetOf, type BalanceView, type Engine } from '../engine/index.ts';

interface Pair {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  readonly quoteScale: Decimal;
}

export class Valuation {
  readonly asset: string;
  readonly #pairs: Pair[] = [];
  readonly #last = new Map<string, number>();
  readonly #precision = new Map<string, number>();
  readonly #scales = new Map<string, Decimal>();

  /** `symbols`: the replayed ones (a symbol that never prints could never value anything). */
  constructor(engine: Engine, symbols: readonly string[], asset?: string) {
    for (const symbol of symbols) {
      const spec = engine.symbolSpec(symbol)!;
      this.#pairs.push({ symbol, base: spec.baseAsset, quote: spec.quoteAsset, quoteScale: new Decimal(10).pow(spec.quotePrecision) });
      this.#precision.set(spec.baseAsset, spec.basePrecision);
      this.#precision.set(spec.quoteAsset, spec.quotePrecision);
    }
    this.asset = asset ?? this.#pairs[0]?.quote ?? 'USDT';
  }

  /** The last price of a symbol, in price units. */
  observe(symbol: string, price: number): void {
    this.#last.set(symbol, price);
  }

  lastPrice(symbol: string): number | undefined {
    return this.#last.get(symbol);
  }

  /** Decimal places of an asset (8 unless a symbol says otherwise). */
  precision(asset: string): number {
    return this.#precision.get(asset) ?? 8;
  }

  /** Value of one whole unit of `asset` in the valuation asset; null when no price is known yet; undefined when no symbol chain reaches it. */
  rate(asset: string): Decimal | null | undefined {
    if (asset === this.asset) return new Decimal(1);
    // A futures wallet asset is worth its spot asset (um:USDT is USDT margin).
    if (isFuturesAsset(asset)) return this.rate(spotAssetOf(asset)!);
    const direct = this.#direct(asset, this.asset);
    if (direct !== undefined) return direct;
    for (const pair of this.#pairs) {
      const via = pair.base === asset ? pair.quote : pair.quote === asset ? pair.base : null;
      if (via === null || via === this.asset) continue;
      const first = this.#direct(asset, via);
      const second = this.#direct(via, this.asset);
      if (first === undefined || second === undefined) continue;
      if (first === null || second === null) return null;
      return first.mul(second);
    }
    return undefined;
  }

  /** Whether `asset` can be valued at all (a symbol chain reaches it). */
  reaches(asset: string): boolean {
    return this.rate(asset) !== undefined;
  }

  /** Σ (free + locked) × rate over the valued assets; null while a held asset has no price yet. */
  equity(balances: readonly BalanceView[]): Decimal | null {
    let total = new Decimal(0);
    for (const b of balances) {
      const units = b.free + b.locked;
      if (units === 0) continue;
      const rate = this.rate(b.asset);
      if (rate === undefined) continue;
      if (rate === null) return null;
      total = total.add(new Decimal(units).div(this.#scale(b.asset)).mul(rate));
    }
    return total;
  }

  /**
   * An account's equity: its spot balances plus each USDⓈ-M futures wallet's margin balance (cross
   * wallet, isolated wallets and unrealized PnL at the mark), a futures asset valued as its spot
   * asset (`um:USDT` as USDT). Null while a held asset has no price yet.
   */
  accountEquity(engine: Engine, accountId: number): Decimal | null {
    const balances = engine.account(accountId)?.balances ?? [];
    const spot = this.equity(balances.some((b) => isFuturesAsset(b.asset)) ? balances.filter((b) => !isFuturesAsset(b.asset)) : balances);
    if (spot === null) return null;
    let total = spot;
    for (const wallet of engine.futuresBalances(accountId)) {
      if (wallet.marginBalance === 0) continue;
      const rate = this.rate(spotAssetOf(wallet.asset)!);
      if (rate === undefined) continue;
      if (rate === null) return null;
      total = total.add(new Decimal(wallet.marginBalance).div(this.#scale(wallet.asset)).mul(rate));
    }
    return total;
  }

  /** 10^precision of an asset, made once (Decimals are immutable; equity is sampled every simulated minute). */
  #scale(asset: string): Decimal {
    let scale = this.#scales.get(asset);
    if (scale === undefined) {
      scale = new Decimal(10).pow(this.precision(asset));
      this.#scales.set(asset, scale);
    }
    return scale;
  }

  /** Rate through a symbol pairing exactly these two assets: undefined if none, null if it has no price. */
  #direct(from: string, to: string): Decimal | null | undefined {
    for (const pair of this.#pairs) {
      if (pair.base === from && pair.quote === to) {
        const last = this.#last.get(pair.symbol);
        return last === undefined ? null : new Decimal(last).div(pair.quoteScale);
      }
      if (pair.base === to && pair.quote === from) {
        const last = this.#last.get(pair.symbol);
        return last === undefined || last === 0 ? null : pair.quoteScale.div(last);
      }
    }
    return undefined;
  }
}
