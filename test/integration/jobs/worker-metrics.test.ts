import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { createWorkerMetrics, type WorkerMetrics } from '../../../src/jobs/create-worker-metrics.js';
import { NOTIFY_QUEUE, REMEDIATE_QUEUE, SCAN_QUEUE, queuePrefix } from '../../../src/jobs/queue-names.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { randomPrefix } from './replay-cluster.js';

/**
 * The jobs side's /metrics (jobs/create-worker-metrics.ts) read from the registry text, as
 * Prometheus reads it: scan counters and durations from real scans through startWorkers (dump
 * clusters, one unreadable), alert posts to the fake Slack, remediation outcomes from a real BullMQ
 * worker, and the watch-cache gauges of a live cluster served by the fake Kubernetes API.
 */
const SCENARIOS = path.resolve('examples/scenarios');

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Parse the Prometheus text format (the subset prom-client writes). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when there is none). */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(text).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

async function eventually(
  what: string,
  read: () => Promise<string>,
  ok: (text: string) => boolean,
  ms = 30_000,
): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const text = await read();
    if (ok(text)) return text;
    if (Date.now() > end)
      throw new Error(
        `timed out waiting for ${what}; last scrape:\n${text
          .split('\n')
          .filter((l) => l.startsWith('k8s_health_') && !l.includes('process_') && !l.includes('nodejs_'))
          .join('\n')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('worker metrics', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
  });
  afterAll(async () => {
    await slack.close();
    await redis.stop();
  });

  async function obliterate(prefix: string, queues: string[]): Promise<void> {
    for (const name of queues) {
      const q = new Queue(name, { connection: { url: redis.url }, prefix: queuePrefix(prefix, name) });
      await q.obliterate({ force: true });
      await q.close();
    }
  }

  it('counts and times scan jobs per cluster and outcome, and alert posts, through startWorkers', async () => {
    const prefix = randomPrefix();
    const config = configSchema.parse({
      clusters: [
        { name: 'quorum', dump: path.join(SCENARIOS, 's1-etcd-no-quorum'), slack: { alertChannel: 'C0ALERTS' } },
        { name: 'healthy', dump: path.join(SCENARIOS, 'benign-healthy') },
        { name: 'gone', dump: path.join(SCENARIOS, 'no-such-dump-directory') },
      ],
      scan: { intervalSeconds: 1 },
    });
    const metrics: WorkerMetrics = createWorkerMetrics();
    let set: WorkerSet | undefined = await startJobs({
      config,
      redisUrl: redis.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 50,
      metrics,
    });
    try {
      // Default process metrics share the prefix; every configured cluster has its scan series from the start.
      const first = await metrics.registry.metrics();
      expect(value(first, 'k8s_health_process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
      for (const cluster of ['quorum', 'healthy', 'gone'])
        expect(value(first, 'k8s_health_scan_jobs_total', { cluster, outcome: 'error' })).toBeGreaterThanOrEqual(0);

      await eventually(
        'two scans of each readable cluster, a failed scan of the missing dump and an alert posted',
        () => metrics.registry.metrics(),
        (t) =>
          (value(t, 'k8s_health_scan_jobs_total', { cluster: 'quorum', outcome: 'ok' }) ?? 0) >= 2 &&
          (value(t, 'k8s_health_scan_jobs_total', { cluster: 'healthy', outcome: 'ok' }) ?? 0) >= 2 &&
          (value(t, 'k8s_health_scan_jobs_total', { cluster: 'gone', outcome: 'error' }) ?? 0) >= 1 &&
          (value(t, 'k8s_health_notify_jobs_total', { outcome: 'ok' }) ?? 0) >= 1,
      );
      await set.close();
      set = undefined;

      // Stopped: one consistent reading. The histogram saw every counted scan job, nothing else.
      const t = await metrics.registry.metrics();
      expect(t).toContain('# TYPE k8s_health_scan_duration_seconds histogram');
      for (const cluster of ['quorum', 'healthy', 'gone']) {
        const jobs =
          (value(t, 'k8s_health_scan_jobs_total', { cluster, outcome: 'ok' }) ?? 0) +
          (value(t, 'k8s_health_scan_jobs_total', { cluster, outcome: 'error' }) ?? 0);
        expect(value(t, 'k8s_health_scan_duration_seconds_count', { cluster })).toBe(jobs);
        expect(value(t, 'k8s_health_scan_duration_seconds_bucket', { cluster, le: '+Inf' })).toBe(jobs);
        expect(value(t, 'k8s_health_scan_duration_seconds_sum', { cluster })).toBeGreaterThan(0);
      }
      expect(value(t, 'k8s_health_scan_jobs_total', { cluster: 'gone', outcome: 'ok' })).toBe(0);
      expect(value(t, 'k8s_health_scan_jobs_total', { cluster: 'healthy', outcome: 'error' })).toBe(0);
      // The fake Slack accepts every post: no notify job failed.
      expect(value(t, 'k8s_health_notify_jobs_total', { outcome: 'error' })).toBeUndefined();
      expect(slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS').length).toBeGreaterThan(0);
      // No watch cache series: dump clusters are never watched.
      expect(samples(t).filter((s) => s.name.startsWith('k8s_health_watch_'))).toEqual([]);
    } finally {
      await set?.close();
      await obliterate(prefix, [SCAN_QUEUE, NOTIFY_QUEUE]);
    }
  });

  it('labels remediation jobs by the request end state, error when the job threw', async () => {
    const prefix = randomPrefix();
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const metrics = createWorkerMetrics({ defaultMetrics: false });
    // A real BullMQ worker on the remediate queue; its processor answers what runRemediation would
    // (jobs/workers/remediate.ts).
    const worker = new Worker(
      REMEDIATE_QUEUE,
      async (job) => {
        const status = (job.data as { status: string }).status;
        if (status === 'throw') throw new Error('Slack unreachable');
        return { status };
      },
      { connection, prefix: queuePrefix(prefix, REMEDIATE_QUEUE) },
    );
    metrics.attach({ workers: [worker] });
    const queue = new Queue(REMEDIATE_QUEUE, { connection, prefix: queuePrefix(prefix, REMEDIATE_QUEUE) });
    try {
      for (const [i, status] of [
        'succeeded',
        'failed',
        'aborted',
        'interrupted',
        'rejected',
        'unknown',
        'throw',
        'succeeded',
      ].entries()) {
        await queue.add('remediate', { status }, { jobId: `r${i}`, attempts: 1 });
      }
      const t = await eventually(
        '8 remediation jobs',
        () => metrics.registry.metrics(),
        (text) =>
          samples(text)
            .filter((s) => s.name === 'k8s_health_remediations_total')
            .reduce((n, s) => n + s.value, 0) === 8,
      );
      expect(
        Object.fromEntries(
          samples(t)
            .filter((s) => s.name === 'k8s_health_remediations_total')
            .map((s) => [s.labels.outcome, s.value]),
        ),
      ).toEqual({
        succeeded: 2,
        failed: 1,
        aborted: 1,
        interrupted: 1,
        skipped: 2,
        error: 1,
      });
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  describe('watch cache gauges', () => {
    let api: FakeKubeApi;
    beforeAll(async () => {
      api = await startFakeKubeApi({ dir: path.join(SCENARIOS, 's3-recreation-loop-webhook-down') });
    });
    afterAll(async () => {
      await api.close();
    });

    it('a live cluster scanned by the workers: kinds watching, objects kept, requests counted; gone when the workers stop', async () => {
      const prefix = randomPrefix();
      const config = configSchema.parse({
        clusters: [{ name: 'live', workload: { kubeconfig: await writeTestKubeConfig(api.url, 'workload') } }],
        scan: { intervalSeconds: 1 },
      });
      const metrics = createWorkerMetrics({ defaultMetrics: false });
      let set: WorkerSet | undefined = await startJobs({ config, redisUrl: redis.url, prefix, metrics });
      try {
        expect(set.watchCaches).toBeDefined();
        const t = await eventually(
          'the watches of the live cluster open',
          () => metrics.registry.metrics(),
          (text) =>
            (value(text, 'k8s_health_watch_kinds', { cluster: 'live', state: 'watching' }) ?? 0) > 0 &&
            (value(text, 'k8s_health_scan_jobs_total', { cluster: 'live', outcome: 'ok' }) ?? 0) >= 1,
        );
        const kinds = samples(t).filter((s) => s.name === 'k8s_health_watch_kinds' && s.labels.cluster === 'live');
        // One series per state, zeros included; together they count every kind watch of the cache.
        expect(kinds.map((s) => s.labels.state).sort()).toEqual([
          'absent',
          'failed',
          'listing',
          'reconnecting',
          'stopped',
          'watching',
        ]);
        const cache = set.watchCaches!.list().find((c) => c.cluster === 'live')!;
        expect(kinds.reduce((n, s) => n + s.value, 0)).toBe(cache.all().length);
        expect(value(t, 'k8s_health_watch_kinds', { cluster: 'live', state: 'failed' })).toBe(0);
        expect(value(t, 'k8s_health_watch_objects', { cluster: 'live' })).toBeGreaterThan(0);
        expect(value(t, 'k8s_health_watch_requests', { cluster: 'live', type: 'list' })).toBeGreaterThanOrEqual(
          value(t, 'k8s_health_watch_kinds', { cluster: 'live', state: 'watching' })!,
        );
        expect(value(t, 'k8s_health_watch_requests', { cluster: 'live', type: 'watch' })).toBeGreaterThan(0);
        expect(value(t, 'k8s_health_watch_requests', { cluster: 'live', type: 'relist' })).toBe(0);
        // The gauges are read at scrape time: the object count follows the cache.
        const objects = value(t, 'k8s_health_watch_objects', { cluster: 'live' })!;
        expect(objects).toBe(cache.all().reduce((n, k) => n + k.size(), 0));
        const events = value(t, 'k8s_health_watch_events', { cluster: 'live' })!;
        api.emit('ADDED', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'added-by-watch', uid: 'u-added' },
          status: { phase: 'Active' },
        });
        await eventually(
          'the added namespace in the gauges',
          () => metrics.registry.metrics(),
          (text) =>
            value(text, 'k8s_health_watch_objects', { cluster: 'live' }) === objects + 1 &&
            value(text, 'k8s_health_watch_events', { cluster: 'live' })! > events,
        );

        await set.close();
        set = undefined;
        const after = await metrics.registry.metrics();
        expect(samples(after).filter((s) => s.name.startsWith('k8s_health_watch_'))).toEqual([]);
      } finally {
        await set?.close();
        await obliterate(prefix, [SCAN_QUEUE]);
      }
    });
  });
});
