import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitForPort } from './free-port.js';
import { signalPid } from './signal-pid.js';

/** One redis-server or redis-sentinel a test started. */
export interface RedisProcess {
  port: number;
  pid: number;
  /** Resolves once the process has exited (reaped). */
  exited: Promise<void>;
}

/** The daemons of one topology, in one directory of their own. */
export interface RedisProcesses {
  dir: string;
  /**
   * Start one more on a free loopback port: `args(port)` are its arguments (a redis-server option list, or a
   * redis-sentinel config file written for that port). A port taken meanwhile by someone else, or one whose
   * cluster bus port (+10000) is not free, is replaced by another.
   */
  start(opts: {
    command: 'redis-server' | 'redis-sentinel';
    name: string;
    args: (port: number, logfile: string) => string[];
    /** requirepass of the server (sentinels have none). */
    password?: string;
    /** A Redis Cluster node: its bus port (port + 10000) must be free too. */
    clusterBus?: boolean;
  }): Promise<RedisProcess>;
  /** The processes still running. */
  live(): RedisProcess[];
  /** kill -9 one (a master, for a failover) and wait until it is gone. */
  kill(p: RedisProcess): Promise<void>;
  /** kill -9 every process and remove the directory. */
  stop(): Promise<void>;
}

/**
 * Fail loudly (never skip) when a command the topologies need is missing: the hint names the Debian
 * package (scripts/preflight.js lists them).
 */
export function requireCommands(commands: readonly string[], hint: string): void {
  for (const command of commands) {
    try {
      execFileSync(command, ['--version'], { stdio: 'pipe' });
    } catch {
      throw new Error(`${command} is not installed: ${hint}`);
    }
  }
}

/** Run `fn` on a fresh connection to one server (no retries: a node that does not answer rejects). */
export async function askRedis<T>(
  port: number,
  password: string | undefined,
  fn: (c: Redis) => Promise<T>,
): Promise<T> {
  const c = new Redis({
    host: '127.0.0.1',
    port,
    ...(password ? { password } : {}),
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return await fn(c);
  } finally {
    c.disconnect();
  }
}

/** Whether nothing listens on the loopback port (a bind succeeds). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free port; for a cluster node also its bus port, which must stay within 65535. */
async function pickPort(clusterBus: boolean): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (!clusterBus || (port + 10000 <= 65535 && (await portFree(port + 10000)))) return port;
  }
}

/**
 * Redis daemons for one test topology, started as child processes of the test (not daemonized: the pid
 * is known at once and an early exit is seen), each on a free loopback port, stopped by pid. A started
 * process counts only once the server on its port says it is that process (INFO process_id): a port
 * another test grabbed in between is never mistaken for ours.
 */
export function redisProcesses(prefix: string): RedisProcesses {
  const dir = mkdtempSync(path.join(tmpdir(), `k8s-health-${prefix}-`));
  const procs: RedisProcess[] = [];
  const alive = new Set<RedisProcess>();
  const kill = async (p: RedisProcess) => {
    try {
      signalPid(p.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    await p.exited;
  };
  const launch = async (
    opts: Parameters<RedisProcesses['start']>[0],
    port: number,
  ): Promise<RedisProcess | { failed: string }> => {
    const logfile = path.join(dir, `${opts.name}-${port}.log`);
    const child = spawn(opts.command, opts.args(port, logfile), { stdio: 'ignore' });
    child.unref();
    let exitedEarly = false;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        exitedEarly = true;
        resolve();
      });
      child.once('error', () => {
        exitedEarly = true;
        resolve();
      });
    });
    const p: RedisProcess = { port, pid: child.pid ?? 0, exited };
    const log = () =>
      existsSync(logfile) ? readFileSync(logfile, 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
    try {
      await Promise.race([waitForPort(port, 10_000), exited.then(() => Promise.reject(new Error('exited')))]);
      const info = await askRedis(port, opts.password, (c) => c.info('server'));
      if (Number(/process_id:(\d+)/.exec(info)?.[1]) === p.pid && !exitedEarly) return p;
      await kill(p);
      return { failed: `port ${port} answered for another process` };
    } catch {
      await kill(p);
      return { failed: `${opts.command} on port ${port} did not start: ${log() || 'no log'}` };
    }
  };
  return {
    dir,
    async start(opts) {
      let last = '';
      for (let attempt = 0; attempt < 5; attempt++) {
        const started = await launch(opts, await pickPort(opts.clusterBus ?? false));
        if ('pid' in started) {
          procs.push(started);
          alive.add(started);
          void started.exited.then(() => alive.delete(started));
          return started;
        }
        last = started.failed;
      }
      throw new Error(`${opts.name}: ${last} (see ${dir})`);
    },
    live: () => procs.filter((p) => alive.has(p)),
    kill,
    async stop() {
      await Promise.all(procs.map(kill));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
