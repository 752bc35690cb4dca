/**
 * Profiling driver (not a bench row): signed POST /api/v3/order through handleRequest, the
 * inprocess bench's "order (server)" loop without its passes and reporting, so a CPU profile of
 * the process is almost only the facade. Usage:
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/facade/profile-order.ts [requests] [order|depth|bookTicker]
 * Prints requests per CPU-second of the timed loop.
 */
import { handleRequest, type ApiRequest } from '../../src/api-facade/rest/handle-request.ts';
import { BOOK_TICKER_PATH, BOOK_TICKER_QUERY, DEFAULT_TRADERS, DEPTH_PATH, DEPTH_QUERY, makeInProcessExchange, makeTraders, signedOrderRequest } from './bench-exchange.ts';

const total = Number(process.argv[2] ?? 200_000);
const workload = process.argv[3] ?? 'order';
const traders = makeTraders(DEFAULT_TRADERS);
const { backend, ctx } = makeInProcessExchange(traders);
const STEP_US = 1_000;
const CHUNK = 4_096;
let k = 0;
let rejected = 0;
let cpuUs = 0;
const market: ApiRequest[] = traders.map((t) => ({ method: 'GET', path: workload === 'depth' ? DEPTH_PATH : BOOK_TICKER_PATH, rawQuery: workload === 'depth' ? DEPTH_QUERY : BOOK_TICKER_QUERY, rawBody: '', headers: {}, ip: t.ip }));
for (let done = 0; done < total; ) {
  const n = Math.min(CHUNK, total - done);
  const batch: ApiRequest[] = [];
  for (let i = 0; i < n; i++) batch.push(workload === 'order' ? signedOrderRequest(k + i, traders, Math.floor((backend.now + (i + 1) * STEP_US) / 1000)) : market[(k + i) % market.length]!);
  const c0 = process.cpuUsage(); // determinism-ok: bench timing
  for (let i = 0; i < n; i++) {
    backend.advanceTo(backend.now + STEP_US);
    if (handleRequest(ctx, batch[i]!).status !== 200) rejected++;
  }
  const c = process.cpuUsage(c0); // determinism-ok: bench timing
  cpuUs += c.user + c.system;
  k += n;
  done += n;
}
console.log(`${workload}: ${total} requests, ${rejected} rejected, ${Math.round(total / (cpuUs / 1e6)).toLocaleString('en-US')} req/CPU-s`);
