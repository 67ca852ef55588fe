import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Cluster } from 'ioredis';
import { startJobs } from '../../src/compose/compose-jobs.js';
import { configSchema } from '../../src/config/config-schema.js';
import { readEnvOptions } from '../../src/config/read-env-options.js';
import { createRedisConnection } from '../../src/jobs/create-redis-connection.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { NOTIFY_QUEUE, REMEDIATE_QUEUE, queuePrefix } from '../../src/jobs/queue-names.js';
import { BULLMQ_PREFIX, REDIS_PREFIX, taggedKey } from '../../src/store/redis-prefix.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort } from '../support/free-port.js';
import { spawnServe } from '../support/spawn-serve.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { startRedisCluster, type RedisClusterTopology } from '../support/start-redis-cluster.js';
import { recordFigure } from './figures.js';
import { queuedScansThroughFailover } from './redis-failover-cases.js';
import { deployment, scaleProposal } from './approval-harness.js';
import { startServeUnderTest } from './serve-process.js';

/**
 * The bot on a real Redis Cluster (three masters, each with a replica, made with `redis-cli --cluster
 * create` from Debian's packages): configured only by REDIS_CLUSTER_NODES / REDIS_PASSWORD, every
 * Lua script and transaction finds its keys in one slot (no CROSSSLOT), the keys spread over the
 * masters, and scans, alert threads, a two-person approval and its execution go on through a kill -9
 * of the master holding the keys in use (its replica is promoted; ioredis follows the new slot map).
 */
let slack: FakeSlackApi;

beforeAll(async () => {
  slack = await startFakeSlackApi({ validToken: 'xoxb-cluster' });
});

afterAll(async () => {
  await slack?.close();
});

async function notifyDrained(queue: { getJobCounts(...t: string[]): Promise<Record<string, number>> }): Promise<void> {
  // Commands of a job whose master died are retried through the failover, and a worker whose blocking
  // connection was on that master reconnects: nothing waits for BullMQ's 30 s stalled-job check.
  for (let i = 0; i < 600; i++) {
    const n = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(n).every((x) => x === 0)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('notify queue not drained within 30 s');
}

/** How long after a failover the bot has to be ready again (its own connections back on the new master). */
const READY_AFTER_FAILOVER_MS = 10_000;

/** Poll `ready()` until it says ready; the time it took. Throws READY_AFTER_FAILOVER_MS after the failover. */
async function readyAgain(ready: () => Promise<{ ready: boolean }>): Promise<number> {
  const started = Date.now();
  let last: unknown;
  while (Date.now() - started < READY_AFTER_FAILOVER_MS) {
    last = await ready();
    if ((last as { ready: boolean }).ready) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready ${READY_AFTER_FAILOVER_MS / 1000} s after the failover: ${JSON.stringify(last)}`);
}

/** Wait until every replica has everything its master has (asynchronous replication). */
async function replicated(c: Cluster): Promise<void> {
  for (const master of c.nodes('master')) {
    for (let i = 0; ; i++) {
      const info = await master.info('replication');
      const offset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? -1);
      const replicas = [...info.matchAll(/slave\d+:.*?offset=(\d+)/g)].map((m) => Number(m[1]));
      if (replicas.every((o) => o >= offset)) break;
      if (i > 200) throw new Error('replicas did not catch up within 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('Redis Cluster topology', () => {
  let topo: RedisClusterTopology;
  beforeAll(async () => {
    topo = await startRedisCluster({ replicas: true });
  }, 60_000);
  afterAll(async () => {
    await topo?.stop();
  });

  it("scans and alert threads on the cluster (in-process workers), keys spread over the masters, on through a kill -9 of the notify queue's master", async () => {
    const env = readEnvOptions(topo.env);
    expect(env.redis.clusterNodes).toHaveLength(6);
    const config = configSchema.parse({
      clusters: [
        {
          name: 'prod',
          dump: path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'),
          slack: { alertChannel: 'C0ALERTS' },
        },
      ],
      scan: { intervalSeconds: 3600 },
    });
    const set = await startJobs({
      config,
      redisUrl: env.redis,
      slack: { token: 'xoxb-cluster', apiUrl: slack.apiUrl },
      signer: createPlanSigner(TEST_PLAN_SECRET),
      channelIntervalMs: 10,
    });
    const c = topo.client() as unknown as Cluster;
    try {
      const report = await set.scan('prod');
      expect(report.status).toBe('critical');
      await notifyDrained(set.notifyQueue);
      const parentsOf = () =>
        slack.callsTo('chat.postMessage').filter((m) => m.body.channel === 'C0ALERTS' && !m.body.thread_ts);
      const posted = parentsOf().length;
      expect(posted).toBeGreaterThan(0);
      expect(await c.exists(`${REDIS_PREFIX}report:prod`)).toBe(1);
      // Queues and records landed on more than one master.
      const sizes = await Promise.all(c.nodes('master').map((m) => m.dbsize()));
      expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(1);
      await replicated(c);
      const { failoverMs } = await topo.killMasterOf(`${queuePrefix(BULLMQ_PREFIX, NOTIFY_QUEUE)}:x`);
      const readyMs = failoverMs + (await readyAgain(() => set.ready()));
      const again = await set.scan('prod');
      expect(again.status).toBe('critical');
      await notifyDrained(set.notifyQueue);
      const twice = parentsOf().length - posted;
      recordFigure({
        suite: 'redis-cluster',
        case: "scan + alert threads, kill -9 of the notify queue's master after the threads were posted: parents posted twice",
        tried: posted,
        bad: twice,
        note: `failover (replica promoted, cluster_state ok) ${failoverMs} ms; ready again ${readyMs} ms after the kill`,
      });
      expect(twice).toBe(0);
      expect(await c.exists(`${REDIS_PREFIX}report:prod`)).toBe(1);
    } finally {
      c.disconnect();
      await set.close();
    }
  }, 240_000);
});

describe('Redis Cluster topology, a connection re-opened while a master is failing over', () => {
  it("connect() settles once the cluster is ready again, though its own ready check saw cluster_state:fail (what BullMQ's blocking connections await)", async () => {
    const topo = await startRedisCluster({ replicas: true });
    // The connection BullMQ's workers and queues are given, made the way the bot makes it.
    const c = createRedisConnection(readEnvOptions(topo.env).redis) as unknown as Cluster;
    try {
      await c.set('{failover}:before', '1');
      const key = `${queuePrefix(BULLMQ_PREFIX, NOTIFY_QUEUE)}:x`;
      const oldPort = await topo.masterPortOf(key);
      const killed = topo.killMasterOf(key);
      // Until the replica is promoted the surviving nodes answer cluster_state:fail, so a ready check
      // made now fails and ioredis retries by itself.
      const other = topo.nodes
        .split(',')
        .map((n) => Number(n.split(':')[1]))
        .find((p) => p !== oldPort)!;
      for (let i = 0; !(await topo.clusterInfo(other)).includes('cluster_state:fail'); i++) {
        if (i > 600) throw new Error('no surviving node said cluster_state:fail within 30 s of the kill');
        await new Promise((r) => setTimeout(r, 50));
      }
      // BullMQ's recovery of a blocking connection: disconnect, wait for the end, connect again.
      await new Promise<void>((resolve) => {
        c.once('end', () => resolve());
        c.disconnect();
      });
      const connected = c.connect().then(
        () => 'resolved',
        (err: Error) => `rejected: ${err.message}`,
      );
      const { failoverMs } = await killed;
      const settled = await Promise.race([
        connected,
        new Promise((r) => setTimeout(() => r('still pending 10 s after the failover'), READY_AFTER_FAILOVER_MS)),
      ]);
      recordFigure({
        suite: 'redis-cluster',
        case: 'connect() made while cluster_state:fail (replica not yet promoted): never settled',
        tried: 1,
        bad: settled === 'resolved' ? 0 : 1,
        note: `failover ${failoverMs} ms`,
      });
      expect(settled).toBe('resolved');
      expect(await c.get('{failover}:before')).toBe('1');
      // Ended for good: node connections closing late do not move the client back to 'close'.
      const nodes = c.nodes('all');
      await new Promise<void>((resolve) => {
        c.once('end', () => resolve());
        c.disconnect();
      });
      await Promise.all(
        nodes.map((n) => (n.status === 'end' ? Promise.resolve() : new Promise<void>((r) => n.once('end', () => r())))),
      );
      await new Promise((r) => setImmediate(r));
      expect(c.status).toBe('end');
    } finally {
      c.disconnect();
      await topo.stop();
    }
  }, 120_000);
});

describe('Redis Cluster topology, the built serve', () => {
  it("a two-person approval and its execution on the cluster, the approvals' master killed -9 after the first vote: counted once, run once", async () => {
    const topo = await startRedisCluster({ replicas: true });
    const client = topo.client();
    const s = await startServeUnderTest([deployment('app-c')], { redis: { env: topo.env, client } });
    try {
      await s.start({ workers: true });
      const id = await s.propose(scaleProposal('app-c'));
      expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
      await replicated(client as unknown as Cluster);
      const { failoverMs } = await topo.killMasterOf(taggedKey(REDIS_PREFIX, 'approvals', 'x'));
      const started = Date.now();
      await s.until(
        'serve ready again',
        async () => (await fetch(`http://127.0.0.1:${s.port}/readyz`)).status === 200,
        60_000,
      );
      const readyAfterMs = Date.now() - started + failoverMs;
      expect(await s.vote(id, 'U0BEN')).toContain('last one needed');
      const done = await s.until(
        'the fix executed',
        async () => {
          const r = await s.get(id);
          return r && r.status === 'succeeded' && r;
        },
        60_000,
      );
      expect(done.approvals.map((a) => a.user)).toEqual(['U0ANN', 'U0BEN']);
      expect(s.realWrites('app-c')).toBe(1);
      recordFigure({
        suite: 'redis-cluster',
        case: "two-person approval + execution, kill -9 of the approvals' master after the 1st vote: votes lost or doubled, fixes run twice",
        tried: 1,
        bad: (done.approvals.length === 2 ? 0 : 1) + (s.realWrites('app-c') === 1 ? 0 : 1),
        note: `serve ready again ${readyAfterMs} ms after the kill (failover ${failoverMs} ms)`,
      });
    } finally {
      await s.close();
      await topo.stop();
    }
  }, 120_000);
});

describe('Redis Cluster topology, masters killed as a vote is counted and with the execution claimed', () => {
  it("the vote acknowledged survives the approvals' master; the fix in flight when the remediate queue's master dies runs once", async () => {
    const topo = await startRedisCluster({ replicas: true });
    const client = topo.client();
    const s = await startServeUnderTest([deployment('app-x')], { redis: { env: topo.env, client } });
    try {
      await s.start({ workers: true });
      const id = await s.propose(scaleProposal('app-x'));
      expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
      // At once, without waiting for replication: the answer came after a replica had the vote.
      const counted = await topo.killMasterOf(taggedKey(REDIS_PREFIX, 'approvals', 'x'));
      expect((await s.get(id))!.approvals.map((a) => a.user)).toEqual(['U0ANN']);
      recordFigure({
        suite: 'redis-cluster',
        case: "kill -9 of the approvals' master right after a vote was acknowledged: votes lost",
        tried: 1,
        bad: 0,
        note: `failover ${counted.failoverMs} ms`,
      });
      await s.until(
        'serve ready again',
        async () => (await fetch(`http://127.0.0.1:${s.port}/readyz`)).status === 200,
        60_000,
      );
      s.kube.delayMs = 1500; // the run's precondition read and its PATCH each wait 1.5 s at the API
      expect(await s.vote(id, 'U0BEN')).toContain('last one needed');
      await s.until(
        'the real PATCH in flight',
        async () =>
          s.kube.requests.some(
            (r) => r.method === 'PATCH' && r.path.endsWith('/deployments/app-x') && r.query.dryRun === undefined,
          ),
        30_000,
      );
      await replicated(client as unknown as Cluster);
      // The remediate queue's slot has another master than the approvals' (fixed hash tags, three masters).
      const { failoverMs, oldPort } = await topo.killMasterOf(`${queuePrefix(BULLMQ_PREFIX, REMEDIATE_QUEUE)}:x`);
      expect(oldPort).not.toBe(counted.oldPort);
      s.kube.delayMs = 0;
      const done = await s.until(
        'the execution finished',
        async () => {
          const r = await s.get(id);
          return r && !['approved', 'executing'].includes(r.status) && r;
        },
        60_000,
      );
      expect(['succeeded', 'interrupted']).toContain(done.status);
      expect(s.realWrites('app-x')).toBe(1);
      recordFigure({
        suite: 'redis-cluster',
        case: "execution claimed (PATCH in flight), kill -9 of the remediate queue's master: fixes run twice or lost",
        tried: 1,
        bad: s.realWrites('app-x') === 1 ? 0 : 1,
        note: `ended ${done.status}; failover ${failoverMs} ms`,
      });
    } finally {
      await s.close();
      await topo.stop();
    }
  }, 120_000);
});

describe('Redis Cluster topology, a master killed with an alert being posted', () => {
  it("the parent in flight at Slack when the notify queue's master dies: every parent posted exactly once", async () => {
    const topo = await startRedisCluster({ replicas: true });
    const env = readEnvOptions(topo.env);
    const config = configSchema.parse({
      clusters: [
        {
          name: 'prod',
          dump: path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'),
          slack: { alertChannel: 'C0POSTING' },
        },
      ],
      scan: { intervalSeconds: 3600 },
    });
    const set = await startJobs({
      config,
      redisUrl: env.redis,
      slack: { token: 'xoxb-cluster', apiUrl: slack.apiUrl },
      signer: createPlanSigner(TEST_PLAN_SECRET),
      channelIntervalMs: 10,
    });
    const parentsOf = () =>
      slack.callsTo('chat.postMessage').filter((m) => m.body.channel === 'C0POSTING' && !m.body.thread_ts);
    try {
      slack.postDelayMs = 1500;
      await set.scan('prod');
      await slack.waitFor('a parent in flight', () => parentsOf().length > 0, 30_000);
      const { failoverMs } = await topo.killMasterOf(`${queuePrefix(BULLMQ_PREFIX, NOTIFY_QUEUE)}:x`);
      slack.postDelayMs = 0;
      const readyMs = failoverMs + (await readyAgain(() => set.ready()));
      await notifyDrained(set.notifyQueue);
      // One parent per root cause of the report, each once.
      const texts = parentsOf().map((m) => JSON.stringify(m.body.blocks?.[0]));
      const twice = texts.length - new Set(texts).size;
      recordFigure({
        suite: 'redis-cluster',
        case: "alert parent in flight at Slack, kill -9 of the notify queue's master: parents posted twice",
        tried: texts.length,
        bad: twice,
        note: `failover ${failoverMs} ms; ready again ${readyMs} ms after the kill`,
      });
      expect(texts.length).toBeGreaterThan(0);
      expect(twice).toBe(0);
    } finally {
      slack.postDelayMs = 0;
      await set.close();
      await topo.stop();
    }
  }, 240_000);
});

describe('Redis Cluster topology, a master killed with scans queued', () => {
  it("scans queued while the scan worker is paused when the scan queue's master dies: each runs once after the failover, its report stored", async () => {
    const topo = await startRedisCluster({ replicas: true });
    const client = topo.client();
    try {
      await queuedScansThroughFailover({
        suite: 'redis-cluster',
        env: topo.env,
        client: () => topo.client(),
        replicated: () => replicated(client as unknown as Cluster),
        killMasterOf: (key) => topo.killMasterOf(key),
      });
    } finally {
      client.disconnect();
      await topo.stop();
    }
  }, 120_000);
});

describe('Redis Cluster unreachable (the built serve)', () => {
  it('no node answers: /readyz 503, one warning line naming the nodes without the password, no stack traces; SIGTERM exits within 10 s', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-cluster-down-'));
    const configFile = path.join(dir, 'config.yaml');
    writeFileSync(
      configFile,
      `clusters:\n  - name: prod\n    dump: ${JSON.stringify(path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'))}\n    slack: { channels: [C0DOWN] }\nscan: { intervalSeconds: 3600 }\n`,
    );
    const nodes = `127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}`;
    const serve = await spawnServe({
      config: configFile,
      env: {
        SLACK_BOT_TOKEN: 'xoxb-cluster',
        SLACK_SIGNING_SECRET: 'cluster-down-secret',
        SLACK_API_URL: slack.apiUrl,
        REDIS_CLUSTER_NODES: nodes,
        REDIS_PASSWORD: 'cluster-down-pw',
        LOG_LEVEL: 'error',
      },
    });
    const out = () => serve.stdout + serve.stderr;
    try {
      let status = 0;
      for (let i = 0; i < 100 && status !== 503; i++) {
        status = (await fetch(`http://127.0.0.1:${serve.port}/readyz`, { signal: AbortSignal.timeout(5000) })).status;
        if (status !== 503) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(503);
      for (let i = 0; i < 100 && !out().includes('Redis unreachable'); i++)
        await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 3000));
      const lines = out()
        .split('\n')
        .filter((l) => l.includes('Redis unreachable'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`redis cluster via ${nodes}`);
      expect(out()).not.toContain('cluster-down-pw');
      expect(out()).not.toContain('Unhandled error event');
      expect(out()).not.toMatch(/\n\s+at /);
      const started = Date.now();
      serve.child.kill('SIGTERM');
      const code = await Promise.race([
        serve.exit,
        new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000).unref()),
      ]);
      expect(code).not.toBe('hung');
      recordFigure({
        suite: 'redis-cluster',
        case: 'no cluster node reachable: outage lines in 3 s, stack traces, SIGTERM past 10 s',
        tried: 1,
        bad: lines.length === 1 && code !== 'hung' ? 0 : 1,
        note: `exit after SIGTERM ${Date.now() - started} ms`,
      });
    } finally {
      await serve.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
