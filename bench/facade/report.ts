/**
 * Output of the facade benches: JSON result lines (one object per row; field names are a
 * contract for whoever tracks the numbers: add fields, do not rename them) and human tables.
 */
import { HTTP_BENCH_NAME, TARGET_HTTP_PER_SEC, type HttpBenchResult } from './http-bench.ts';
import { INPROCESS_BENCH_NAME, TARGET_INPROCESS_PER_SEC, type InProcessResult } from './inprocess-bench.ts';

const round = (x: number, digits: number): number => Number(x.toFixed(digits));
const int = (x: number): string => Math.round(x).toLocaleString('en-US');
const common = (): { node: string; nodeFlags: string[] } => ({ node: process.version, nodeFlags: process.execArgv.filter((a) => a.startsWith('--max')) });

function formatTable(header: readonly string[], rows: readonly string[][], leftColumns: number): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (cells: readonly string[]): string =>
    cells.map((c, i) => (i < leftColumns || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}

const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');

export function inProcessJsonLines(r: InProcessResult): string[] {
  return r.rows.map((row) =>
    JSON.stringify({
      name: `${INPROCESS_BENCH_NAME}/${row.workload}/${row.mode}`,
      workload: row.workload,
      mode: row.mode,
      signed: row.signed,
      requestsPerSec: Math.round(row.requestsPerSec),
      requestsPerCpuSec: Math.round(row.requestsPerCpuSec),
      meanUs: round(row.meanUs, 3),
      requests: row.requests,
      runs: r.runs,
      warmupRequests: r.warmup,
      traders: r.traders,
      runsRequestsPerSec: row.runsRequestsPerSec.map(Math.round),
      rejected: row.rejected,
      firstRejection: row.firstRejection,
      bodyBytes: Math.round(row.bodyBytes),
      targetRequestsPerSec: row.signed && row.mode === 'server' ? TARGET_INPROCESS_PER_SEC : null,
      ...common(),
    }),
  );
}

export function inProcessTable(r: InProcessResult): string {
  const lines: string[] = [];
  lines.push(
    `${INPROCESS_BENCH_NAME}  node ${process.version}, ${int(r.requests)} requests per pass, ${r.runs} pass(es) per row (median shown) after ${int(r.warmup)} warm-up; ` +
      `${r.traders} traders, Binance rate limits on simulated time (+1 ms per request)`,
  );
  lines.push('order: signed POST /api/v3/order (LIMIT GTC, BUY/SELL filling each other); depth: GET depth limit=20; bookTicker: GET ticker/bookTicker');
  lines.push('server: pre-signed requests -> handleRequest; client: InProcessClient (builds, signs, JSON.parses the answer)');
  lines.push('');
  const rows = r.rows.map((row) => [
    row.workload,
    row.mode,
    int(row.requestsPerSec),
    row.meanUs.toFixed(2),
    int(row.requestsPerCpuSec),
    String(Math.round(row.bodyBytes)),
    String(row.rejected),
    row.runsRequestsPerSec.map(int).join(' / '),
  ]);
  lines.push(...formatTable(['workload', 'mode', 'req/s', 'µs/req', 'req/CPU-s', 'bytes', 'rejected', 'runs req/s'], rows, 2));
  for (const row of r.rows) if (row.firstRejection !== null) lines.push(`  ${row.workload}/${row.mode}: first rejection ${row.firstRejection}`);
  const order = r.rows.find((row) => row.workload === 'order' && row.mode === 'server');
  if (order !== undefined) {
    lines.push('');
    lines.push(
      `signed orders through handleRequest: ${int(order.requestsPerSec)} req/s (target >= ${int(TARGET_INPROCESS_PER_SEC)}: ${met(order.requestsPerSec >= TARGET_INPROCESS_PER_SEC)}); ` +
        `${int(order.requestsPerCpuSec)} per CPU-second`,
    );
  }
  lines.push('req/CPU-s: requests per second of this process\'s CPU time; on a busy machine it is what an idle core would give');
  lines.push(`(${r.totalSeconds.toFixed(1)} s total)`);
  return lines.join('\n');
}

function ratioToBare(r: HttpBenchResult, requestsPerSec: number): number | null {
  const bare = r.rows.find((row) => row.server === 'bare');
  return bare === undefined ? null : requestsPerSec / bare.requestsPerSec;
}

export function httpJsonLines(r: HttpBenchResult): string[] {
  return r.rows.map((row) => {
    const ratio = row.server === 'bare' ? null : ratioToBare(r, row.requestsPerSec);
    return JSON.stringify({
      name: `${HTTP_BENCH_NAME}/${row.workload}`,
      workload: row.workload,
      server: row.server,
      requestsPerSec: Math.round(row.requestsPerSec),
      ratioToBare: ratio === null ? null : round(ratio, 3),
      requestsPerServerCpuSec: Math.round(row.requestsPerServerCpuSec),
      requests: row.requests,
      seconds: row.seconds,
      latencyP50Ms: row.latencyP50Ms,
      latencyP99Ms: row.latencyP99Ms,
      non2xx: row.non2xx,
      errors: row.errors,
      connections: r.connections,
      warmupSeconds: r.warmupSeconds,
      loadGenerator: `autocannon ${r.autocannonVersion}`,
      targetRequestsPerSec: row.server === 'exsim' ? TARGET_HTTP_PER_SEC : null,
      ...common(),
    });
  });
}

export function httpTable(r: HttpBenchResult): string {
  const lines: string[] = [];
  lines.push(
    `${HTTP_BENCH_NAME}  node ${process.version}, autocannon ${r.autocannonVersion} in this process, each server in a child process; ` +
      `${r.connections} keep-alive connections, ${r.warmupSeconds} s warm-up + ${r.duration} s measured per row`,
  );
  lines.push('bare: node:http constant JSON; bookTicker: GET ticker/bookTicker; order: signed POST /api/v3/order (pre-signed, recvWindow 60000)');
  lines.push('exsim as `exsim serve` runs it (realtime pacing), rate limits raised out of reach: one loopback IP stands in for all clients');
  lines.push('');
  const rows = r.rows.map((row) => {
    const ratio = row.server === 'bare' ? null : ratioToBare(r, row.requestsPerSec);
    return [
      row.workload,
      row.server,
      int(row.requestsPerSec),
      ratio === null ? '' : `${ratio.toFixed(2)}x`,
      int(row.requestsPerServerCpuSec),
      String(row.latencyP50Ms),
      String(row.latencyP99Ms),
      String(row.non2xx),
      String(row.errors),
    ];
  });
  lines.push(...formatTable(['workload', 'server', 'req/s', 'x bare', 'req/server-CPU-s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'], rows, 2));
  lines.push('');
  for (const row of r.rows) {
    if (row.server !== 'exsim') continue;
    lines.push(`exsim ${row.workload}: ${int(row.requestsPerSec)} req/s (target >= ${int(TARGET_HTTP_PER_SEC)}: ${met(row.requestsPerSec >= TARGET_HTTP_PER_SEC)})`);
  }
  lines.push('req/server-CPU-s: requests per CPU-second of the server process; when it is well above req/s the load generator, not the server, was the limit');
  return lines.join('\n');
}
