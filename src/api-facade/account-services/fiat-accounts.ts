/**
 * Fiat deposit prerequisites and records per account, behind POST /sapi/v1/fiat/deposit.
 *
 * Settings (`FiatSettings`, per account, `setSettings` to change): KYC/KYB passed, fiat service
 * activated, the channels (currency → payment methods) and a daily deposit limit per currency.
 * The defaults let every account deposit BRL by pix up to 50,000 per UTC day, so the demo
 * account can deposit out of the box.
 *
 * Refusals, first failing check wins (the docs list the codes, not their order or HTTP status;
 * 400 as for every request refusal):
 *   KYC/KYB not passed                    -16009 "Not passed KYC or KYB."
 *   fiat service not activated            -16012 "No channel supported."
 *   currency or method not in channels    -16010 "Currency or payment method not supported."
 *   amount over today's remaining limit   -16007 "Not enough limit."
 * Settings are the API of tests and scenarios (no request changes them); the records are state a
 * served exchange's journal keeps (facade-state.ts).
 *
 * -16011 "Order not exist." belongs to fiat order look-ups, which the spec does not list; no
 * deposit answers it. A refused deposit changes nothing.
 */
import { MICROS_PER_DAY } from '../../clock/index.ts';
import { parseUnits } from '../../engine/index.ts';
import { apiError, RecordLog } from '../core/index.ts';

export interface FiatSettings {
  readonly kycPassed: boolean;
  readonly fiatActivated: boolean;
  /** Currency → accepted `apiPaymentMethod` values. */
  readonly channels: Readonly<Record<string, readonly string[]>>;
  /** Currency → deposit limit per UTC day, a decimal string. */
  readonly dailyLimit: Readonly<Record<string, string>>;
}

/** BRL by pix, 50,000 BRL a day. */
export const DEFAULT_FIAT_SETTINGS: FiatSettings = Object.freeze({
  kycPassed: true,
  fiatActivated: true,
  channels: Object.freeze({ BRL: Object.freeze(['pix']) }),
  dailyLimit: Object.freeze({ BRL: '50000' }),
});

export interface FiatDeposit {
  readonly orderId: string;
  readonly accountId: number;
  readonly currency: string;
  readonly apiPaymentMethod: string;
  readonly amountUnits: number;
  readonly time: number;
  /** The `ext` object as sent (JSON text), if any. */
  readonly ext: string | undefined;
}

export const fiatErrors = {
  notEnoughLimit: () => apiError('FIAT_NOT_ENOUGH_LIMIT'),
  notKyc: () => apiError('FIAT_NOT_KYC'),
  notSupported: () => apiError('FIAT_NOT_SUPPORTED'),
  noChannel: () => apiError('FIAT_NO_CHANNEL'),
} as const;

export class FiatAccounts {
  readonly #settings = new Map<number, FiatSettings>();
  readonly #deposits = new RecordLog<FiatDeposit>();

  settings(accountId: number): FiatSettings {
    return this.#settings.get(accountId) ?? DEFAULT_FIAT_SETTINGS;
  }

  /** Changes an account's settings (missing fields keep their current value). */
  setSettings(accountId: number, change: Partial<FiatSettings>): void {
    this.#settings.set(accountId, { ...this.settings(accountId), ...change });
  }

  /** Throws the first refusal of a deposit, or returns nothing when it may go ahead. */
  check(accountId: number, currency: string, method: string, amountUnits: number, precision: number, time: number): void {
    const s = this.settings(accountId);
    if (!s.kycPassed) throw fiatErrors.notKyc();
    if (!s.fiatActivated) throw fiatErrors.noChannel();
    if (!(s.channels[currency] ?? []).includes(method)) throw fiatErrors.notSupported();
    const limit = parseUnits(s.dailyLimit[currency] ?? '0', precision) ?? 0;
    if (this.depositedToday(accountId, currency, time) + amountUnits > limit) throw fiatErrors.notEnoughLimit();
  }

  /** Records an accepted deposit; returns it with its order id. */
  record(deposit: Omit<FiatDeposit, 'orderId'>): FiatDeposit {
    const recorded = { ...deposit, orderId: `exsimfd${this.#deposits.length + 1}` };
    this.#deposits.push(recorded);
    return recorded;
  }

  /** Every accepted deposit, in order (a served exchange's journal keeps them: all, takeNew, restore). */
  get log(): RecordLog<FiatDeposit> {
    return this.#deposits;
  }

  deposits(accountId: number): readonly FiatDeposit[] {
    return this.#deposits.items.filter((d) => d.accountId === accountId);
  }

  /** Units deposited in `currency` since 00:00 UTC of `time`'s day. */
  depositedToday(accountId: number, currency: string, time: number): number {
    const dayStart = Math.floor(time / MICROS_PER_DAY) * MICROS_PER_DAY;
    return this.#deposits.items.filter((d) => d.accountId === accountId && d.currency === currency && d.time >= dayStart).reduce((sum, d) => sum + d.amountUnits, 0);
  }
}
