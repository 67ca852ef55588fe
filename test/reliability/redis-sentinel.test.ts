import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { startJobs } from '../../src/compose/compose-jobs.js';
import { configSchema } from '../../src/config/config-schema.js';
import { readEnvOptions } from '../../src/config/read-env-options.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { startRedisSentinel, type RedisSentinelTopology } from '../support/start-redis-sentinel.js';
import { recordFigure } from './figures.js';
import { queuedScansThroughFailover } from './redis-failover-cases.js';
import { deployment, scaleProposal } from './approval-harness.js';
import { startServeUnderTest } from './serve-process.js';

/**
 * The bot on a real Sentinel topology (a master, two replicas, three sentinels from Debian's
 * packages): configured only by REDIS_SENTINELS / REDIS_SENTINEL_MASTER / REDIS_PASSWORD, it scans,
 * opens alert threads, counts a two-person approval and executes the fix — and goes on through a
 * kill -9 of the master (the sentinels promote a replica; ioredis follows them).
 */
let topo: RedisSentinelTopology;
let slack: FakeSlackApi;

beforeAll(async () => {
  topo = await startRedisSentinel();
  slack = await startFakeSlackApi({ validToken: 'xoxb-sentinel' });
}, 60_000);

afterAll(async () => {
  await slack?.close();
  await topo?.stop();
});

/**
 * Wait until the connected replicas have everything the master has (asynchronous replication: a kill before that may
 * lose the newest writes).
 */
async function replicated(): Promise<void> {
  return replicatedOn(topo);
}

async function replicatedOn(t: RedisSentinelTopology): Promise<void> {
  const c = t.client();
  try {
    for (let i = 0; i < 200; i++) {
      const info = await c.info('replication');
      const offset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? -1);
      const replicas = [...info.matchAll(/slave\d+:.*?offset=(\d+)/g)].map((m) => Number(m[1]));
      if (replicas.length >= 1 && replicas.every((o) => o >= offset)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('replicas did not catch up within 10 s');
  } finally {
    c.disconnect();
  }
}

async function notifyDrained(queue: { getJobCounts(...t: string[]): Promise<Record<string, number>> }): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const n = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    if (Object.values(n).every((x) => x === 0)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('notify queue not drained within 30 s');
}

describe('Redis Sentinel topology', () => {
  it('scans and alert threads through the sentinels (in-process workers), on through a master failover', async () => {
    const env = readEnvOptions(topo.env);
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
      slack: { token: 'xoxb-sentinel', apiUrl: slack.apiUrl },
      signer: createPlanSigner(TEST_PLAN_SECRET),
      channelIntervalMs: 10,
    });
    const c = topo.client();
    try {
      const report = await set.scan('prod');
      expect(report.status).toBe('critical');
      await notifyDrained(set.notifyQueue);
      const parentsOf = () =>
        slack.callsTo('chat.postMessage').filter((m) => m.body.channel === 'C0ALERTS' && !m.body.thread_ts);
      const posted = parentsOf().length;
      expect(posted).toBeGreaterThan(0);
      expect(await c.exists('k8s-health:report:prod')).toBe(1);
      await replicated();
      const { failoverMs } = await topo.killMaster();
      // After the failover: the next scan lands on the new master, no parent posted twice.
      const again = await set.scan('prod');
      expect(again.status).toBe('critical');
      await notifyDrained(set.notifyQueue);
      const twice = parentsOf().length - posted;
      recordFigure({
        suite: 'redis-sentinel',
        case: 'scan + alert threads, master kill -9 after the threads were posted: parents posted twice',
        tried: posted,
        bad: twice,
        note: `failover (sentinels name a new master) ${failoverMs} ms`,
      });
      expect(twice).toBe(0);
      expect(await c.exists('k8s-health:report:prod')).toBe(1);
      expect((await set.ready()).ready).toBe(true);
    } finally {
      c.disconnect();
      await set.close();
    }
  }, 90_000);
});

describe('Redis Sentinel topology, the built serve', () => {
  it('a two-person approval and its execution through the sentinels, with the master killed -9 after the first vote: counted once, run once', async () => {
    const client = topo.client();
    const s = await startServeUnderTest([deployment('app-s')], { redis: { env: topo.env, client } });
    try {
      await s.start({ workers: true });
      const id = await s.propose(scaleProposal('app-s'));
      expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
      await replicated();
      const { failoverMs } = await topo.killMaster();
      // The same serve goes on: the next vote is decisive, counted once, and the fix runs once.
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
      expect(s.realWrites('app-s')).toBe(1);
      recordFigure({
        suite: 'redis-sentinel',
        case: 'two-person approval + execution, master kill -9 after the 1st vote: votes lost or doubled, fixes run twice',
        tried: 1,
        bad: (done.approvals.length === 2 ? 0 : 1) + (s.realWrites('app-s') === 1 ? 0 : 1),
        note: `serve ready again ${readyAfterMs} ms after the kill (failover ${failoverMs} ms)`,
      });
    } finally {
      await s.close();
    }
  }, 120_000);
});

describe('Redis Sentinel topology, the master killed as a vote is counted and with the execution claimed', () => {
  it('the vote acknowledged survives (a replica had it before the answer); the fix in flight when the master dies runs once, its result on the new master', async () => {
    // A topology of its own: the tests above used up the replicas of theirs.
    const fresh = await startRedisSentinel();
    const client = fresh.client();
    const s = await startServeUnderTest([deployment('app-x')], { redis: { env: fresh.env, client } });
    try {
      await s.start({ workers: true });
      const id = await s.propose(scaleProposal('app-x'));
      expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
      // At once, without waiting for replication: the answer came after a replica had the vote.
      const counted = await fresh.killMaster();
      expect((await s.get(id))!.approvals.map((a) => a.user)).toEqual(['U0ANN']);
      recordFigure({
        suite: 'redis-sentinel',
        case: 'master kill -9 right after a vote was acknowledged: votes lost',
        tried: 1,
        bad: 0,
        note: `failover ${counted.failoverMs} ms`,
      });
      // Until serve is connected to the new master, a click is answered "state store unreachable".
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
      const c = fresh.client();
      try {
        for (let i = 0; i < 200; i++) {
          const info = await c.info('replication');
          const offset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1] ?? -1);
          const replicas = [...info.matchAll(/slave\d+:.*?offset=(\d+)/g)].map((m) => Number(m[1]));
          if (replicas.length >= 1 && replicas.every((o) => o >= offset)) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        c.disconnect();
      }
      const { failoverMs } = await fresh.killMaster();
      s.kube.delayMs = 0;
      const done = await s.until(
        'the execution finished',
        async () => {
          const r = await s.get(id);
          return r && !['approved', 'executing'].includes(r.status) && r;
        },
        90_000,
      );
      expect(['succeeded', 'interrupted']).toContain(done.status);
      expect(s.realWrites('app-x')).toBe(1);
      recordFigure({
        suite: 'redis-sentinel',
        case: 'execution claimed (PATCH in flight), master kill -9: fixes run twice or lost',
        tried: 1,
        bad: s.realWrites('app-x') === 1 ? 0 : 1,
        note: `ended ${done.status}; failover ${failoverMs} ms`,
      });
    } finally {
      await s.close();
      await fresh.stop();
    }
  }, 120_000);
});

describe('Redis Sentinel topology, the master killed with an alert being posted', () => {
  it('the parent in flight at Slack when the master dies: every parent posted exactly once', async () => {
    const fresh = await startRedisSentinel();
    const env = readEnvOptions(fresh.env);
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
      slack: { token: 'xoxb-sentinel', apiUrl: slack.apiUrl },
      signer: createPlanSigner(TEST_PLAN_SECRET),
      channelIntervalMs: 10,
    });
    const parentsOf = () =>
      slack.callsTo('chat.postMessage').filter((m) => m.body.channel === 'C0POSTING' && !m.body.thread_ts);
    try {
      slack.postDelayMs = 1500;
      await set.scan('prod');
      await slack.waitFor('a parent in flight', () => parentsOf().length > 0, 30_000);
      const { failoverMs } = await fresh.killMaster();
      slack.postDelayMs = 0;
      await notifyDrained(set.notifyQueue);
      // One parent per root cause of the report, each once.
      const texts = parentsOf().map((m) => JSON.stringify(m.body.blocks?.[0]));
      const twice = texts.length - new Set(texts).size;
      recordFigure({
        suite: 'redis-sentinel',
        case: 'alert parent in flight at Slack, master kill -9: parents posted twice',
        tried: texts.length,
        bad: twice,
        note: `failover ${failoverMs} ms`,
      });
      expect(texts.length).toBeGreaterThan(0);
      expect(twice).toBe(0);
    } finally {
      slack.postDelayMs = 0;
      await set.close();
      await fresh.stop();
    }
  }, 120_000);
});

describe('Redis Sentinel topology, the master killed with scans queued', () => {
  it('scans queued while the scan worker is paused when the master dies: each runs once after the failover, its report stored', async () => {
    const fresh = await startRedisSentinel();
    try {
      await queuedScansThroughFailover({
        suite: 'redis-sentinel',
        env: fresh.env,
        client: () => fresh.client(),
        replicated: () => replicatedOn(fresh),
        killMasterOf: () => fresh.killMaster(),
      });
    } finally {
      await fresh.stop();
    }
  }, 120_000);
});
