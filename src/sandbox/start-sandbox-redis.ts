import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

/** The Redis the sandbox runs on, and how to wipe and stop it. */
export interface SandboxRedis {
  /** ioredis connection string: REDIS_URL, or the private server's unix socket path. */
  url: string;
  /** Where it came from: the user's REDIS_URL, or a redis-server the sandbox spawned for itself. */
  kind: 'external' | 'private';
  /** Forget everything the sandbox stored (reset, scenario change). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/** The sandbox cannot run: one line saying what is missing and how to fix it (exit 2). */
export class SandboxRedisError extends Error {
  override readonly name = 'SandboxRedisError';
}

/** Set in a REDIS_URL database the sandbox owns; without it a non-empty database is refused. */
const MARKER = 'k8s-health-sandbox:owner';

/**
 * Choose the sandbox's Redis (docs/sandbox.md "Redis"):
 * 1. `REDIS_URL` set: that database, but only when it is empty or was the sandbox's before (the
 *    sandbox wipes its database on every reset, so it never takes one that holds anything else);
 * 2. else a private `redis-server` spawned from PATH, memory only, reachable through a unix socket
 *    in a fresh temporary directory (no TCP port at all), stopped with the sandbox;
 * 3. else a SandboxRedisError naming both ways out.
 * Why not an embedded in-process store: none on npm runs BullMQ, whose Lua scripts need cmsgpack
 * and whose workers need CLIENT and BZPOPMIN (measured with ioredis-mock 8.13, docs/sandbox.md).
 */
export async function startSandboxRedis(opts: { redisUrl?: string; redisServerBinary?: string }): Promise<SandboxRedis> {
  if (opts.redisUrl) return useExternal(opts.redisUrl);
  const binary = opts.redisServerBinary ?? 'redis-server';
  if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new SandboxRedisError(
      `the sandbox needs Redis and found no ${binary} on PATH: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to an empty Redis database (e.g. redis://127.0.0.1:6379/15)`,
    );
  }
  return startPrivate(binary);
}

async function useExternal(url: string): Promise<SandboxRedis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys = await redis.dbsize();
    if (keys > 0 && !(await redis.exists(MARKER))) {
      throw new SandboxRedisError(`REDIS_URL ${redactUrl(url)} holds ${keys} keys that are not the sandbox's: the sandbox wipes its database on every reset, so give it an empty one (e.g. redis://127.0.0.1:6379/15)`);
    }
    await redis.set(MARKER, '1');
  } catch (err) {
    redis.disconnect();
    if (err instanceof SandboxRedisError) throw err;
    throw new SandboxRedisError(`cannot use REDIS_URL ${redactUrl(url)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    url,
    kind: 'external',
    async flush() {
      await redis.flushdb();
      await redis.set(MARKER, '1');
    },
    async stop() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

async function startPrivate(binary: string): Promise<SandboxRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-sandbox-redis-'));
  const socket = path.join(dir, 'redis.sock');
  // --port 0: no TCP listener, only the socket in our own 0700 directory; nothing is saved to disk.
  const child: ChildProcess = spawn(binary, ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // If the sandbox exits without stop() (an uncaught error), its redis-server goes with it.
  const killOnExit = () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
  process.once('exit', killOnExit);
  const redis = new Redis(socket, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  const stop = async () => {
    process.off('exit', killOnExit);
    redis.disconnect();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000).unref())]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await redis.connect();
      await redis.ping();
      break;
    } catch (err) {
      redis.disconnect();
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new SandboxRedisError(`the private ${binary} did not start: ${err instanceof Error ? err.message : String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { url: socket, kind: 'private', flush: async () => void (await redis.flushall()), stop };
}

/** A Redis URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
