/**
 * The strategy's REST client: the in-process facade behind a simulated network.
 *
 * A call is built (signed, `timestamp` = simulated now) when the strategy makes it. Without a
 * latency model it is handled at once and the promise is already resolved. With one, the
 * request travels for an entry latency (cancel latency for DELETE /api/v3/order and
 * /api/v3/openOrders) drawn at send time, is handled by the exchange when it arrives (a timer
 * on the replay's Scheduler, so every print before that time comes first and a stale
 * `timestamp` can fail recvWindow, as live), and its answer comes back one ack latency later.
 * Every draw uses the replay's LatencyModel, whose streams are seeded from the backtest's seed.
 */
import type { InProcessClient } from '../api-facade/index.ts';
import type { Scheduler } from '../clock/index.ts';
import type { LatencyModel } from '../sim/index.ts';
import { RestCallError, type RestMethod, type RestParams, type RestResponse, type StrategyClient } from './strategy.ts';

const CANCEL_PATHS = new Set(['/api/v3/order', '/api/v3/openOrders', '/api/v3/orderList']);

export interface SimRestClientOptions {
  readonly client: InProcessClient;
  readonly scheduler: Scheduler;
  /** Null: every call is handled at the current simulated time. */
  readonly latency: LatencyModel | null;
  /** Sees every call once answered (the report counts requests and refusals). */
  readonly onResponse?: (method: RestMethod, path: string, response: RestResponse) => void;
  /** Called when a call is made and when its answer resolves: the strategy has work to settle. */
  readonly onActivity?: () => void;
}

export class SimRestClient implements StrategyClient {
  readonly #options: SimRestClientOptions;
  #closed = false;

  constructor(options: SimRestClientOptions) {
    this.#options = options;
  }

  /** After the backtest's end calls are handled at once, whatever the latency (onStop hooks). */
  close(): void {
    this.#closed = true;
  }

  request(method: RestMethod, path: string, params: RestParams = {}): Promise<RestResponse> {
    const { client, scheduler, latency, onActivity } = this.#options;
    onActivity?.();
    const prepared = client.prepare(method, path, params);
    if (latency === null || this.#closed) return Promise.resolve(this.#answer(method, path, client.send(prepared)));
    const sentAt = scheduler.now;
    const leg = method === 'DELETE' && CANCEL_PATHS.has(path) ? 'cancel' : 'entry';
    const arrivesAt = sentAt + latency.draw(leg, sentAt).micros;
    return new Promise((resolve) => {
      scheduler.schedule(arrivesAt, () => {
        const response = this.#answer(method, path, client.send(prepared));
        const backAt = arrivesAt + latency.draw('ack', arrivesAt).micros;
        scheduler.schedule(backAt, () => {
          onActivity?.();
          resolve(response);
        });
      });
    });
  }

  async get<T = unknown>(path: string, params?: RestParams): Promise<T> {
    return this.#ok<T>('GET', path, params);
  }
  async post<T = unknown>(path: string, params?: RestParams): Promise<T> {
    return this.#ok<T>('POST', path, params);
  }
  async put<T = unknown>(path: string, params?: RestParams): Promise<T> {
    return this.#ok<T>('PUT', path, params);
  }
  async delete<T = unknown>(path: string, params?: RestParams): Promise<T> {
    return this.#ok<T>('DELETE', path, params);
  }

  async #ok<T>(method: RestMethod, path: string, params: RestParams | undefined): Promise<T> {
    const response = await this.request(method, path, params);
    if (response.status >= 200 && response.status < 300) return response.json as T;
    const body = (response.json ?? {}) as { code?: unknown; msg?: unknown };
    throw new RestCallError(method, path, response.status, Number(body.code ?? 0), String(body.msg ?? ''));
  }

  #answer(method: RestMethod, path: string, raw: { status: number; headers: Readonly<Record<string, string>>; json: unknown }): RestResponse {
    const response: RestResponse = { status: raw.status, headers: raw.headers, json: raw.json };
    this.#options.onResponse?.(method, path, response);
    return response;
  }
}
