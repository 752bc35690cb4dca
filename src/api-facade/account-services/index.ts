/**
 * The account side's supplementary state the /sapi rows answer from: fiat deposit settings and
 * records, the pay ledger (tests and scenarios add payments), equity disclaimer acceptances. The
 * rows themselves are in endpoints/sapi/; ExchangeContext holds one of each.
 *
 * Rules: imports only core/. Pure (times are simulated µs passed in).
 */
export { FiatAccounts, type FiatDeposit } from './fiat-accounts.ts';
export { PayLedger, type PaymentRecord } from './pay-ledger.ts';
export { EquityDisclaimers } from './equity-disclaimers.ts';
