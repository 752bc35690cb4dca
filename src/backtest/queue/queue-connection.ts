/**
 * Where the sweep queue lives: a Redis URL (`redis://HOST:PORT[/DB]`, `rediss://` for TLS) and the
 * one BullMQ queue on it that submitters fill and workers drain. BullMQ 6 builds its Redis clients
 * through a factory; in an ES module it cannot load ioredis itself, so this module installs one
 * (ioredis, the driver BullMQ is written and tested against) before any queue object is made.
 */
// BullMQ and ioredis load only when a queue is used (through `await import`): together they take
// ~0.4 s, which every backtest paid at start-up when backtest/index.ts pulled them in statically.
import type { ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { InputError } from '../input-error.ts';

/** The queue every sweep uses: job ids are content hashes, so sweeps share it without clashing. */
export const QUEUE_NAME = 'exsim-backtests';

/** `--queue` checked: a redis:// or rediss:// URL with a host, an optional port and database number. */
export function parseQueueUrl(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  const db = url?.pathname.replace(/^\//, '') ?? '';
  if (url === null || !(url.protocol === 'redis:' || url.protocol === 'rediss:') || url.hostname === '' || !/^\d*$/.test(db) || url.search !== '' || url.hash !== '') {
    throw new InputError(`--queue must be redis://HOST:PORT[/DB], got "${text}"`);
  }
  return text;
}

let factoryInstalled = false;

/** The connection options BullMQ's Queue, Worker and QueueEvents take (each opens its own clients). */
export async function queueConnection(url: string): Promise<ConnectionOptions> {
  if (!factoryInstalled) {
    const [{ createIORedisClient, RedisConnection }, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
    RedisConnection.clientFactory = (options) => {
      const { url: target, ...rest } = options as typeof options & { url?: string };
      return createIORedisClient(target === undefined ? new Redis(rest) : new Redis(target, rest));
    };
    factoryInstalled = true;
  }
  return { url } as ConnectionOptions;
}

/**
 * A plain client for what BullMQ has no call for (the events stream's last id), checked to answer:
 * an unreachable Redis is one clear error, not a client retrying forever.
 */
export async function openRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000, retryStrategy: (times) => (times > 3 ? null : 200) });
  let cause: string | null = null; // the socket's own error (ECONNREFUSED...), clearer than the client's "Connection is closed"
  redis.on('error', (error: Error) => (cause ??= error.message));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new InputError(`cannot reach Redis at ${url}: ${cause ?? (error instanceof Error ? error.message : String(error))}`);
  }
  return redis;
}
