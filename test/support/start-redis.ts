import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';
import { pidAlive, signalPid } from './signal-pid.js';

export interface RedisServer {
  port: number;
  url: string;
  pid: number;
  dir: string;
  /** Stop by pid (SIGKILL when `hard`), keep the data dir (for restart tests). */
  kill(hard?: boolean): Promise<void>;
  /** Start again on the same port and dir (AOF data survives when `appendonly` was set). */
  restart(): Promise<void>;
  /** Stop and remove the data dir. */
  stop(): Promise<void>;
}

/**
 * Start a private real redis-server on a free loopback port (never the shared 6379).
 * A missing redis-server is a loud failure with the install hint, never a skip. `port` starts it where a
 * process under test already expects it (a Redis that comes up late); `password` sets requirepass.
 */
export async function startRedis(
  opts: { appendonly?: boolean; port?: number; password?: string } = {},
): Promise<RedisServer> {
  const probe = spawnSync('redis-server', ['--version']);
  if (probe.error || probe.status !== 0) {
    throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (.ci/run does this)');
  }
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-redis-'));
  const pidfile = path.join(dir, 'redis.pid');
  const launch = async () => {
    rmSync(pidfile, { force: true });
    execFileSync('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      opts.appendonly ? 'yes' : 'no',
      '--dir',
      dir,
      ...(opts.password ? ['--requirepass', opts.password] : []),
      '--daemonize',
      'yes',
      '--pidfile',
      pidfile,
      '--logfile',
      path.join(dir, 'redis.log'),
    ]);
    await waitForPort(port, 10000);
    // redis writes the pidfile after it starts listening: wait for a whole line, since a
    // file that exists but is still empty would read as pid 0 (the whole process group).
    for (let i = 0; i < 250; i++) {
      const text = existsSync(pidfile) ? readFileSync(pidfile, 'utf8') : '';
      const read = /^(\d+)\n/.exec(text);
      if (read && Number(read[1]) > 0) return Number(read[1]);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(
      `redis-server on port ${port} wrote no pid to ${pidfile} within 5 s (see ${path.join(dir, 'redis.log')})`,
    );
  };
  let pid: number;
  try {
    pid = await launch();
  } catch (err) {
    // The daemon may be up without a readable pid: ask it to go over its own port, so a failed
    // start never leaves a redis-server behind.
    await shutdownByPort(port, opts.password);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const killPid = async (signal: NodeJS.Signals) => {
    try {
      signalPid(pid, signal);
    } catch {
      return;
    }
    for (let i = 0; i < 200; i++) {
      if (!pidAlive(pid)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const server: RedisServer = {
    port,
    url: opts.password
      ? `redis://:${encodeURIComponent(opts.password)}@127.0.0.1:${port}`
      : `redis://127.0.0.1:${port}`,
    get pid() {
      return pid;
    },
    dir,
    kill: (hard = false) => killPid(hard ? 'SIGKILL' : 'SIGTERM'),
    restart: async () => {
      pid = await launch();
    },
    stop: async () => {
      await killPid('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

function shutdownByPort(port: number, password?: string): Promise<void> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1', () =>
      sock.end(`${password ? `AUTH ${password}\r\n` : ''}SHUTDOWN NOSAVE\r\n`),
    );
    sock.setTimeout(2000, () => sock.destroy());
    sock.on('error', () => resolve());
    sock.on('close', () => resolve());
  });
}
