/** The bundled sample market (exchangeInfo-shaped config and its accounts); see sample-market.ts. */
export { DEMO_ACCOUNT_ID, DEMO_CREDENTIALS, MARKET_MAKER_ACCOUNT_ID, SAMPLE_CONFIG, sampleAccounts } from './sample-market.ts';
