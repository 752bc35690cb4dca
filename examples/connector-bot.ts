/**
 * Example 3: a bot written against the real exchange's official Node client,
 * `@binance/connector`, pointed at `exsim serve` instead of api.binance.com. Nothing in it knows
 * about exsim but the URL. It is a client, so it runs on the wall clock (its own timers); the
 * server paces the replayed market (`--clock speed:N` replays N seconds of history per second).
 *
 *   npx exsim serve --data sample --clock speed:60 --port 8080 &
 *   npx tsx examples/connector-bot.ts http://127.0.0.1:8080 [rounds]
 *
 * Each round: read the price, rest a bid 0.5% below it, check it is open, cancel it, then buy
 * 0.001 BTC at market; finally print the balances. Prints one line per action.
 */
import { Spot } from '@binance/connector';

const baseURL = process.argv[2] ?? 'http://127.0.0.1:8080';
const rounds = Number(process.argv[3] ?? '3');
const symbol = 'BTCUSDT';
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };
const client = new Spot(process.env.EXSIM_API_KEY ?? 'exsim-demo-key', process.env.EXSIM_API_SECRET ?? 'exsim-demo-secret', { baseURL, logger: silent });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)); // a client's own (wall-clock) pause

async function main(): Promise<void> {
  for (let round = 1; round <= rounds; round++) {
    const time = (await client.time()).data.serverTime as number;
    const book = (await client.depth(symbol, { limit: 5 })).data as { bids: string[][]; asks: string[][] };
    const mid = (Number(book.bids[0]![0]) + Number(book.asks[0]![0])) / 2;
    console.log(`round ${round}: server time ${new Date(time).toISOString()}, mid ${mid.toFixed(2)}`);
    const bid = (await client.newOrder(symbol, 'BUY', 'LIMIT', { price: (mid * 0.995).toFixed(2), quantity: '0.001', timeInForce: 'GTC' })).data as { orderId: number; status: string };
    const open = (await client.getOrder(symbol, { orderId: bid.orderId })).data as { status: string };
    console.log(`  rested bid #${bid.orderId}: ${open.status}`);
    const canceled = (await client.cancelOrder(symbol, { orderId: bid.orderId })).data as { status: string };
    console.log(`  canceled bid #${bid.orderId}: ${canceled.status}`);
    const bought = (await client.newOrder(symbol, 'BUY', 'MARKET', { quantity: '0.001' })).data as { status: string; executedQty: string; cummulativeQuoteQty: string };
    console.log(`  market buy: ${bought.status} ${bought.executedQty} BTC for ${bought.cummulativeQuoteQty} USDT`);
    await wait(250);
  }
  const balances = ((await client.account({ omitZeroBalances: true })).data.balances as { asset: string; free: string }[]).map((b) => `${b.asset} ${b.free}`);
  console.log(`balances: ${balances.join(', ')}`);
}

main().catch((error: unknown) => {
  const data = (error as { response?: { data?: unknown } }).response?.data;
  console.error(`bot failed: ${data === undefined ? String(error) : JSON.stringify(data)}`);
  process.exitCode = 1;
});
