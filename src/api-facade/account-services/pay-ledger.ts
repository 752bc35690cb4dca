/**
 * The payment history behind GET /sapi/v1/pay/transactions: one record per payment, seen by each
 * simulated account taking part (the payer sees a negative amount, the receiver a positive one).
 *
 * Recording (`record`) is the API for tests and scenarios; the facade itself records accepted
 * fiat deposits (a PAYOUT from the payment channel into the fiat wallet). Records move no
 * balances: Binance Pay's funding wallets are outside the simulation.
 *
 * Which members of payerInfo / receiverInfo a caller sees depends on the order type and on its
 * role (Binance Pay docs, "binanceId" is our `platformId`, the party's uid); members not listed
 * are left out, `type` (USER or MERCHANT) is always shown:
 *   C2C, C2C_HOLDING      sender: payer {platformId}; receiver {name, platformId, accountId,
 *                         email, countryCode, phoneNumber, mobileCode} (those known)
 *                         receiver: payer {name, accountId}; receiver {platformId}
 *   CRYPTO_BOX            sender: payer {platformId}; receiver {name "Crypto Box"}
 *                         receiver: payer {name, accountId}; receiver {platformId}
 *   PAY (C2B)             sender: payer {platformId}; receiver {name}
 *                         receiver: payer {name, accountId}; receiver {platformId, name}
 *   PAY_REFUND, C2C_HOLDING_RF, PAYOUT
 *                         sender: payer {platformId, name}; receiver {name, accountId}
 *                         receiver: payer {name}; receiver {platformId}
 *   CRYPTO_BOX_RF         sender: as PAYOUT; receiver: payer {name "Crypto Box"}; receiver {platformId}
 *   REMITTANCE            sender: payer {platformId}; receiver {name, extend {institutionName,
 *                         cardNumber, digitalWalletId}}; receiver: as C2C's receiver
 */
import { formatUnits, parseUnits } from '../../engine/index.ts';
import { RecordLog } from '../core/index.ts';

export const PAY_ORDER_TYPES = ['PAY', 'PAY_REFUND', 'C2C', 'CRYPTO_BOX', 'CRYPTO_BOX_RF', 'C2C_HOLDING', 'C2C_HOLDING_RF', 'PAYOUT', 'REMITTANCE'] as const;
export type PayOrderType = (typeof PAY_ORDER_TYPES)[number];

/** 1 funding, 2 spot, 3 fiat, 4 and 6 card payment, 5 earn. */
export type WalletType = 1 | 2 | 3 | 4 | 5 | 6;

export const CRYPTO_BOX_LABEL = 'Crypto Box';
const AMOUNT_DECIMALS = 8;

export interface PayParty {
  /** A simulated account (its history shows the payment); absent for outside parties. */
  readonly accountId?: number;
  readonly name: string;
  readonly type: 'USER' | 'MERCHANT';
  /** The party's uid ("binanceId"); a simulated account's uid when absent. */
  readonly platformId?: number;
  /** Pay account id shown as accountId; the simulated account id when absent. */
  readonly payAccountId?: number;
  readonly email?: string;
  readonly countryCode?: number;
  readonly phoneNumber?: string;
  readonly mobileCode?: string;
  readonly extend?: { readonly institutionName: string; readonly cardNumber: string; readonly digitalWalletId: string };
}

export interface PaymentInput {
  readonly orderType: PayOrderType;
  /** µs of simulated time. */
  readonly time: number;
  readonly currency: string;
  /** Positive decimal, at most 8 decimals. */
  readonly amount: string;
  readonly payer: PayParty;
  readonly receiver: PayParty;
  /** Wallet the payer paid from (default 1, funding) and the receiver was paid into (default 1). */
  readonly payerWallet?: WalletType;
  readonly receiverWallet?: WalletType;
}

export interface PaymentRecord extends PaymentInput {
  readonly transactionId: string;
  readonly amountUnits: number;
}

export interface PayTransactionJson {
  orderType: PayOrderType;
  transactionId: string;
  transactionTime: number;
  amount: string;
  currency: string;
  walletType: WalletType;
  walletTypes: WalletType[];
  fundsDetail: { currency: string; amount: string; walletAssetCost: Record<string, string> }[];
  payerInfo: Record<string, unknown>;
  receiverInfo: Record<string, unknown>;
}

type Member = 'name' | 'platformId' | 'accountId' | 'contact' | 'extend' | 'boxName';
interface View {
  readonly payer: readonly Member[];
  readonly receiver: readonly Member[];
}

const C2C_RECEIVER: View = { payer: ['name', 'accountId'], receiver: ['platformId'] };
const PAYOUT_SENDER: View = { payer: ['platformId', 'name'], receiver: ['name', 'accountId'] };
const PAYOUT_RECEIVER: View = { payer: ['name'], receiver: ['platformId'] };

/** The members shown, by order type and role (see the header). */
const VIEWS: Record<PayOrderType, { readonly sender: View; readonly receiver: View }> = {
  C2C: { sender: { payer: ['platformId'], receiver: ['name', 'platformId', 'accountId', 'contact'] }, receiver: C2C_RECEIVER },
  C2C_HOLDING: { sender: { payer: ['platformId'], receiver: ['name', 'platformId', 'accountId', 'contact'] }, receiver: C2C_RECEIVER },
  CRYPTO_BOX: { sender: { payer: ['platformId'], receiver: ['boxName'] }, receiver: C2C_RECEIVER },
  PAY: { sender: { payer: ['platformId'], receiver: ['name'] }, receiver: { payer: ['name', 'accountId'], receiver: ['platformId', 'name'] } },
  PAY_REFUND: { sender: PAYOUT_SENDER, receiver: PAYOUT_RECEIVER },
  C2C_HOLDING_RF: { sender: PAYOUT_SENDER, receiver: PAYOUT_RECEIVER },
  PAYOUT: { sender: PAYOUT_SENDER, receiver: PAYOUT_RECEIVER },
  CRYPTO_BOX_RF: { sender: PAYOUT_SENDER, receiver: { payer: ['boxName'], receiver: ['platformId'] } },
  REMITTANCE: { sender: { payer: ['platformId'], receiver: ['name', 'extend'] }, receiver: C2C_RECEIVER },
};

export class PayLedger {
  readonly #records = new RecordLog<PaymentRecord>();
  readonly #uidOf: (accountId: number) => number;

  constructor(uidOf: (accountId: number) => number) {
    this.#uidOf = uidOf;
  }

  /** Records a payment; throws RangeError on a bad amount (a caller bug). Returns its transaction id. */
  record(input: PaymentInput): string {
    const amountUnits = parseUnits(input.amount, AMOUNT_DECIMALS);
    if (amountUnits === null || amountUnits <= 0) throw new RangeError(`payment amount must be a positive decimal with at most 8 decimals: ${input.amount}`);
    if (!Number.isSafeInteger(input.time)) throw new RangeError('payment time must be integer µs');
    const transactionId = String(100_000_000_000 + this.#records.length + 1);
    this.#records.push({ ...input, transactionId, amountUnits });
    return transactionId;
  }

  /** Every payment recorded, in order (a served exchange's journal keeps them: all, takeNew, restore). */
  get log(): RecordLog<PaymentRecord> {
    return this.#records;
  }

  /**
   * The payments `accountId` took part in with from <= time <= to (µs), newest first (ties: the
   * later recorded first), at most `limit`. transactionTime is in µs; the facade converts it.
   */
  transactions(accountId: number, from: number, to: number, limit: number): PayTransactionJson[] {
    const rows: PayTransactionJson[] = [];
    const records = this.#records.items;
    for (let i = records.length - 1; i >= 0; i--) {
      const r = records[i]!;
      if (r.time < from || r.time > to) continue;
      if (r.payer.accountId === accountId) rows.push(this.#json(r, 'sender'));
      else if (r.receiver.accountId === accountId) rows.push(this.#json(r, 'receiver'));
    }
    // Array.prototype.sort is stable: equal times keep the reversed recording order.
    return rows.sort((a, b) => b.transactionTime - a.transactionTime).slice(0, limit);
  }

  #json(r: PaymentRecord, role: 'sender' | 'receiver'): PayTransactionJson {
    const view = VIEWS[r.orderType][role];
    const wallet: WalletType = role === 'sender' ? (r.payerWallet ?? 1) : (r.receiverWallet ?? 1);
    const amount = formatUnits(r.amountUnits, AMOUNT_DECIMALS);
    return {
      orderType: r.orderType,
      transactionId: r.transactionId,
      transactionTime: r.time,
      amount: role === 'sender' ? `-${amount}` : amount,
      currency: r.currency,
      walletType: wallet,
      walletTypes: [wallet],
      fundsDetail: [{ currency: r.currency, amount, walletAssetCost: { [String(wallet)]: amount } }],
      payerInfo: this.#party(r.payer, view.payer),
      receiverInfo: this.#party(r.receiver, view.receiver),
    };
  }

  #party(p: PayParty, members: readonly Member[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const m of members) {
      if (m === 'name') out['name'] = p.name;
      else if (m === 'boxName') out['name'] = CRYPTO_BOX_LABEL;
      else if (m === 'platformId') {
        const id = p.platformId ?? (p.accountId === undefined ? undefined : this.#uidOf(p.accountId));
        if (id !== undefined) out['platformId'] = id;
      } else if (m === 'accountId') {
        const id = p.payAccountId ?? p.accountId;
        if (id !== undefined) out['accountId'] = id;
      } else if (m === 'contact') {
        for (const key of ['email', 'countryCode', 'phoneNumber', 'mobileCode'] as const) if (p[key] !== undefined) out[key] = p[key];
      } else if (p.extend !== undefined) out['extend'] = { ...p.extend };
    }
    out['type'] = p.type;
    return out;
  }
}
