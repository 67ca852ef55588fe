import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitForPort } from './free-port.js';
import { pidAlive, signalPid } from './signal-pid.js';

/** One daemon of the topology. */
interface Node {
  role: 'redis' | 'sentinel';
  port: number;
  pidfile: string;
  pid: number;
}

export interface RedisSentinelTopology {
  master: string;
  password: string;
  /** `host:port,…` of the three sentinels (REDIS_SENTINELS). */
  sentinels: string;
  /** The environment a bot process needs to reach it. */
  env: Record<string, string>;
  /** A client of the current master (through the sentinels). */
  client(): Redis;
  /** Port of the current master, as the sentinels say. */
  masterPort(): Promise<number>;
  /** kill -9 the current master; resolves once a sentinel names another one (the failover). */
  killMaster(): Promise<{ oldPort: number; newPort: number; failoverMs: number }>;
  /** Stop every daemon by pid and remove the directory. */
  stop(): Promise<void>;
}

const MASTER = 'k8shealth';

/**
 * A real Sentinel topology on free loopback ports from Debian's packages: a master, two replicas
 * (requirepass + masterauth) and three sentinels (quorum 2, down-after 1 s) — started daemonized,
 * stopped by pid. A missing redis-sentinel is a loud failure with the install hint, never a skip.
 */
export async function startRedisSentinel(): Promise<RedisSentinelTopology> {
  try {
    execFileSync('redis-sentinel', ['--version']);
  } catch {
    throw new Error(
      'redis-sentinel is not installed: run `apt-get install -y redis-sentinel` (scripts/preflight.js lists it)',
    );
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-sentinel-'));
  const password = 'sentinel-topology-pw';
  const nodes: Node[] = [];
  const pidOf = async (pidfile: string) => {
    for (let i = 0; i < 250; i++) {
      const read = existsSync(pidfile) ? /^(\d+)\n/.exec(readFileSync(pidfile, 'utf8')) : null;
      if (read && Number(read[1]) > 0) return Number(read[1]);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no pid in ${pidfile}`);
  };
  const stop = async () => {
    for (const n of nodes) {
      try {
        signalPid(n.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    for (const n of nodes) for (let i = 0; i < 200 && pidAlive(n.pid); i++) await new Promise((r) => setTimeout(r, 25));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = [await freePort(), await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      const pidfile = path.join(dir, `redis-${port}.pid`);
      execFileSync('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--dir',
        dir,
        '--appendfilename',
        `aof-${port}.aof`,
        '--appenddirname',
        `aof-${port}`,
        '--requirepass',
        password,
        '--masterauth',
        password,
        ...(i > 0 ? ['--replicaof', '127.0.0.1', String(ports[0])] : []),
        '--daemonize',
        'yes',
        '--pidfile',
        pidfile,
        '--logfile',
        path.join(dir, `redis-${port}.log`),
      ]);
      await waitForPort(port, 10_000);
      nodes.push({ role: 'redis', port, pidfile, pid: await pidOf(pidfile) });
    }
    const sentinelPorts = [await freePort(), await freePort(), await freePort()];
    for (const port of sentinelPorts) {
      const pidfile = path.join(dir, `sentinel-${port}.pid`);
      const conf = path.join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'daemonize yes',
          `pidfile ${pidfile}`,
          `logfile ${path.join(dir, `sentinel-${port}.log`)}`,
          `dir ${dir}`,
          `sentinel monitor ${MASTER} 127.0.0.1 ${ports[0]} 2`,
          `sentinel auth-pass ${MASTER} ${password}`,
          `sentinel down-after-milliseconds ${MASTER} 1000`,
          `sentinel failover-timeout ${MASTER} 5000`,
          `sentinel parallel-syncs ${MASTER} 1`,
          '',
        ].join('\n'),
      );
      execFileSync('redis-sentinel', [conf]);
      await waitForPort(port, 10_000);
      nodes.push({ role: 'sentinel', port, pidfile, pid: await pidOf(pidfile) });
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const sentinels = nodes
    .filter((n) => n.role === 'sentinel')
    .map((n) => `127.0.0.1:${n.port}`)
    .join(',');
  const askSentinels = async (): Promise<number> => {
    for (const n of nodes.filter((x) => x.role === 'sentinel' && pidAlive(x.pid))) {
      const s = new Redis({
        host: '127.0.0.1',
        port: n.port,
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      s.on('error', () => undefined);
      try {
        await s.connect();
        const [, port] = (await s.call('SENTINEL', 'get-master-addr-by-name', MASTER)) as [string, string];
        return Number(port);
      } catch {
        // next sentinel
      } finally {
        s.disconnect();
      }
    }
    throw new Error('no sentinel answered');
  };
  // Replicas in sync and every sentinel aware of them before any test relies on a failover.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const c = new Redis({ host: '127.0.0.1', port: nodes[0]!.port, password, lazyConnect: true });
    c.on('error', () => undefined);
    const info = await c.connect().then(
      () => c.info('replication'),
      () => '',
    );
    c.disconnect();
    if ((info.match(/state=online/g) ?? []).length === 2) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`sentinel topology: replicas not in sync within 20 s (see ${dir})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const topology: RedisSentinelTopology = {
    master: MASTER,
    password,
    sentinels,
    env: { REDIS_SENTINELS: sentinels, REDIS_SENTINEL_MASTER: MASTER, REDIS_PASSWORD: password },
    client() {
      const c = new Redis({
        sentinels: sentinels.split(',').map((s) => ({ host: '127.0.0.1', port: Number(s.split(':')[1]) })),
        name: MASTER,
        password,
      });
      c.on('error', () => undefined);
      return c;
    },
    masterPort: askSentinels,
    async killMaster() {
      const oldPort = await askSentinels();
      const node = nodes.find((n) => n.port === oldPort)!;
      const started = Date.now();
      signalPid(node.pid, 'SIGKILL');
      for (;;) {
        const now = await askSentinels().catch(() => oldPort);
        if (now !== oldPort) return { oldPort, newPort: now, failoverMs: Date.now() - started };
        if (Date.now() - started > 30_000) throw new Error('sentinel topology: no failover within 30 s');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop,
  };
  return topology;
}
