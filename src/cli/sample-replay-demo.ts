/**
 * The second half of `exsim demo`: one day of the bundled BTCUSDT sample replayed through the
 * engine on the virtual clock, with the queue-position fill model. The demo account rests a bid
 * below the market and an ask above it ten minutes in; the market fills them (or not) as the
 * historical prints reach them, and every fill says why. Same data + same seed => same journal
 * hash on every run.
 */
import { loadSample, readTrades, formatAmount } from '../data/index.ts';
import { formatUnits, journalLine, type OrderFilledByMarket } from '../engine/index.ts';
import { DEMO_ACCOUNT_ID, SAMPLE_CONFIG, sampleAccounts } from '../sample/index.ts';
import { JournalHasher, queuePosition, Replay, type JournalSink } from '../sim/index.ts';

const MINUTE = 60_000_000;
const TICK = 1_000_000; // 0.01 USDT in price units
const fmt = (units: number | bigint) => formatAmount(units, 8).replace(/\.?0+$/, '') || '0';

/**
 * Replays the sample day with the demo's two orders. Returns the journal hash, the demo's fill
 * count and `log`: the journal's lines except the entries that only record a market print (the
 * strategy's commands, the market fills and what they set off): the readable part of the golden
 * journal, small enough to keep beside the hash.
 */
export async function runSampleReplay(print: (line: string) => void = console.log): Promise<{ journalHash: string; fills: number; log: string }> {
  const sample = loadSample('BTCUSDT');
  // Hash every journal entry, and keep the demo account's market fills to show why they happened.
  const hasher = new JournalHasher();
  const demoFills: OrderFilledByMarket[] = [];
  const log: string[] = [];
  const journal: JournalSink = {
    record(command, events) {
      hasher.record(command, events);
      if (command.type !== 'RecordMarketTrade') log.push(journalLine(hasher.entries, command, events));
      for (const e of events) if (e.type === 'OrderFilledByMarket' && e.accountId === DEMO_ACCOUNT_ID) demoFills.push(e);
    },
  };
  const replay = new Replay({
    engine: SAMPLE_CONFIG,
    tapes: [{ symbol: 'BTCUSDT', trades: readTrades(sample.trades, { scale: sample.scale }) }],
    fillModel: queuePosition({ variant: 'risk-averse' }),
    seed: 'exsim-demo',
    startTime: sample.startTime,
    journal,
  });
  for (const account of sampleAccounts(0)) {
    const { time: _time, ...command } = account;
    replay.apply(command);
  }
  print(`\nReplaying the bundled sample: BTCUSDT trades of ${sample.date} on the virtual clock (queue-position fills)`);
  await replay.runUntil(sample.startTime + 10 * MINUTE);
  const history = replay.history('BTCUSDT');
  const last = history.lastTrade(replay.now)?.price ?? 0;
  const onGrid = (price: number) => price - (price % TICK);
  const bid = onGrid(Math.round(last * 0.997));
  const ask = onGrid(Math.round(last * 1.003));
  print(`  10 minutes in, last price ${fmt(last)}: demo rests BUY 0.05 @ ${fmt(bid)} and SELL 0.05 @ ${fmt(ask)}`);
  const place = (side: 'BUY' | 'SELL', price: number) => {
    const events = replay.apply({ type: 'PlaceOrder', accountId: DEMO_ACCOUNT_ID, symbol: 'BTCUSDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 5_000_000 });
    for (const e of events) if (e.type === 'OrderRejected') print(`  REJECTED: ${e.reason}`);
  };
  place('BUY', bid);
  place('SELL', ask);
  await replay.runToEnd();
  for (const order of replay.engine.allOrders(DEMO_ACCOUNT_ID, 'BTCUSDT')) {
    print(`  order #${order.orderId} ${order.side} @ ${fmt(order.price)}: ${order.status}, executed ${fmt(order.executedQty)}`);
  }
  const trades = replay.engine.accountTrades(DEMO_ACCOUNT_ID, 'BTCUSDT');
  const fee = trades.reduce((sum, t) => sum + t.commission, 0);
  print(`  ${trades.length} fills as maker, fees ${fmt(fee)} (in the received asset); the first ones and why:`);
  for (const fill of demoFills.slice(0, 3)) {
    print(`    trade #${fill.tradeId} order #${fill.orderId} ${fmt(fill.quantity)} @ ${fmt(fill.price)} -> ${fill.status}: ${fill.reason}`);
  }
  const day = history.ticker24hr(replay.now);
  print(
    `  24h ticker: open ${fmt(day.openPrice)} high ${fmt(day.highPrice)} low ${fmt(day.lowPrice)} last ${fmt(day.lastPrice)}, ` +
      `volume ${fmt(day.volume)} BTC, ${day.count} trades`,
  );
  const balances = replay.engine
    .account(DEMO_ACCOUNT_ID)!
    .balances.filter((b) => b.asset === 'BTC' || b.asset === 'USDT')
    .map((b) => `${b.asset} ${formatUnits(b.free, 8)} / ${formatUnits(b.locked, 8)}`);
  print(`  demo balances (free / locked): ${balances.join(', ')}`);
  replay.engine.checkInvariants();
  const journalHash = hasher.hash();
  print(`  replay journal: ${replay.stats.tapeTrades} prints replayed, ${replay.stats.marketFills} market fills, sha256 ${journalHash}`);
  return { journalHash, fills: trades.length, log: log.join('') };
}
