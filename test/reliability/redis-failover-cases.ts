import { expect } from '@jest/globals';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { startJobs, type WorkerSet } from '../../src/compose/compose-jobs.js';
import { configSchema } from '../../src/config/config-schema.js';
import { readEnvOptions } from '../../src/config/read-env-options.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { NOTIFY_QUEUE, REMEDIATE_QUEUE, SCAN_QUEUE, queuePrefix } from '../../src/jobs/queue-names.js';
import type { Report } from '../../src/report/report.js';
import { BULLMQ_PREFIX, REDIS_PREFIX, taggedKey } from '../../src/store/redis-prefix.js';
import type { FakeSlackApi } from '../support/fake-slack-api.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { deployment, scaleProposal } from './approval-harness.js';
import { recordFigure } from './figures.js';
import { startServeUnderTest, type ServeUnderTest } from './serve-process.js';

/**
 * A replicated Redis topology a failover case runs on (Redis Cluster or Sentinel): how the bot reaches it, a
 * client of it, and how its master dies. The cases below run alike on both (redis-cluster.test.ts,
 * redis-sentinel.test.ts); on Sentinel "the master holding a key" is the one master.
 */
export interface FailoverTopology {
  suite: 'redis-cluster' | 'redis-sentinel';
  /** The environment a bot process needs to reach it. */
  env: Record<string, string>;
  client(): Redis;
  /** Resolves once the replicas have everything their masters had when asked (asynchronous replication). */
  replicated(): Promise<void>;
  /** kill -9 the master holding `key`; resolves once a replica took over. */
  killMasterOf(key: string): Promise<{ oldPort: number; failoverMs: number }>;
}

/** The fake Slack Web API of the test file and the bot token it accepts. */
export interface FailoverSlack {
  api: FakeSlackApi;
  token: string;
}

/** A key in the slot of each thing a case kills the master of. */
const APPROVALS = taggedKey(REDIS_PREFIX, 'approvals', 'x');
const NOTIFY = `${queuePrefix(BULLMQ_PREFIX, NOTIFY_QUEUE)}:x`;
const REMEDIATE = `${queuePrefix(BULLMQ_PREFIX, REMEDIATE_QUEUE)}:x`;
const SCAN = `${queuePrefix(BULLMQ_PREFIX, SCAN_QUEUE)}:x`;

/** How long after a failover the bot has to be ready again (its connections on the new master). */
export const READY_AFTER_FAILOVER_MS = 10_000;

/** Poll `check` every 50 ms until it holds; throws after `ms` naming `what`. */
async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Poll `ready()` until it says ready: the time it took, at most READY_AFTER_FAILOVER_MS. */
async function readyAgain(ready: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  await until('ready again after the failover', ready, READY_AFTER_FAILOVER_MS);
  return Date.now() - started;
}

/**
 * Every notify job done. Commands of a job whose master died are retried through the failover and a
 * worker whose blocking connection was on that master reconnects: nothing waits for BullMQ's 30 s
 * stalled-job check.
 */
function notifyDrained(set: WorkerSet): Promise<void> {
  return until('notify queue drained', async () =>
    Object.values(await set.notifyQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).every(
      (n) => n === 0,
    ),
  );
}

/** The scan and notify workers in-process on the S3 dump, alerting in `channel` through the fake Slack. */
function startAlertingJobs(topo: FailoverTopology, slack: FailoverSlack, channel: string): Promise<WorkerSet> {
  return startJobs({
    config: configSchema.parse({
      clusters: [
        {
          name: 'prod',
          dump: path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'),
          slack: { alertChannel: channel },
        },
      ],
      scan: { intervalSeconds: 3600 },
    }),
    redisUrl: readEnvOptions(topo.env).redis,
    slack: { token: slack.token, apiUrl: slack.api.apiUrl },
    signer: createPlanSigner(TEST_PLAN_SECRET),
    channelIntervalMs: 10,
  });
}

/** The alert parents posted in `channel` (messages not in a thread). */
function parentsIn(slack: FailoverSlack, channel: string) {
  return slack.api.callsTo('chat.postMessage').filter((m) => m.body.channel === channel && !m.body.thread_ts);
}

/**
 * Scans and alert threads (in-process workers): the threads posted, the replicas caught up, the notify
 * queue's master killed -9. The bot is ready again within READY_AFTER_FAILOVER_MS of the failover, the
 * next scan is stored on the new master, and no parent is posted twice. `afterPosted` checks what only
 * its topology has (where the keys landed).
 */
export async function alertThreadsThroughFailover(
  topo: FailoverTopology,
  slack: FailoverSlack,
  opts: { afterPosted?: (c: Redis) => Promise<void> } = {},
): Promise<void> {
  const set = await startAlertingJobs(topo, slack, 'C0ALERTS');
  const c = topo.client();
  try {
    const report = await set.scan('prod');
    expect(report.status).toBe('critical');
    await notifyDrained(set);
    const posted = parentsIn(slack, 'C0ALERTS').length;
    expect(posted).toBeGreaterThan(0);
    expect(await c.exists(`${REDIS_PREFIX}report:prod`)).toBe(1);
    await opts.afterPosted?.(c);
    await topo.replicated();
    const { failoverMs } = await topo.killMasterOf(NOTIFY);
    const readyMs = failoverMs + (await readyAgain(async () => (await set.ready()).ready));
    const again = await set.scan('prod');
    expect(again.status).toBe('critical');
    await notifyDrained(set);
    const twice = parentsIn(slack, 'C0ALERTS').length - posted;
    recordFigure({
      suite: topo.suite,
      case: "scan + alert threads, kill -9 of the notify queue's master after the threads were posted: parents posted twice",
      tried: posted,
      bad: twice,
      note: `failover ${failoverMs} ms; ready again ${readyMs} ms after the kill`,
    });
    expect(twice).toBe(0);
    expect(await c.exists(`${REDIS_PREFIX}report:prod`)).toBe(1);
  } finally {
    c.disconnect();
    await set.close();
  }
}

/**
 * An alert parent held 1.5 s at the fake Slack API and the notify queue's master killed -9 while it is in
 * flight: after the failover every parent is posted exactly once (the thread record lands on the new
 * master), and the bot is ready again within READY_AFTER_FAILOVER_MS.
 */
export async function parentInFlightThroughFailover(topo: FailoverTopology, slack: FailoverSlack): Promise<void> {
  const set = await startAlertingJobs(topo, slack, 'C0POSTING');
  try {
    slack.api.postDelayMs = 1500;
    await set.scan('prod');
    await slack.api.waitFor('a parent in flight', () => parentsIn(slack, 'C0POSTING').length > 0, 30_000);
    const { failoverMs } = await topo.killMasterOf(NOTIFY);
    slack.api.postDelayMs = 0;
    const readyMs = failoverMs + (await readyAgain(async () => (await set.ready()).ready));
    await notifyDrained(set);
    // One parent per root cause of the report, each once.
    const texts = parentsIn(slack, 'C0POSTING').map((m) => JSON.stringify(m.body.blocks?.[0]));
    const twice = texts.length - new Set(texts).size;
    recordFigure({
      suite: topo.suite,
      case: "alert parent in flight at Slack, kill -9 of the notify queue's master: parents posted twice",
      tried: texts.length,
      bad: twice,
      note: `failover ${failoverMs} ms; ready again ${readyMs} ms after the kill`,
    });
    expect(texts.length).toBeGreaterThan(0);
    expect(twice).toBe(0);
  } finally {
    slack.api.postDelayMs = 0;
    await set.close();
  }
}

/** The built serve's /readyz answers 200 again: the time it took, at most READY_AFTER_FAILOVER_MS. */
function serveReadyAgain(s: ServeUnderTest): Promise<number> {
  return readyAgain(async () => (await fetch(`http://127.0.0.1:${s.port}/readyz`)).status === 200);
}

/**
 * A two-person approval and its execution with the built serve (its workers in-process, fake Kubernetes
 * and Slack APIs): the approvals' master killed -9 after the first vote, once the replicas have it. The
 * same serve goes on: the second vote is decisive, each vote counted once, the fix run once.
 */
export async function approvalThroughFailover(topo: FailoverTopology): Promise<void> {
  const client = topo.client();
  const s = await startServeUnderTest([deployment('app-a')], { redis: { env: topo.env, client } });
  try {
    await s.start({ workers: true });
    const id = await s.propose(scaleProposal('app-a'));
    expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
    await topo.replicated();
    const { failoverMs } = await topo.killMasterOf(APPROVALS);
    const readyMs = failoverMs + (await serveReadyAgain(s));
    expect(await s.vote(id, 'U0BEN')).toContain('last one needed');
    const done = await s.until(
      'the fix executed',
      async () => {
        const r = await s.get(id);
        return r && r.status === 'succeeded' && r;
      },
      60_000,
    );
    recordFigure({
      suite: topo.suite,
      case: "two-person approval + execution, kill -9 of the approvals' master after the 1st vote: votes lost or doubled, fixes run twice",
      tried: 1,
      bad: (done.approvals.length === 2 ? 0 : 1) + (s.realWrites('app-a') === 1 ? 0 : 1),
      note: `serve ready again ${readyMs} ms after the kill (failover ${failoverMs} ms)`,
    });
    expect(done.approvals.map((a) => a.user)).toEqual(['U0ANN', 'U0BEN']);
    expect(s.realWrites('app-a')).toBe(1);
  } finally {
    await s.close();
  }
}

/**
 * Two kills with the built serve: the approvals' master right after a vote was acknowledged (no wait: the
 * answer came once a replica had it), then the remediate queue's master with the real PATCH of the
 * decisive vote's execution in flight at the API. The vote is on the promoted replica; the fix runs
 * once, its end (succeeded, or interrupted and not run again) recorded on the new master.
 */
export async function voteAndExecutionThroughFailover(topo: FailoverTopology): Promise<void> {
  const client = topo.client();
  const s = await startServeUnderTest([deployment('app-x')], { redis: { env: topo.env, client } });
  try {
    await s.start({ workers: true });
    const id = await s.propose(scaleProposal('app-x'));
    expect(await s.vote(id, 'U0ANN')).toContain('1 of 2');
    const counted = await topo.killMasterOf(APPROVALS);
    const votes = (await s.get(id))?.approvals.map((a) => a.user) ?? [];
    recordFigure({
      suite: topo.suite,
      case: "kill -9 of the approvals' master right after a vote was acknowledged: votes lost",
      tried: 1,
      bad: votes.includes('U0ANN') ? 0 : 1,
      note: `failover ${counted.failoverMs} ms`,
    });
    expect(votes).toEqual(['U0ANN']);
    // Until serve is on the new master a click is answered "state store unreachable".
    await serveReadyAgain(s);
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
    await topo.replicated();
    const { failoverMs, oldPort } = await topo.killMasterOf(REMEDIATE);
    // Another master than the first kill's: on a Redis Cluster the two tags' slots are on different
    // masters; on Sentinel the first kill's replica was promoted.
    expect(oldPort).not.toBe(counted.oldPort);
    s.kube.delayMs = 0;
    const done = await s.until(
      'the execution finished',
      async () => {
        const r = await s.get(id);
        return r && !['approved', 'executing'].includes(r.status) && r;
      },
      90_000,
    );
    recordFigure({
      suite: topo.suite,
      case: "execution claimed (PATCH in flight), kill -9 of the remediate queue's master: fixes run twice or lost",
      tried: 1,
      bad: s.realWrites('app-x') === 1 ? 0 : 1,
      note: `ended ${done.status}; failover ${failoverMs} ms`,
    });
    expect(['succeeded', 'interrupted']).toContain(done.status);
    expect(s.realWrites('app-x')).toBe(1);
  } finally {
    await s.close();
  }
}

/**
 * Scans asked for (the `/k8s-health` path through the scan queue) while no worker takes them — the scan
 * worker paused — and the master holding the scan queue killed -9 once the replicas have them. After the
 * failover the worker resumes: each queued scan runs exactly once, its report is stored on the new master
 * and handed to the one who asked; nothing is left in the queue.
 */
export async function queuedScansThroughFailover(topo: FailoverTopology): Promise<void> {
  const clusters = ['prod', 'stage'];
  const config = configSchema.parse({
    clusters: [
      { name: 'prod', dump: path.resolve('examples/scenarios/s3-recreation-loop-webhook-down') },
      { name: 'stage', dump: path.resolve('examples/scenarios/s1-worker-powered-off') },
    ],
    scan: { intervalSeconds: 3600 },
  });
  const set = await startJobs({
    config,
    redisUrl: readEnvOptions(topo.env).redis,
    signer: createPlanSigner(TEST_PLAN_SECRET),
    only: ['scan'],
  });
  const c = topo.client();
  const stored = async (cluster: string) => {
    const raw = await c.get(`${REDIS_PREFIX}report:${cluster}`);
    return raw ? (JSON.parse(raw) as { report: Report }).report : undefined;
  };
  try {
    // Every cluster's scheduler scans it once at start: those are done before anything is queued.
    await until('the start-up scans stored', async () => {
      const counts = await set.scanQueue.getJobCounts('waiting', 'active', 'prioritized');
      return (await Promise.all(clusters.map(stored))).every(Boolean) && Object.values(counts).every((n) => n === 0);
    });
    const worker = set.workers.find((w) => w.name === SCAN_QUEUE)!;
    await worker.pause();
    const runs = new Map<string, number>();
    worker.on('active', (job) => {
      const cluster = (job.data as { cluster: string }).cluster;
      runs.set(cluster, (runs.get(cluster) ?? 0) + 1);
    });
    const before = await Promise.all(clusters.map(stored));
    const asked = clusters.map((cluster) => set.scan(cluster));
    await until('both scans queued', async () => (await set.scanQueue.getJobCounts('waiting')).waiting === 2);
    await topo.replicated();
    const { failoverMs } = await topo.killMasterOf(SCAN);
    await worker.resume();
    const reports = await Promise.all(asked);
    const after = await Promise.all(clusters.map(stored));
    const left = await set.scanQueue.getJobCounts('waiting', 'active', 'prioritized', 'failed');
    const lost = clusters.filter(
      (cluster, i) =>
        reports[i]?.cluster !== cluster ||
        after[i]?.generatedAt !== reports[i]?.generatedAt ||
        after[i]?.generatedAt === before[i]?.generatedAt,
    ).length;
    const twice = clusters.filter((cluster) => (runs.get(cluster) ?? 0) > 1).length;
    recordFigure({
      suite: topo.suite,
      case: "scans queued (scan worker paused), kill -9 of the scan queue's master: scans lost or run twice",
      tried: clusters.length,
      bad: lost + twice,
      note: `failover ${failoverMs} ms`,
    });
    expect(clusters.map((cluster) => runs.get(cluster) ?? 0)).toEqual([1, 1]);
    expect(reports.map((r) => r.cluster)).toEqual(clusters);
    expect(after.map((r) => r?.generatedAt)).toEqual(reports.map((r) => r.generatedAt));
    expect(lost).toBe(0);
    expect(left).toEqual({ waiting: 0, active: 0, prioritized: 0, failed: 0 });
  } finally {
    c.disconnect();
    await set.close();
  }
}
