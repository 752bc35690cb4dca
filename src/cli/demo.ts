/**
 * `exsim demo` (what `npm start` runs at this stage): a short, fully deterministic session
 * through the matching engine on the sample market, printed step by step. Running it twice
 * prints the same journal and state hashes.
 */
import { type EngineCommand, type PlaceOrder, type EngineEvent, JournaledEngine, rebuildFromJournal, formatUnits, parseUnits } from '../engine/index.ts';
import { DEMO_ACCOUNT_ID, MARKET_MAKER_ACCOUNT_ID, SAMPLE_CONFIG, sampleAccounts } from '../sample/index.ts';

const START = Date.UTC(2026, 0, 5, 12, 0, 0) * 1000; // µs; a fixed simulated instant
const fmt = (units: number) => formatUnits(units, 8).replace(/\.?0+$/, '') || '0';
const u = (text: string) => {
  const n = parseUnits(text, 8);
  if (n === null) throw new Error(`bad amount ${text}`);
  return n;
};

function describe(event: EngineEvent): string {
  switch (event.type) {
    case 'AccountCreated':
      return `account ${event.accountId} created`;
    case 'BalanceAdjusted':
      return `account ${event.accountId} ${event.asset} ${event.delta > 0 ? '+' : ''}${fmt(event.delta)}`;
    case 'OrderAccepted':
      return `accepted #${event.orderId} ${event.side} ${event.orderType}${event.orderType === 'MARKET' ? '' : ' ' + event.timeInForce} ${fmt(event.quantity)} @ ${event.price === 0 ? 'market' : fmt(event.price)}${event.status === 'PENDING_NEW' ? ' (pending)' : event.isWorking ? '' : ' (waiting for its trigger)'}`;
    case 'OrderRejected':
      return `REJECTED ${event.command}: ${event.reason}`;
    case 'TradeExecuted':
      return `trade #${event.tradeId} ${fmt(event.quantity)} @ ${fmt(event.price)} (taker #${event.takerOrderId} ${event.takerStatus}, maker #${event.makerOrderId} ${event.makerStatus}; fees ${fmt(event.takerCommission)} ${event.takerCommissionAsset} / ${fmt(event.makerCommission)} ${event.makerCommissionAsset})`;
    case 'MatchPrevented':
      return `self-trade prevented (${event.mode}) #${event.takerOrderId} vs #${event.makerOrderId}: taker ${event.takerStatus}, maker ${event.makerStatus}`;
    case 'OrderCanceled':
      return `canceled #${event.orderId}`;
    case 'OrderExpired':
      return `#${event.orderId} ${event.status} (${event.expiryReason})`;
    case 'SymbolStatusChanged':
      return `${event.symbol} is ${event.status}`;
    case 'ReferencePriceChanged':
      return `${event.symbol} reference price ${event.price === null ? 'cleared' : fmt(event.price)}`;
    case 'SyntheticBookChanged':
      return `${event.symbol} synthetic book ${event.active ? (event.anchorPrice === null ? 'set' : `anchored at ${fmt(event.anchorPrice)}`) : 'removed'}`;
    case 'DepthBookSet':
      return `${event.symbol} depth book ${event.mode === null ? 'removed' : `set (${event.mode})`}`;
    case 'OrderFilledByMarket':
      return `market filled #${event.orderId} ${fmt(event.quantity)} @ ${fmt(event.price)} (${event.reason}, ${event.status})`;
    case 'MarketTradeRecorded':
      return `market trade #${event.tradeId} ${fmt(event.quantity)} @ ${fmt(event.price)}`;
    case 'OrderTriggered':
      return `#${event.orderId} triggered by a trade at ${fmt(event.triggerPrice)}`;
    case 'TrailingStarted':
      return `#${event.orderId} trailing from ${fmt(event.price)}`;
    case 'OrderActivated':
      return `pending #${event.orderId} placed (${fmt(event.quantity)})`;
    case 'OrderListUpdated':
      return `${event.kind} list #${event.orderListId} ${event.listStatusType}/${event.listOrderStatus} (orders ${event.orders.map((o) => '#' + o.orderId).join(', ')})`;
    case 'OrderAmended':
      return `#${event.orderId} amended ${fmt(event.origQuantity)} -> ${fmt(event.newQuantity)}`;
    case 'AllocationRecorded':
      return `SOR allocation #${event.allocationId} to #${event.orderId}: ${fmt(event.quantity)} @ ${fmt(event.price)}`;
    case 'CancelReplaceCompleted':
      return `cancel-replace: cancel ${event.cancelResult}, new order ${event.newOrderResult}`;
    default:
      // Futures events: the demo session trades spot only.
      return event.type;
  }
}

/**
 * Runs the demo session, printing each step. Returns the journal's and the final state's hashes,
 * and the journal itself as JSON lines (what the journal hash is the SHA-256 of): the golden
 * event log the tests keep beside the hash.
 */
export function runDemo(print: (line: string) => void = console.log): { journalHash: string; stateHash: string; journal: string } {
  const sim = new JournaledEngine(SAMPLE_CONFIG);
  let time = START;
  const step = (title: string, command: EngineCommand) => {
    print(`\n${title}`);
    for (const event of sim.apply(command)) print(`  ${describe(event)}`);
  };
  const order = (fields: Omit<PlaceOrder, 'type' | 'time'>): PlaceOrder => ({ type: 'PlaceOrder', time: (time += 1_000), ...fields });

  print('exsim demo: the matching engine on the sample market (BTCUSDT, ETHBTC), simulated time');
  for (const command of sampleAccounts(time)) step(`Create account ${command.accountId}`, command);

  const mm = MARKET_MAKER_ACCOUNT_ID;
  for (let i = 1; i <= 3; i++) {
    step(`Market maker bids 0.1 BTC at ${100_000 - i * 10}`, order({ accountId: mm, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u(String(100_000 - i * 10)), quantity: u('0.1') }));
    step(`Market maker offers 0.1 BTC at ${100_000 + i * 10}`, order({ accountId: mm, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: u(String(100_000 + i * 10)), quantity: u('0.1') }));
  }
  const me = DEMO_ACCOUNT_ID;
  const btc = { accountId: me, symbol: 'BTCUSDT' } as const;
  step('Demo buys 0.05 BTC with a marketable limit at 100,010', order({ ...btc, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100010'), quantity: u('0.05') }));
  step('Demo buys 0.1 BTC at market: walks two ask levels', order({ ...btc, side: 'BUY', orderType: 'MARKET', quantity: u('0.1') }));
  step('Demo posts a LIMIT_MAKER buy at the best ask: refused, it would take', order({ ...btc, side: 'BUY', orderType: 'LIMIT_MAKER', price: u('100020'), quantity: u('0.01') }));
  step('Demo sells 2,500 USDT worth at market (quoteOrderQty)', order({ ...btc, side: 'SELL', orderType: 'MARKET', quoteOrderQty: u('2500') }));
  step('Demo sends an IOC sell bigger than the bids down to 99,975', order({ ...btc, side: 'SELL', orderType: 'LIMIT', timeInForce: 'IOC', price: u('99975'), quantity: u('0.2') }));
  step('Demo rests a GTC bid at 99,995, the new best bid', order({ ...btc, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('99995'), quantity: u('0.02'), clientOrderId: 'demo-bid-1' }));
  step('Demo sells into its own bid: self-trade prevention (EXPIRE_MAKER, the symbol default), then rests', order({ ...btc, side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: u('99990'), quantity: u('0.01'), clientOrderId: 'demo-ask-1' }));
  step('Demo sends a FOK buy for more than the book can give it', order({ ...btc, side: 'BUY', orderType: 'LIMIT', timeInForce: 'FOK', price: u('100030'), quantity: u('0.5') }));
  step('Demo cancels its ask by client order id', { type: 'CancelOrder', time: (time += 1_000), ...btc, origClientOrderId: 'demo-ask-1' });
  step('Demo tries to spend more than it has', order({ ...btc, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('99000'), quantity: u('50') }));
  step('Demo rests an iceberg bid: 0.05 BTC at 99,900, showing 0.01', order({ ...btc, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('99900'), quantity: u('0.05'), icebergQty: u('0.01'), clientOrderId: 'demo-ice' }));
  step('Demo amends it down to 0.03 BTC, keeping its place', { type: 'AmendOrder', time: (time += 1_000), ...btc, origClientOrderId: 'demo-ice', newQuantity: u('0.03') });
  step('Demo cancel-replaces it with a plain bid at 99,910', {
    type: 'CancelReplaceOrder',
    time: (time += 1_000),
    ...btc,
    mode: 'STOP_ON_FAILURE',
    cancelOrigClientOrderId: 'demo-ice',
    newOrder: { side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('99910'), quantity: u('0.03') },
  });
  step('Demo protects 0.02 BTC with an OCO: take profit at 100,100 (LIMIT_MAKER), stop at 99,970 (limit 99,960)', {
    type: 'PlaceOrderList',
    time: (time += 1_000),
    ...btc,
    kind: 'OCO',
    legs: [
      { side: 'SELL', orderType: 'LIMIT_MAKER', price: u('100100'), quantity: u('0.02') },
      { side: 'SELL', orderType: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', stopPrice: u('99970'), price: u('99960'), quantity: u('0.02') },
    ],
  });
  step('Demo sells 0.05 BTC at market: the trade at 99,970 triggers the stop; the take-profit leg expires', order({ ...btc, side: 'SELL', orderType: 'MARKET', quantity: u('0.05') }));

  const engine = sim.engine;
  engine.checkInvariants();
  print('\nBalances (free / locked)');
  for (const id of [me, mm]) {
    const account = engine.account(id)!;
    const rows = account.balances.filter((b) => b.free !== 0 || b.locked !== 0).map((b) => `${b.asset} ${fmt(b.free)} / ${fmt(b.locked)}`);
    print(`  account ${id}: ${rows.join(', ')}`);
  }
  const fees = Object.entries(engine.feesCollected()).filter(([, v]) => v !== 0).map(([a, v]) => `${fmt(v)} ${a}`);
  print(`Fees collected: ${fees.join(', ') || 'none'}`);
  const bt = engine.bookTicker('BTCUSDT')!;
  print(`BTCUSDT book: bid ${fmt(bt.bidQty)} @ ${fmt(bt.bidPrice)}, ask ${fmt(bt.askQty)} @ ${fmt(bt.askPrice)}`);

  const journalHash = sim.journal.hash();
  const stateHash = engine.stateHash();
  const rebuilt = rebuildFromJournal(SAMPLE_CONFIG, sim.journal).stateHash();
  print(`\nJournal: ${sim.journal.entries.length} commands, sha256 ${journalHash}`);
  print(`State:   sha256 ${stateHash} (rebuilt from the journal: ${rebuilt === stateHash ? 'identical' : 'DIFFERENT'})`);
  return { journalHash, stateHash, journal: sim.journal.toJsonLines() };
}
