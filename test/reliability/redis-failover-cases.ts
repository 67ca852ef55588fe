import { expect } from '@jest/globals';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { startJobs } from '../../src/compose/compose-jobs.js';
import { configSchema } from '../../src/config/config-schema.js';
import { readEnvOptions } from '../../src/config/read-env-options.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { SCAN_QUEUE, queuePrefix } from '../../src/jobs/queue-names.js';
import type { Report } from '../../src/report/report.js';
import { BULLMQ_PREFIX, REDIS_PREFIX } from '../../src/store/redis-prefix.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { recordFigure } from './figures.js';

/**
 * A replicated Redis topology a failover case runs on (Redis Cluster or Sentinel): how the bot reaches it, a
 * client of it, and how its master dies. The cases below run alike on both (redis-cluster.test.ts,
 * redis-sentinel.test.ts).
 */
export interface FailoverTopology {
  suite: 'redis-cluster' | 'redis-sentinel';
  /** The environment a bot process needs to reach it. */
  env: Record<string, string>;
  client(): Redis;
  /** Resolves once the replicas have everything their masters have (asynchronous replication). */
  replicated(): Promise<void>;
  /** kill -9 the master holding `key` (Sentinel: the one master); resolves once a replica took over. */
  killMasterOf(key: string): Promise<{ failoverMs: number }>;
}

/** Poll `check` every 50 ms until it holds; throws after `ms` naming `what`. */
async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
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
    const { failoverMs } = await topo.killMasterOf(`${queuePrefix(BULLMQ_PREFIX, SCAN_QUEUE)}:x`);
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
