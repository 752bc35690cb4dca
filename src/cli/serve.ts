/**
 * `exsim serve`: the simulated exchange over HTTP on the sample market, for bots and official
 * client libraries. The backend is the engine with market-data histories; its simulated time
 * follows the pacing (`realtime`, `speed:N`, or `manual`, where time stands still), read before
 * every request. The sample accounts are funded and the market maker quotes a small ladder on
 * each symbol, after one print each so MARKET orders have an average price to be checked
 * against. The demo key `exsim-demo-key` / secret `exsim-demo-secret` trades as account 1.
 *
 * Client clocks: most libraries stamp `timestamp` with their machine's wall clock; some send the
 * server time they read from GET /api/v3/time. Each stamp is read both ways, as wall-clock time
 * placed on the simulated time line by the pacing, and as simulated time, and the reading
 * nearer to simulated now is judged. At `realtime` (simulated start = now) the two agree; at
 * `speed:N` they drift apart by (N - 1) x elapsed, so a fresh stamp of either kind passes and a
 * stale or future one fails under both. In `manual` mode stamps are simulated time.
 */
import { ExchangeContext, EngineBackend, ExsimHttpServer, type ClientTimeRule } from '../api-facade/index.ts';
import type { FaultOptions } from '../api-facade/faults.ts';
import { Pacing } from '../clock/index.ts';
import type { EngineCommand } from '../engine/commands.ts';
import type { EngineConfig } from '../engine/symbol-config.ts';
import { MARKET_MAKER_ACCOUNT_ID, SAMPLE_CONFIG, sampleAccounts, DEMO_ACCOUNT_ID } from '../sample/sample-market.ts';

export interface ServeOptions {
  port: number;
  host: string;
  clock: string;
  /** Injected faults (engine timeouts, firewall); none when absent. */
  faults?: FaultOptions;
}

/** Engine backend whose simulated time follows the pacing, caught up whenever it is read. */
export class PacedBackend extends EngineBackend {
  readonly #pacing: Pacing;

  constructor(config: EngineConfig, pacing: Pacing, setup: readonly EngineCommand[]) {
    super(config, pacing.anchor.simulated, setup);
    this.#pacing = pacing;
  }

  override get now(): number {
    const paced = this.#pacing.simulatedNow();
    if (paced > super.now) this.advanceTo(paced);
    return super.now;
  }
}

/** The rule in the header: judge whichever reading of the stamp is nearer to simulated now. */
export function pacedClientTime(pacing: Pacing): ClientTimeRule {
  if (pacing.speed === 0) return (timestamp) => timestamp.us;
  return (timestamp, simulatedNow) => {
    const asSimulated = timestamp.us;
    const asWallClock = pacing.realNowToSimulated(timestamp.us / 1000);
    return Math.abs(asWallClock - simulatedNow) < Math.abs(asSimulated - simulatedNow) ? asWallClock : asSimulated;
  };
}

/** The market maker's opening ladder: one print and 5 levels a side per symbol. */
function openingBook(time: number): EngineCommand[] {
  const commands: EngineCommand[] = [];
  const ladders = [
    { symbol: 'BTCUSDT', mid: 4_200_000_000_000, tick: 1_000_000, qty: 10_000_000 }, // 42,000.00, 0.1 BTC
    { symbol: 'ETHBTC', mid: 5_500_000, tick: 1_000, qty: 100_000_000 }, // 0.05500, 1 ETH
  ];
  for (const { symbol, mid, tick, qty } of ladders) {
    commands.push({ type: 'RecordMarketTrade', time, symbol, price: mid, quantity: qty, isBuyerMaker: false });
    for (let level = 1; level <= 5; level++) {
      for (const side of ['BUY', 'SELL'] as const) {
        const price = side === 'BUY' ? mid - level * 5 * tick : mid + level * 5 * tick;
        commands.push({ type: 'PlaceOrder', time, accountId: MARKET_MAKER_ACCOUNT_ID, symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: qty });
      }
    }
  }
  return commands;
}

export async function serve(options: ServeOptions, print: (line: string) => void = console.log): Promise<ExsimHttpServer> {
  // The simulation starts at the wall clock's present, so wall-clock and server-time stamps agree at first.
  const start = Math.round(Date.now() * 1000); // determinism-ok: the live server anchors simulated time to the wall clock once
  const pacing = new Pacing(options.clock, { simulatedStart: start });
  const backend = new PacedBackend(SAMPLE_CONFIG, pacing, [...sampleAccounts(start), ...openingBook(start)]);
  const ctx = new ExchangeContext({
    backend,
    apiKeys: [{ apiKey: 'exsim-demo-key', accountId: DEMO_ACCOUNT_ID, keyType: 'HMAC', secretKey: 'exsim-demo-secret' }],
    clientTime: pacedClientTime(pacing),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
  const server = new ExsimHttpServer(ctx);
  const url = await server.listen(options.port, options.host);
  print(`exsim serving the sample market (BTCUSDT, ETHBTC) at ${url}  clock: ${options.clock}`);
  print(`demo credentials: API key exsim-demo-key, HMAC secret exsim-demo-secret (account ${DEMO_ACCOUNT_ID}; 1 BTC, 10 ETH, 100,000 USDT, 10 BNB)`);
  if (options.faults !== undefined && ((options.faults.engineTimeoutProbability ?? 0) > 0 || options.faults.firewall === true)) {
    print(`faults: engine timeouts (-1007) with p=${options.faults.engineTimeoutProbability ?? 0}, firewall ${options.faults.firewall === true ? 'on' : 'off'}, seed ${String(options.faults.seed ?? 'exsim-faults')}`);
  }
  print(`user data stream: ${url.replace('http:', 'ws:')}/ws/<listenKey from POST /api/v3/userDataStream>`);
  print(`try: curl ${url}/api/v3/depth?symbol=BTCUSDT   (Ctrl-C stops)`);
  return server;
}
