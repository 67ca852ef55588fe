import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Cluster, type Redis } from 'ioredis';
import { askRedis, redisProcesses, requireCommands, type RedisProcess } from './redis-processes.js';

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
  /** Resolves once every replica has everything its master had when asked (asynchronous replication). */
  replicated(): Promise<void>;
  /** kill -9 the master of `key`'s slot; resolves once its replica is master and the cluster is ok again. */
  killMasterOf(key: string): Promise<{ oldPort: number; newPort: number; failoverMs: number }>;
  /** Stop every node by pid and remove the directory. */
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster on free loopback ports from Debian's redis-server and redis-cli: three masters,
 * each with one replica when `replicas` (for failover tests), requirepass + masterauth,
 * cluster-node-timeout 1 s — joined with `redis-cli --cluster create`, stopped by pid
 * (test/support/redis-processes.ts). A missing redis-server or redis-cli is a loud failure with the
 * install hint, never a skip.
 */
export async function startRedisCluster(opts: { replicas?: boolean } = {}): Promise<RedisClusterTopology> {
  requireCommands(
    ['redis-server', 'redis-cli'],
    'run `apt-get install -y redis-server` (scripts/preflight.js lists it; redis-cli is in redis-tools)',
  );
  const procs = redisProcesses('cluster');
  const password = 'cluster-topology-pw';
  const nodes: RedisProcess[] = [];
  const clusterOk = async (ports: number[]) => {
    for (const port of ports) {
      const info = await askRedis(port, password, (c) => c.cluster('INFO') as Promise<string>).catch(() => '');
      if (!info.includes('cluster_state:ok')) return false;
    }
    return true;
  };
  try {
    for (let i = 0; i < (opts.replicas ? 6 : 3); i++) {
      nodes.push(
        await procs.start({
          command: 'redis-server',
          name: 'redis',
          password,
          clusterBus: true,
          args: (port, logfile) => [
            '--port',
            String(port),
            '--bind',
            '127.0.0.1',
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            path.join(procs.dir, `nodes-${port}.conf`),
            '--cluster-node-timeout',
            '1000',
            '--save',
            '',
            '--appendonly',
            'no',
            '--dir',
            procs.dir,
            '--requirepass',
            password,
            '--masterauth',
            password,
            '--logfile',
            logfile,
          ],
        }),
      );
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
      if (Date.now() > deadline) throw new Error(`redis cluster: cluster_state not ok within 30 s (see ${procs.dir})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (opts.replicas) {
      // Every replica attached and in sync before a test relies on a failover.
      for (;;) {
        const linked = await Promise.all(
          nodes.map((n) => askRedis(n.port, password, (c) => c.info('replication')).catch(() => '')),
        );
        if (linked.filter((i) => /role:slave[\s\S]*master_link_status:up/.test(i)).length === 3) break;
        if (Date.now() > deadline)
          throw new Error(`redis cluster: replicas not in sync within 30 s (see ${procs.dir})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (err) {
    await procs.stop();
    throw err;
  }
  const list = nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  const masterPortOf = async (key: string): Promise<number> => {
    const live = procs.live();
    const slot = await askRedis(live[0]!.port, password, (c) => c.cluster('KEYSLOT', key) as Promise<number>);
    for (const n of live) {
      const shards = await askRedis(
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
    async replicated() {
      // Up to each master's offset when asked: the bot's workers keep writing, so "all of it" moves on.
      const offsetOf = (info: string) => Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? -1);
      for (const node of nodes.filter((n) => procs.live().includes(n))) {
        const first = await askRedis(node.port, password, (c) => c.info('replication'));
        if (!first.includes('role:master')) continue;
        for (let i = 0; ; i++) {
          const info = await askRedis(node.port, password, (c) => c.info('replication'));
          const replicas = [...info.matchAll(/slave\d+:.*?offset=(\d+)/g)].map((m) => Number(m[1]));
          if (replicas.every((o) => o >= offsetOf(first))) break;
          if (i > 200) throw new Error('redis cluster: replicas did not catch up within 10 s');
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    },
    clusterInfo: (port) => askRedis(port, password, (c) => c.cluster('INFO') as Promise<string>).catch(() => ''),
    masterPortOf,
    async killMasterOf(key) {
      const oldPort = await masterPortOf(key);
      const started = Date.now();
      await procs.kill(nodes.find((n) => n.port === oldPort)!);
      for (;;) {
        await new Promise((r) => setTimeout(r, 50));
        const now = await masterPortOf(key).catch(() => oldPort);
        if (now !== oldPort && (await clusterOk(procs.live().map((n) => n.port))))
          return { oldPort, newPort: now, failoverMs: Date.now() - started };
        if (Date.now() - started > 30_000) throw new Error('redis cluster: no failover within 30 s');
      }
    },
    stop: () => procs.stop(),
  };
}
