/**
 * A real, throwaway `redis-server` for the queue tests and bench: a free loopback port (redis
 * has no `--port 0`, so a probe socket picks one; a lost race retries on another), no
 * persistence, a temp folder, stopped at the end. `REDIS_SERVER` is null when the binary is not on
 * PATH (the tests that need it are skipped and say so).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER: string | null = (() => {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
})();

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function launch(binary: string, port: number, dir: string): Promise<ChildProcess | null> {
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.resume();
    child.once('exit', () => resolve(null)); // the port was taken after all: try another
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  if (REDIS_SERVER === null) throw new Error('redis-server is not on PATH');
  const dir = mkdtempSync(join(tmpdir(), 'exsim-redis-'));
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const child = await launch(REDIS_SERVER, port, dir);
    if (child === null) continue;
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: async () => {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error('redis-server did not start on 5 free ports');
}
