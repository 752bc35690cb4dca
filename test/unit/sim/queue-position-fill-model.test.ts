import { describe, expect, it } from 'vitest';
import { queuePosition, QueueSymbolModel, type RestingOrder } from '../../../src/sim/index.ts';
import { harness, u, type Print } from './helpers.ts';

/** Fixed queue estimates: depth (decimal) per orderId, default 2. */
const depths = (byOrder: Record<number, string> = {}) => (order: RestingOrder) => u(byOrder[order.orderId] ?? '2');
const sell = (price: string, qty: string, at?: number): Print => (at === undefined ? { taker: 'SELL', price, qty } : { taker: 'SELL', price, qty, at });
const queueOf = (h: ReturnType<typeof harness>, orderId: number) => (h.replay.fillModelOf('BTCUSDT') as QueueSymbolModel).queueAhead(orderId);

describe('queue-position fill model (risk-averse)', () => {
  it('consumes the queue ahead across several prints at the price before filling', async () => {
    const h = harness(queuePosition({ estimateDepth: depths() }), [sell('100', '0.5'), sell('100', '1'), sell('100', '0.8'), sell('100', '2')]);
    const a = h.limit('BUY', '100', '1');
    expect(queueOf(h, a)).toBe(u('2'));
    await h.replay.runUntil(h.replay.now + 1_000_000 + 1000); // the first two prints (at T0 and T0 + 1 ms)
    expect(queueOf(h, a)).toBe(u('0.5'));
    expect(h.fills()).toEqual([]);
    await h.replay.runToEnd();
    // 0.8 print: 0.5 goes to the queue, 0.3 to us; 2.0 print: 0.7 to us, 1.3 stays a market print.
    expect(h.fills().map((f) => [f.quantity, f.status])).toEqual([
      [u('0.3'), 'PARTIALLY_FILLED'],
      [u('0.7'), 'FILLED'],
    ]);
    expect(h.fills()[0]!.reason).toBe(
      'QUEUE_POSITION tapeTrade=1003 tradePrice=100.00000000 tradeQty=0.80000000 taker=SELL order=1 orderPrice=100.00000000 available=0.30000000 filled=0.30000000 queueAhead=0.50000000->0.00000000 model=queue-risk-averse',
    );
    expect(h.fills()[1]!.reason).toMatch(/queueAhead=0.00000000->0.00000000/);
    expect(h.decisions.map((d) => d.reason.split(' tapeTrade')[0])).toEqual([
      expect.stringMatching(/^QUEUE_ESTIMATE model=queue-risk-averse order=1 orderPrice=100.00000000 estimator=custom .* queueAhead=2.00000000$/),
      'QUEUE_POSITION NO_FILL why=queue-ahead',
      'QUEUE_POSITION NO_FILL why=queue-ahead',
    ]);
    expect(h.decisions[2]!.reason).toMatch(/queueAhead=1.50000000->0.50000000 /);
    const remainder = h.journal.entries.filter((e) => e.command.type === 'RecordMarketTrade').map((e) => (e.command as { quantity: number }).quantity);
    expect(remainder).toEqual([u('0.5'), u('1'), u('0.5'), u('1.3')]);
  });

  it("estimates the queue as depthMultiple x the mean print size when the order is first seen", async () => {
    const h = harness(queuePosition({ depthMultiple: 5 }), [sell('100', '1', 0), sell('100', '1', 1), sell('100', '1', 2)]);
    expect(h.limit('BUY', '99', '1')).toBe(1);
    expect(queueOf(h, 1)).toBe(0); // nothing printed yet: mean 0, queue 0
    await h.replay.runToEnd();
    const b = h.limit('BUY', '100', '1');
    expect(queueOf(h, b)).toBe(u('5'));
    expect(h.decisions.at(-1)!.reason).toContain('estimator=5xMeanTradeQty meanTradeQty=1.00000000 depth=5.00000000 ownAhead=0.00000000 queueAhead=5.00000000');
  });

  it('keeps own orders at one price in one FIFO: the earlier one fills first, the later waits behind it', async () => {
    const h = harness(queuePosition({ estimateDepth: depths({ 1: '2', 2: '4' }) }), [sell('100', '2.5'), sell('100', '1'), sell('100', '2')]);
    const a = h.limit('BUY', '100', '1');
    const b = h.limit('BUY', '100', '1', 2);
    // B's level depth 4 includes A's 2 ahead and A itself: 1 more of market between them.
    expect(queueOf(h, b)).toBe(u('4'));
    await h.replay.runToEnd();
    // 2.5: queue 2 then A 0.5. 1.0: A 0.5 (FILLED), the 0.5 left eats the 1 between A and B down to 0.5.
    // 2.0: 0.5 of queue, then B 1 (FILLED); 0.5 stays a market print.
    expect(h.fills().map((f) => [f.orderId, f.quantity, f.status])).toEqual([
      [a, u('0.5'), 'PARTIALLY_FILLED'],
      [a, u('0.5'), 'FILLED'],
      [b, u('1'), 'FILLED'],
    ]);
    expect(h.fills()[2]!.reason).toContain('queueAhead=0.50000000->0.00000000');
  });

  it('moves a later own order up when an earlier one is canceled (the market queue ahead stays)', async () => {
    const h = harness(queuePosition({ estimateDepth: depths({ 1: '2', 2: '5' }) }), [sell('100', '4.5')]);
    const a = h.limit('BUY', '100', '1');
    const b = h.limit('BUY', '100', '1', 2);
    expect(queueOf(h, b)).toBe(u('5')); // 2 + A's 1 + 2 between
    h.replay.apply({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: a });
    expect(queueOf(h, b)).toBe(u('4')); // A's own 1 left; its 2 of market queue did not
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity])).toEqual([[b, u('0.5')]]);
  });

  it('fills orders the print went through as trade-through and clears their queue', async () => {
    const h = harness(queuePosition({ estimateDepth: depths() }), [sell('99.99', '0.4'), sell('100', '0.1')]);
    const a = h.limit('BUY', '100', '1');
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity, f.reason.split(' ')[0]])).toEqual([
      [a, u('0.4'), 'TRADE_THROUGH'],
      [a, u('0.1'), 'QUEUE_POSITION'],
    ]);
    expect(h.fills()[0]!.reason).toContain('model=queue-risk-averse');
  });

  it('fills a better-priced order through before the queue at the print price, from one budget', async () => {
    const h = harness(queuePosition({ estimateDepth: depths({ 1: '0', 2: '0' }) }), [sell('100', '1.5')]);
    const atPrice = h.limit('BUY', '100', '1');
    const better = h.limit('BUY', '100.5', '1', 2);
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity, f.reason.split(' ')[0]])).toEqual([
      [better, u('1'), 'TRADE_THROUGH'],
      [atPrice, u('0.5'), 'QUEUE_POSITION'],
    ]);
  });
});

describe('queue-position fill model (probabilistic)', () => {
  const prints = [sell('100', '0.5'), sell('100', '0.5')];

  it('with probability 1 treats the queue ahead as canceled and fills from the print', async () => {
    const h = harness(queuePosition({ variant: 'probabilistic', estimateDepth: depths(), fillProbability: () => 1 }), prints);
    h.limit('BUY', '100', '1');
    await h.replay.runToEnd();
    expect(h.fills().map((f) => f.quantity)).toEqual([u('0.5'), u('0.5')]);
    expect(h.fills()[0]!.reason).toMatch(/^QUEUE_PROBABILISTIC .* queueAhead=2.00000000->0.00000000 p=1.000000 draw=0\.\d{6} model=queue-probabilistic$/);
  });

  it('with probability 0 behaves exactly as risk-averse, logging each draw', async () => {
    const h = harness(queuePosition({ variant: 'probabilistic', estimateDepth: depths(), fillProbability: () => 0 }), prints);
    h.limit('BUY', '100', '1');
    await h.replay.runToEnd();
    expect(h.fills()).toEqual([]);
    expect(h.decisions.slice(1).map((d) => d.reason)).toEqual([
      expect.stringMatching(/queueAhead=2.00000000->1.50000000 p=0.000000 draw=/),
      expect.stringMatching(/queueAhead=1.50000000->1.00000000 p=0.000000 draw=/),
    ]);
  });

  it('draws from a stream fixed by the seed: same seed, same journal; seeds differ where risk-averse never fills', async () => {
    // 20 prints of 0.1 against a queue of 3: risk-averse leaves 1 ahead and never fills; the
    // default probability is 0.1 / (0.1 + ahead), about 3-5% a print.
    const many: Print[] = Array.from({ length: 20 }, (_, i) => sell('100', '0.1', i));
    const run = async (seed: string) => {
      const h = harness(queuePosition({ variant: 'probabilistic', estimateDepth: depths({ 1: '3' }) }), many, { seed });
      h.limit('BUY', '100', '5');
      await h.replay.runToEnd();
      return { filled: h.fills().length > 0, hash: h.journal.hash() };
    };
    const seeds = Array.from({ length: 8 }, (_, i) => `seed-${i}`);
    const first = await Promise.all(seeds.map(run));
    const again = await Promise.all(seeds.map(run));
    expect(again.map((r) => r.hash)).toEqual(first.map((r) => r.hash));
    expect(first.some((r) => r.filled)).toBe(true);
    expect(first.some((r) => !r.filled)).toBe(true);
    expect(new Set(first.map((r) => r.hash)).size).toBeGreaterThan(1);
  });
});

describe('non-fill decisions in the journal', () => {
  it('the default replay journal holds every decision after the command it followed', async () => {
    const h = harness(queuePosition({ estimateDepth: depths() }), [sell('100', '0.5'), sell('100', '1')]);
    h.limit('BUY', '100', '1');
    await h.replay.runToEnd();
    const journal = h.journal;
    expect(journal.decisions.map((d) => d.decision.reason.split(' ')[0])).toEqual(['QUEUE_ESTIMATE', 'QUEUE_POSITION', 'QUEUE_POSITION']);
    const lines = journal.toExplainedJsonLines().trim().split('\n').map((l) => JSON.parse(l) as { decision?: { reason: string }; command?: { type: string } });
    // The estimate follows the PlaceOrder that caused it; the two NO_FILLs follow in tape order.
    const kinds = lines.map((l) => (l.decision ? l.decision.reason.split(' ')[0] : l.command?.type));
    expect(kinds.indexOf('QUEUE_ESTIMATE')).toBeGreaterThan(kinds.indexOf('PlaceOrder'));
    expect(kinds.filter((k) => k === 'QUEUE_POSITION')).toHaveLength(2);
    expect(lines.length).toBe(journal.entries.length + journal.decisions.length);
  });
});
