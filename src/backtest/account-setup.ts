/**
 * The strategy account of a backtest: its opening balances and its commission rates, from the
 * command line (`--balances`, `--fees`, `--bnb-discount`), else the strategy module's exports
 * (`balances`, `fees`, `bnbDiscount`), else the defaults (a regular VIP 0 account: 0.1% maker
 * and taker; 1 BTC, 10 ETH, 100,000 USDT, each only where the run can value it).
 *
 * Fee tiers are Binance's spot schedule for regular users (VIP 0..9, maker/taker, as published
 * in 2024-2025; Binance changes it from time to time, so `--fees maker=...,taker=...` states
 * today's rates exactly).
 *
 * The BNB discount (25% off the standard commission when paid in BNB) is modelled on the rates:
 * with `--bnb-discount` every rate is multiplied by 0.75 (rounded up to the engine's 1e-8 rate
 * unit, so fees are never under-stated) and the commission is taken in the asset received, as
 * without the discount. Paying in BNB for real needs a BNB balance and a BNB price on the tape
 * (the engine does that when an account enables its discount asset and a symbol pairing BNB
 * trades); a backtest of BTCUSDT has neither, so the saving is applied where the fee is paid.
 */
import { formatUnits, parseUnits, RATE_SCALE, type CreateAccount } from '../engine/index.ts';
import { InputError } from './input-error.ts';

/** Binance spot maker/taker rates of regular users by VIP level. */
export const FEE_TIERS: Readonly<Record<string, { readonly maker: string; readonly taker: string }>> = {
  VIP0: { maker: '0.001', taker: '0.001' },
  VIP1: { maker: '0.0009', taker: '0.001' },
  VIP2: { maker: '0.0008', taker: '0.001' },
  VIP3: { maker: '0.00042', taker: '0.0006' },
  VIP4: { maker: '0.00042', taker: '0.00054' },
  VIP5: { maker: '0.00036', taker: '0.00048' },
  VIP6: { maker: '0.0003', taker: '0.00042' },
  VIP7: { maker: '0.00024', taker: '0.00036' },
  VIP8: { maker: '0.00018', taker: '0.0003' },
  VIP9: { maker: '0.00012', taker: '0.00024' },
};
export const DEFAULT_FEE_TIER = 'VIP0';
/** What paying fees in BNB takes off the standard commission (1 - 0.25). */
const BNB_DISCOUNT_NUM = 3;
const BNB_DISCOUNT_DEN = 4;
/** The highest rate accepted (10%): anything above is a typo (0.1 meant as 0.1%). */
const MAX_RATE = RATE_SCALE / 10;
const RATE_PLACES = Math.log10(RATE_SCALE);

export const DEFAULT_BALANCES: Readonly<Record<string, string>> = { BTC: '1', ETH: '10', USDT: '100000' };

/** What the summary shows of the account's fees: the schedule asked for and the rates charged. */
export interface FeeSchedule {
  /** `VIP3`, or null when rates were given as numbers. */
  readonly tier: string | null;
  readonly maker: string;
  readonly taker: string;
  readonly bnbDiscount: boolean;
  /** The rates the engine charges (after the BNB discount). */
  readonly effectiveMaker: string;
  readonly effectiveTaker: string;
  /** Where the schedule came from: `command line`, `strategy module` or `default`. */
  readonly source: AccountSource;
}

export type AccountSource = 'command line' | 'strategy module' | 'default';

export interface AccountSetup {
  readonly balances: Readonly<Record<string, string>>;
  readonly balancesSource: AccountSource;
  /** Default balances left out because no replayed symbol values them (ETH on a BTCUSDT-only run). */
  readonly unfunded: readonly string[];
  readonly fees: FeeSchedule;
}

/** `BTC=0,USDT=10000` as a record of decimal strings (checked against the market's precision later). */
export function parseBalances(text: string, what = '--balances'): Record<string, string> {
  const balances: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const asset = part.slice(0, eq).trim();
    const amount = part.slice(eq + 1).trim();
    if (eq <= 0 || !/^[A-Z0-9]{1,20}$/.test(asset) || amount === '') throw new InputError(`${what} must be ASSET=amount[,ASSET=amount...] (e.g. BTC=0,USDT=10000), got "${part}"`);
    if (asset in balances) throw new InputError(`${what} names ${asset} twice`);
    balances[asset] = amount;
  }
  return balances;
}

/** `maker=0.0002,taker=0.0004`, or a tier name (`VIP3`, case-insensitive), as maker/taker decimal strings. */
export function parseFees(text: string, what = '--fees'): { tier: string | null; maker: string; taker: string } {
  const tier = text.trim().toUpperCase().replace(/^VIP\s*/, 'VIP');
  const known = FEE_TIERS[tier];
  if (known !== undefined) return { tier, ...known };
  if (!text.includes('=')) throw new InputError(`${what} must be maker=RATE,taker=RATE or a tier (${Object.keys(FEE_TIERS).join(', ')}), got "${text}"`);
  const rates: Record<string, string> = {};
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    if (key !== 'maker' && key !== 'taker') throw new InputError(`${what}: unknown rate "${part}" (maker=RATE,taker=RATE, rates as fractions: 0.001 is 0.1%)`);
    rates[key] = part.slice(eq + 1).trim();
  }
  if (rates.maker === undefined || rates.taker === undefined) throw new InputError(`${what} needs both maker= and taker=, got "${text}"`);
  for (const key of ['maker', 'taker'] as const) rateUnits(rates[key]!, `${what} ${key}`);
  return { tier: null, maker: rates.maker, taker: rates.taker };
}

function rateUnits(text: string, what: string): number {
  const units = parseUnits(text, RATE_PLACES);
  if (units === null || units < 0 || units > MAX_RATE) throw new InputError(`${what} must be a fraction 0..0.1 with at most ${RATE_PLACES} decimals (0.001 is 0.1%), got "${text}"`);
  return units;
}

/** The effective rate in engine units: with the BNB discount, × 0.75 rounded up. */
function chargedUnits(rate: string, bnbDiscount: boolean, what: string): number {
  const units = rateUnits(rate, what);
  return bnbDiscount ? Math.ceil((units * BNB_DISCOUNT_NUM) / BNB_DISCOUNT_DEN) : units;
}

export interface AccountChoices {
  readonly balances?: Readonly<Record<string, string>> | undefined;
  /** Raw `--fees` text. */
  readonly fees?: string | undefined;
  readonly bnbDiscount?: boolean | undefined;
}

/** What a strategy module may say about its account (its exports `balances`, `fees`, `bnbDiscount`). */
export interface ModuleAccount {
  readonly balances?: Readonly<Record<string, string>> | undefined;
  readonly fees?: string | { readonly maker: string; readonly taker: string } | undefined;
  readonly bnbDiscount?: boolean | undefined;
}

/**
 * The account: the command line wins over the module, the module over the defaults, each part
 * (balances, fees, discount) on its own. `reaches(asset)`: whether the run can value the asset;
 * a default balance it cannot value is left out (listed in `unfunded`), a balance asked for is
 * an error.
 */
export function resolveAccount(cli: AccountChoices, module: ModuleAccount, reaches: (asset: string) => boolean, moduleName: string): AccountSetup {
  let balances: Readonly<Record<string, string>>;
  let balancesSource: AccountSource;
  const unfunded: string[] = [];
  if (cli.balances !== undefined || module.balances !== undefined) {
    balances = cli.balances ?? module.balances!;
    balancesSource = cli.balances !== undefined ? 'command line' : 'strategy module';
    const what = balancesSource === 'command line' ? '--balances' : `strategy ${moduleName}: balances`;
    for (const [asset, amount] of Object.entries(balances)) {
      if (typeof amount !== 'string') throw new InputError(`${what}.${asset} must be a decimal string, got ${typeof amount}`);
      if (!reaches(asset)) throw new InputError(`${what}: ${asset} cannot be valued on this run (no replayed symbol prices it); leave it out or replay a symbol that trades it`);
    }
  } else {
    balancesSource = 'default';
    const funded: Record<string, string> = {};
    for (const [asset, amount] of Object.entries(DEFAULT_BALANCES)) {
      if (reaches(asset)) funded[asset] = amount;
      else unfunded.push(asset);
    }
    balances = funded;
  }

  let feeSource: AccountSource = 'default';
  let schedule = { tier: DEFAULT_FEE_TIER as string | null, ...FEE_TIERS[DEFAULT_FEE_TIER]! };
  if (cli.fees !== undefined) {
    schedule = parseFees(cli.fees);
    feeSource = 'command line';
  } else if (module.fees !== undefined) {
    const what = `strategy ${moduleName}: fees`;
    if (typeof module.fees === 'string') schedule = parseFees(module.fees, what);
    else if (typeof module.fees === 'object' && module.fees !== null && typeof module.fees.maker === 'string' && typeof module.fees.taker === 'string') {
      schedule = parseFees(`maker=${module.fees.maker},taker=${module.fees.taker}`, what);
    } else throw new InputError(`${what} must be a tier name or { maker: '0.001', taker: '0.001' } (strings)`);
    feeSource = 'strategy module';
  }
  if (module.bnbDiscount !== undefined && typeof module.bnbDiscount !== 'boolean') throw new InputError(`strategy ${moduleName}: bnbDiscount must be true or false`);
  const bnbDiscount = cli.bnbDiscount === true || (cli.bnbDiscount === undefined && module.bnbDiscount === true);
  const effective = (rate: string, what: string) => formatUnits(chargedUnits(rate, bnbDiscount, what), RATE_PLACES);
  return {
    balances,
    balancesSource,
    unfunded,
    fees: {
      tier: schedule.tier,
      maker: schedule.maker,
      taker: schedule.taker,
      bnbDiscount,
      effectiveMaker: effective(schedule.maker, 'maker'),
      effectiveTaker: effective(schedule.taker, 'taker'),
      source: feeSource,
    },
  };
}

/** The CreateAccount command of the strategy's account (balances in the market's precision). */
export function accountCommand(setup: AccountSetup, accountId: number, precisionOf: (asset: string) => number): Omit<CreateAccount, 'time'> {
  const parsed: Record<string, number> = {};
  for (const [asset, text] of Object.entries(setup.balances)) {
    const precision = precisionOf(asset);
    const n = parseUnits(text, precision);
    if (n === null || n < 0) throw new InputError(`balance of ${asset} must be a decimal >= 0 with at most ${precision} places, got "${text}"`);
    parsed[asset] = n;
  }
  return {
    type: 'CreateAccount',
    accountId,
    balances: parsed,
    standardCommission: {
      maker: parseUnits(setup.fees.effectiveMaker, RATE_PLACES)!,
      taker: parseUnits(setup.fees.effectiveTaker, RATE_PLACES)!,
      buyer: 0,
      seller: 0,
    },
  };
}
