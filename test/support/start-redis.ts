import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';

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
 * A missing redis-server is a loud failure with the install hint, never a skip.
 */
export async function startRedis(opts: { appendonly?: boolean } = {}): Promise<RedisServer> {
  const probe = spawnSync('redis-server', ['--version']);
  if (probe.error || probe.status !== 0) {
    throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (.ci/run does this)');
  }
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-redis-'));
  const pidfile = path.join(dir, 'redis.pid');
  const launch = async () => {
    rmSync(pidfile, { force: true });
    execFileSync('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--save', '',
      '--appendonly', opts.appendonly ? 'yes' : 'no', '--dir', dir,
      '--daemonize', 'yes', '--pidfile', pidfile, '--logfile', path.join(dir, 'redis.log'),
    ]);
    await waitForPort(port, 10000);
    for (let i = 0; i < 100 && !existsSync(pidfile); i++) await new Promise((r) => setTimeout(r, 20));
    return Number(readFileSync(pidfile, 'utf8').trim());
  };
  let pid = await launch();
  const killPid = async (signal: NodeJS.Signals) => {
    try { process.kill(pid, signal); } catch { return; }
    for (let i = 0; i < 200; i++) {
      try { process.kill(pid, 0); } catch { return; }
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() { return pid; },
    dir,
    kill: (hard = false) => killPid(hard ? 'SIGKILL' : 'SIGTERM'),
    restart: async () => { pid = await launch(); },
    stop: async () => { await killPid('SIGTERM'); rmSync(dir, { recursive: true, force: true }); },
  };
  return server;
}
