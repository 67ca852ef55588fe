import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { freePort, waitForPort } from './free-port.js';
import { pidAlive, signalPid } from './signal-pid.js';

/** One redis-server of the cluster. */
interface Node {
  port: number;
  pid: number;
}

export interface RedisClusterTopology {
  password: string;
  /** `127.0.0.1:port,…` of every node (REDIS_CLUSTER_NODES). */
  nodes: string;
  /** The environment a bot process needs to reach it. */
  env: Record<string, string>;
  /** A cluster client (returned as a `Redis`, as store/connect-redis.ts does). */
  client(): Redis;
  /** CLUSTER INFO of one node ('' when it does not answer). */
  clusterInfo(port: number): Promise<string>;
  /** Port of the master that holds `key`'s slot. */
  masterPortOf(key: string): Promise<number>;
  /** kill -9 the master of `key`'s slot; resolves once its replica is master and the cluster is ok again. */
  killMasterOf(key: string): Promise<{ oldPort: number; newPort: number; failoverMs: number }>;
  /** Stop every node by pid and remove the directory. */
  stop(): Promise<void>;
}

/** Ask one live node. */
async function ask<T>(port: number, password: string, run: (c: Redis) => Promise<T>): Promise<T> {
  const c = new Redis({
    host: '127.0.0.1',
    port,
    password,
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return await run(c);
  } finally {
    c.disconnect();
  }
}

/**
 * A real Redis Cluster on free loopback ports from Debian's redis-server and redis-cli: three masters,
 * each with one replica when `replicas` (for failover tests), requirepass + masterauth,
 * cluster-node-timeout 1 s — created with `redis-cli --cluster create`, started daemonized, stopped
 * by pid. A missing redis-server or redis-cli is a loud failure with the install hint, never a skip.
 */
export async function startRedisCluster(opts: { replicas?: boolean } = {}): Promise<RedisClusterTopology> {
  for (const bin of ['redis-server', 'redis-cli']) {
    try {
      execFileSync(bin, ['--version']);
    } catch {
      throw new Error(
        `${bin} is not installed: run \`apt-get install -y redis-server\` (scripts/preflight.js lists it; redis-cli is in redis-tools)`,
      );
    }
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-cluster-'));
  const password = 'cluster-topology-pw';
  const nodes: Node[] = [];
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
  const pidOf = async (pidfile: string) => {
    for (let i = 0; i < 250; i++) {
      const read = existsSync(pidfile) ? /^(\d+)\n/.exec(readFileSync(pidfile, 'utf8')) : null;
      if (read && Number(read[1]) > 0) return Number(read[1]);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no pid in ${pidfile}`);
  };
  const clusterOk = async (ports: number[]) => {
    for (const port of ports) {
      const info = await ask(port, password, (c) => c.cluster('INFO') as Promise<string>).catch(() => '');
      if (!info.includes('cluster_state:ok')) return false;
    }
    return true;
  };
  try {
    const count = opts.replicas ? 6 : 3;
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const pidfile = path.join(dir, `redis-${port}.pid`);
      execFileSync('redis-server', [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        path.join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '1000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--requirepass',
        password,
        '--masterauth',
        password,
        '--daemonize',
        'yes',
        '--pidfile',
        pidfile,
        '--logfile',
        path.join(dir, `redis-${port}.log`),
      ]);
      await waitForPort(port, 10_000);
      nodes.push({ port, pid: await pidOf(pidfile) });
    }
    execFileSync(
      'redis-cli',
      [
        '-a',
        password,
        '--no-auth-warning',
        '--cluster',
        'create',
        ...nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas',
        opts.replicas ? '1' : '0',
        '--cluster-yes',
      ],
      { stdio: 'pipe' },
    );
    const deadline = Date.now() + 30_000;
    while (!(await clusterOk(nodes.map((n) => n.port)))) {
      if (Date.now() > deadline) throw new Error(`redis cluster: cluster_state not ok within 30 s (see ${dir})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (opts.replicas) {
      // Every replica attached and in sync before a test relies on a failover.
      for (;;) {
        const linked = await Promise.all(
          nodes.map((n) => ask(n.port, password, (c) => c.info('replication')).catch(() => '')),
        );
        if (linked.filter((i) => /role:slave[\s\S]*master_link_status:up/.test(i)).length === 3) break;
        if (Date.now() > deadline) throw new Error(`redis cluster: replicas not in sync within 30 s (see ${dir})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const list = nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  const live = () => nodes.filter((n) => pidAlive(n.pid));
  const masterPortOf = async (key: string): Promise<number> => {
    const slot = await ask(live()[0]!.port, password, (c) => c.cluster('KEYSLOT', key) as Promise<number>);
    for (const n of live()) {
      const shards = await ask(
        n.port,
        password,
        (c) => c.cluster('SLOTS') as unknown as Promise<[number, number, [string, number, string]][]>,
      ).catch(() => undefined);
      const owner = shards?.find(([from, to]) => slot >= from && slot <= to);
      if (owner) return owner[2][1];
    }
    throw new Error('redis cluster: no node answered CLUSTER SLOTS');
  };
  return {
    password,
    nodes: list,
    env: { REDIS_CLUSTER_NODES: list, REDIS_PASSWORD: password },
    client() {
      const c = new Cluster(
        nodes.map((n) => ({ host: '127.0.0.1', port: n.port })),
        { redisOptions: { password } },
      );
      c.on('error', () => undefined);
      return c as unknown as Redis;
    },
    clusterInfo: (port) => ask(port, password, (c) => c.cluster('INFO') as Promise<string>).catch(() => ''),
    masterPortOf,
    async killMasterOf(key) {
      const oldPort = await masterPortOf(key);
      const node = nodes.find((n) => n.port === oldPort)!;
      const started = Date.now();
      signalPid(node.pid, 'SIGKILL');
      for (;;) {
        await new Promise((r) => setTimeout(r, 50));
        const now = await masterPortOf(key).catch(() => oldPort);
        if (now !== oldPort && (await clusterOk(live().map((n) => n.port))))
          return { oldPort, newPort: now, failoverMs: Date.now() - started };
        if (Date.now() - started > 30_000) throw new Error('redis cluster: no failover within 30 s');
      }
    },
    stop,
  };
}
