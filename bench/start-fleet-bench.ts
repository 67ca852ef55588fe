import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis, type Cluster } from 'ioredis';
import { scanKeys } from '../src/store/scan-keys.js';
import { startFakeSlackApi, type FakeSlackApi } from '../test/support/fake-slack-api.js';
import { startRedis } from '../test/support/start-redis.js';
import { startRedisCluster } from '../test/support/start-redis-cluster.js';

/** What one fake workload API server saw (bench/serve-fleet.ts `stats`). */
export interface ClusterStats {
  requests: number;
  lists: number;
  watches: number;
  /** Watches open now, and how many distinct kinds they are (open > openUnique: a kind watched twice). */
  open: number;
  openUnique: number;
}

/** The fake workload API servers of a fleet bench, one per cluster, in serve-fleet children of ≤ 500 each. */
export interface FleetApiServers {
  urls: string[];
  /** Every cluster's request counts, in `urls` order. */
  stats(): Promise<ClusterStats[]>;
  /** The first node of cluster `index` goes NotReady (a MODIFIED watch event); when it was sent, and the node. */
  emit(index: number): Promise<{ at: number; node: string }>;
}

/** A `k8s-health worker` process of the bench. */
export interface BenchWorker {
  child: ChildProcess;
  pid: number;
  /** The last 20 000 characters it printed. */
  output(): string;
}

/** What both fleet benches stand on: Redis (one server or a Redis Cluster), the fake Slack, API servers, workers. */
export interface FleetBench {
  /** A fresh temporary directory for configs and kubeconfigs. */
  dir: string;
  log(line: string): void;
  sleep(ms: number): Promise<void>;
  /** The bot's Redis as a worker process is told where it is (REDIS_URL, or REDIS_CLUSTER_NODES + REDIS_PASSWORD). */
  redisEnv: Record<string, string>;
  /** A client of it (a `Cluster`, returned as a `Redis`, on a Redis Cluster). */
  redis: Redis;
  /** Empty it (every master of a Redis Cluster). */
  flushAll(): Promise<void>;
  /** Every key matching `match` (every master of a Redis Cluster). */
  keys(match: string): Promise<string[]>;
  slack: FakeSlackApi;
  startApiServers(count: number): Promise<FleetApiServers>;
  /** Spawn the built worker with `config`; resolves once it said its workers run. `onLine`: each stdout line. */
  spawnWorker(config: string, opts?: { logLevel?: string; onLine?: (line: string) => void }): Promise<BenchWorker>;
  /** kill -9 and wait for the exit. */
  kill9(w: BenchWorker): Promise<void>;
  /** Stop every process it started (by pid) and Redis. */
  close(): Promise<void>;
}

const SERVER_SHARE = 500;

/**
 * The set-up shared by bench/measure-fleet.ts and bench/measure-fleet-incident.ts. `root` is the
 * repository (bin/k8s-health.js, dist-check/bench/serve-fleet.js); `redisCluster` runs the bot on a
 * real Redis Cluster of three masters (test/support/start-redis-cluster.ts) instead of one redis-server.
 */
export async function startFleetBench(opts: {
  root: string;
  tag: string;
  redisCluster?: boolean;
}): Promise<FleetBench> {
  const log = (line: string) =>
    process.stderr.write(`[${opts.tag} ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const children = new Set<ChildProcess>();
  process.on('exit', () => {
    for (const c of children) c.kill('SIGKILL');
  });

  const single = opts.redisCluster ? undefined : await startRedis();
  const topology = opts.redisCluster ? await startRedisCluster() : undefined;
  const redisEnv: Record<string, string> = topology ? topology.env : { REDIS_URL: single!.url };
  const redis = topology ? topology.client() : new Redis(single!.url);
  const masters = () => (topology ? (redis as unknown as Cluster).nodes('master') : [redis]);
  const slack = await startFakeSlackApi();
  const dir = await mkdtemp(path.join(tmpdir(), `bench-${opts.tag}-`));

  async function startServer(count: number) {
    const child = fork(
      path.join(opts.root, 'dist-check/bench/serve-fleet.js'),
      [path.join(opts.root, 'examples/scenarios/benign-healthy'), String(count)],
      {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        execArgv: ['--max-old-space-size=4096'],
      },
    );
    children.add(child);
    const pending = new Map<number, (v: unknown) => void>();
    let next = 1;
    const first = await new Promise<{ urls: string[] }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { urls: string[] }));
      child.once('exit', (code) => reject(new Error(`serve-fleet exited with ${code}`)));
    });
    child.on('message', (m: { id: number }) => {
      pending.get(m.id)?.(m);
      pending.delete(m.id);
    });
    const call = <T>(msg: Record<string, unknown>) =>
      new Promise<T>((resolve) => {
        const id = next++;
        pending.set(id, resolve as (v: unknown) => void);
        child.send({ ...msg, id });
      });
    return { urls: first.urls, call };
  }

  return {
    dir,
    log,
    sleep,
    redisEnv,
    redis,
    async flushAll() {
      await Promise.all(masters().map((m) => m.flushall()));
    },
    keys: (match) => scanKeys(redis, match),
    slack,
    async startApiServers(count) {
      const servers: Awaited<ReturnType<typeof startServer>>[] = [];
      for (let start = 0; start < count; start += SERVER_SHARE)
        servers.push(await startServer(Math.min(SERVER_SHARE, count - start)));
      return {
        urls: servers.flatMap((s) => s.urls),
        stats: async () =>
          (await Promise.all(servers.map((s) => s.call<{ stats: ClusterStats[] }>({ type: 'stats' })))).flatMap(
            (r) => r.stats,
          ),
        emit: (index) =>
          servers[Math.floor(index / SERVER_SHARE)]!.call<{ at: number; node: string }>({
            type: 'emit',
            index: index % SERVER_SHARE,
          }),
      };
    },
    async spawnWorker(config, o = {}) {
      const child = spawn(process.execPath, [path.join(opts.root, 'bin/k8s-health.js'), 'worker', '--config', config], {
        env: {
          PATH: process.env.PATH ?? '',
          ...redisEnv,
          PORT: '0',
          SLACK_BOT_TOKEN: 'xoxb-test-token',
          SLACK_API_URL: slack.apiUrl,
          LOG_LEVEL: o.logLevel ?? 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let out = '';
      let partial = '';
      child.stdout!.on('data', (d: Buffer) => {
        if (o.onLine) {
          const lines = (partial + d.toString()).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) o.onLine(line);
        }
        out = (out + d.toString()).slice(-20_000);
      });
      child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
      const deadline = Date.now() + 60_000;
      while (!/workers running/.test(out)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start: ${out}`);
        await sleep(50);
      }
      return { child, pid: child.pid!, output: () => out };
    },
    async kill9(w) {
      const exited = new Promise((r) => (w.child.exitCode !== null ? r(null) : w.child.once('exit', r)));
      w.child.kill('SIGKILL');
      await exited;
      children.delete(w.child);
    },
    async close() {
      for (const c of children) c.kill('SIGKILL');
      redis.disconnect();
      await single?.stop();
      await topology?.stop();
      await slack.close();
    },
  };
}
