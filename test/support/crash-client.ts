/**
 * The client side of the journal crash test (test/serve/serve-crash.test.ts) and its long run
 * (bench/serve/crash-long-run.ts): `exsim serve --journal` as a child process, a seeded stream of
 * signed orders, cancels and market orders (fills against the synthetic book) sent one at a time
 * over HTTP, SIGKILLs at seeded points (some while a request is in flight), restarts with the
 * same journal, and after each restart a check that every order acknowledged before the kill is
 * there with the state it was acknowledged in (or, for a resting order, a later one).
 *
 * A request in flight at a kill may or may not have been journaled: after the restart the client
 * finds out by its client order id (as a real bot would) and sends it again only if it is not
 * there, so the crashed run applies the same commands as an uncrashed one and must end with the
 * same engine state hash (printed by the server when it stops).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import seedrandom from 'seedrandom';

/** The accounts the operations rotate over (each has its own order-count window): an --accounts file. */
export const CRASH_ACCOUNTS = [1, 2, 3, 4].map((n) => ({ accountId: n, apiKey: `crash-key-${n}`, secret: `crash-secret-${n}`, balances: { BTC: '5', USDT: '500000' } }));
const credentials = (account: number): { key: string; secret: string } => ({ key: CRASH_ACCOUNTS[account]!.apiKey, secret: CRASH_ACCOUNTS[account]!.secret });

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  output(): string;
}

/** A server process loaded but not serving yet (serve-child.ts); `go` starts it. */
export interface PreparedServer {
  go(): Promise<ServerProcess>;
  /** Ends it unused. */
  discard(): void;
}

/** Loads serve-child.ts with `options` (ServeOptions; port 0). */
export function prepareServer(options: Record<string, unknown>, cwd = process.cwd()): PreparedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/serve-child.ts', JSON.stringify({ port: 0, host: '127.0.0.1', ...options })], { cwd });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    discard: () => void child.kill('SIGKILL'),
    go: () =>
      new Promise((resolve, reject) => {
        const onData = (): void => {
          const url = /at (http:\/\/\S+)/.exec(out)?.[1];
          if (url !== undefined && out.includes('(Ctrl-C stops)')) {
            child.stdout.off('data', onData);
            child.off('exit', onExit);
            resolve({ child, url, output: () => out });
          }
        };
        const onExit = (code: number | null): void => reject(new Error(`serve exited ${code}: ${out}`));
        child.stdout.on('data', onData);
        child.once('exit', onExit);
        child.stdin.write('go\n');
      }),
  };
}

export const exited = (child: ChildProcessWithoutNullStreams): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

/** SIGTERM; resolves with the state hash the server printed. */
export async function stopServer(server: ServerProcess): Promise<string> {
  server.child.kill('SIGTERM');
  await exited(server.child);
  const hash = /state hash ([0-9a-f]{64})/.exec(server.output())?.[1];
  if (hash === undefined) throw new Error(`no state hash in: ${server.output()}`);
  return hash;
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** One signed (or public) request; `time` is the timestamp (the manual clock's simulated ms). */
export async function call(url: string, method: string, path: string, params: Record<string, string>, account: number | null, time: number): Promise<Answer> {
  const query = new URLSearchParams(params);
  const headers: Record<string, string> = {};
  if (account !== null) {
    const { key, secret } = credentials(account);
    query.set('timestamp', String(time));
    query.set('signature', createHmac('sha256', secret).update(query.toString()).digest('hex'));
    headers['X-MBX-APIKEY'] = key;
  }
  const response = await fetch(`${url}${path}?${query.toString()}`, { method, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** One operation of the seeded stream. */
export type Operation =
  | { readonly kind: 'limit'; readonly account: number; readonly id: string; readonly side: 'BUY' | 'SELL'; readonly price: string; readonly quantity: string }
  | { readonly kind: 'market'; readonly account: number; readonly id: string; readonly side: 'BUY' | 'SELL'; readonly quantity: string }
  | { readonly kind: 'cancel'; readonly target: number };

/** `count` operations drawn from `seed` around `mid` (BTCUSDT, cents); cancels name an earlier operation's order. */
export function operations(seed: string, count: number, midCents: number): Operation[] {
  const random = seedrandom(seed);
  const ops: Operation[] = [];
  for (let i = 0; i < count; i++) {
    const r = random();
    const side = random() < 0.5 ? 'BUY' : 'SELL';
    const quantity = (0.001 * (1 + Math.floor(random() * 3))).toFixed(3);
    const account = Math.floor(random() * CRASH_ACCOUNTS.length);
    if (r < 0.2 && i > 0) ops.push({ kind: 'cancel', target: Math.floor(random() * i) });
    else if (r < 0.35) ops.push({ kind: 'market', account, id: `crash-${seed}-${i}`, side, quantity });
    else {
      // Mostly resting a little off the mid; now and then marketable (fills on the synthetic book).
      const offset = Math.round((random() * 0.004 - 0.001) * midCents);
      const cents = side === 'BUY' ? midCents - offset : midCents + offset;
      ops.push({ kind: 'limit', account, id: `crash-${seed}-${i}`, side, price: (cents / 100).toFixed(2), quantity });
    }
  }
  return ops;
}

/** What the client was told about an order. */
export interface Acked {
  readonly account: number;
  readonly orderId: number;
  status: string;
  executedQty: string;
}

const TERMINAL = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'REJECTED']);

/** The client: sends operations in order against whichever server is current, remembering acks. */
export class CrashClient {
  readonly acked = new Map<string, Acked>();
  /** Order id of each operation's order (for cancels). */
  readonly #orderIdOf = new Map<number, string>();
  readonly time: number;
  constructor(time: number) {
    this.time = time;
  }

  /** Sends operation `i`; resolves with the answer (rejects when the server died meanwhile). */
  async send(url: string, ops: readonly Operation[], i: number): Promise<void> {
    const op = ops[i]!;
    if (op.kind === 'cancel') {
      const clientId = this.#orderIdOf.get(op.target);
      const known = clientId === undefined ? undefined : this.acked.get(clientId);
      if (clientId === undefined || known === undefined || TERMINAL.has(known.status)) return;
      const answer = await call(url, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: clientId }, known.account, this.time);
      if (answer.status === 200) this.#note(clientId, known.account, answer.body);
      else if (answer.body['code'] !== -2011) throw new Error(`cancel ${clientId}: ${JSON.stringify(answer.body)}`);
      return;
    }
    const params: Record<string, string> = { symbol: 'BTCUSDT', side: op.side, quantity: op.quantity, newClientOrderId: op.id, newOrderRespType: 'RESULT' };
    if (op.kind === 'limit') Object.assign(params, { type: 'LIMIT', timeInForce: 'GTC', price: op.price });
    else params['type'] = 'MARKET';
    this.#orderIdOf.set(i, op.id);
    const answer = await call(url, 'POST', '/api/v3/order', params, op.account, this.time);
    if (answer.status === 200) this.#note(op.id, op.account, answer.body);
    // Refusals (400, and 429 -1015 once an account's unfilled order count is used up: the manual clock stands still) change nothing.
    else if (answer.status !== 400 && !(answer.status === 429 && answer.body['code'] === -1015)) throw new Error(`order ${op.id}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /**
   * After a restart: whether operation `i` (in flight at the kill) reached the journal. An order
   * is looked up by its client order id; a cancel by its order's status.
   */
  async landed(url: string, ops: readonly Operation[], i: number): Promise<boolean> {
    const op = ops[i]!;
    if (op.kind !== 'cancel') {
      const answer = await call(url, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: op.id }, op.account, this.time);
      if (answer.status !== 200) return false;
      this.#orderIdOf.set(i, op.id);
      this.#note(op.id, op.account, answer.body);
      return true;
    }
    const clientId = this.#orderIdOf.get(op.target);
    const known = clientId === undefined ? undefined : this.acked.get(clientId);
    // A cancel the client would not send (nothing acknowledged to cancel) "landed" as nothing.
    if (clientId === undefined || known === undefined) return true;
    const answer = await call(url, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: clientId }, known.account, this.time);
    const landed = answer.status === 200 && answer.body['status'] === 'CANCELED';
    if (landed) this.#note(clientId, known.account, answer.body);
    return landed;
  }

  /**
   * Every acknowledged order as the server has it now (GET allOrders per account: the manual clock
   * stands still, so the minute's request weight must last the whole run); lists what differs.
   */
  async differences(url: string): Promise<string[]> {
    const problems: string[] = [];
    const server = new Map<string, Record<string, unknown>>();
    for (let account = 0; account < CRASH_ACCOUNTS.length; account++) {
      const answer = await call(url, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', limit: '1000' }, account, this.time);
      if (answer.status !== 200) throw new Error(`allOrders: ${answer.status} ${JSON.stringify(answer.body)}`);
      for (const order of answer.body as unknown as Record<string, unknown>[]) server.set(order['clientOrderId'] as string, order);
    }
    for (const [clientId, acked] of this.acked) {
      const order = server.get(clientId);
      if (order === undefined) {
        problems.push(`${clientId}: acknowledged as #${acked.orderId} ${acked.status}, not there`);
        continue;
      }
      const { orderId, status, executedQty } = order as { orderId: number; status: string; executedQty: string };
      // A resting order may have traded or been cancelled since its ack; a terminal one never changes.
      const same = orderId === acked.orderId && (TERMINAL.has(acked.status) ? status === acked.status && executedQty === acked.executedQty : true);
      if (!same) problems.push(`${clientId}: acknowledged as #${acked.orderId} ${acked.status} ${acked.executedQty}, now #${orderId} ${status} ${executedQty}`);
      else this.#note(clientId, acked.account, order);
    }
    return problems;
  }

  #note(clientId: string, account: number, body: Record<string, unknown>): void {
    this.acked.set(clientId, { account, orderId: body['orderId'] as number, status: body['status'] as string, executedQty: body['executedQty'] as string });
  }
}
