import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { SCAN_QUEUE, queuePrefix } from '../../../src/jobs/queue-names.js';
import { scheduleScans } from '../../../src/jobs/schedule-scans.js';
import { isLeasedCluster } from '../../../src/jobs/is-leased-cluster.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { randomPrefix } from './replay-cluster.js';

const SCENARIOS = path.resolve('examples/scenarios');

describe('scan scheduling on BullMQ', () => {
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

  it('keeps one scheduler per configured cluster and removes those of clusters no longer configured', async () => {
    const prefix = randomPrefix();
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(SCAN_QUEUE, { connection, prefix: queuePrefix(prefix, SCAN_QUEUE) });
    try {
      const two = configSchema.parse({
        clusters: [
          { name: 'a', dump: '/x' },
          { name: 'b', dump: '/y' },
        ],
        scan: { intervalSeconds: 5 },
      });
      await scheduleScans(queue, two);
      await scheduleScans(queue, two); // a second replica starting: no duplicate
      const first = await queue.getJobSchedulers(0, -1);
      expect(first.map((s) => [s.key, s.every, s.template?.data]).sort()).toEqual([
        ['scan:a', 5000, { cluster: 'a' }],
        ['scan:b', 5000, { cluster: 'b' }],
      ]);
      const one = configSchema.parse({ clusters: [{ name: 'a', dump: '/x' }], scan: { intervalSeconds: 7 } });
      expect(await scheduleScans(queue, one)).toEqual({ scheduled: ['scan:a'], removed: ['scan:b'] });
      const after = await queue.getJobSchedulers(0, -1);
      expect(after.map((s) => [s.key, s.every])).toEqual([['scan:a', 7000]]);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  it('fleet mode: a leased (live) cluster gets no scheduler, and its old scheduler is removed', async () => {
    const prefix = randomPrefix();
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(SCAN_QUEUE, { connection, prefix: queuePrefix(prefix, SCAN_QUEUE) });
    try {
      const config = configSchema.parse({
        clusters: [
          { name: 'd', dump: '/x' },
          { name: 'live', workload: { kubeconfig: '/k' } },
        ],
        scan: { intervalSeconds: 5 },
      });
      // the schedulers used without leases
      expect(await scheduleScans(queue, config)).toEqual({ scheduled: ['scan:d', 'scan:live'], removed: [] });
      const leased = (c: (typeof config.clusters)[number]) => isLeasedCluster(config, c);
      expect(await scheduleScans(queue, config, { leased })).toEqual({ scheduled: ['scan:d'], removed: ['scan:live'] });
      expect((await queue.getJobSchedulers(0, -1)).map((s) => s.key)).toEqual(['scan:d']);
      const noLeases = configSchema.parse({ ...config, scan: { intervalSeconds: 5, leases: false } });
      expect(noLeases.clusters.map((c) => isLeasedCluster(noLeases, c))).toEqual([false, false]);
      expect(config.clusters.map((c) => isLeasedCluster(config, c))).toEqual([false, true]);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  it('two worker processes share the scheduled scans: each tick scanned once, each incident posted once', async () => {
    const prefix = randomPrefix();
    const clusters = [
      's1-etcd-no-quorum',
      's0-etcd-leader-unreachable',
      'benign-healthy',
      's4-node-powered-off-volume-stuck',
    ].map((s, i) => ({
      name: `c${i}`,
      dump: path.join(SCENARIOS, s),
      slack: { alertChannel: `C0ALERT${i}` },
    }));
    const config = configSchema.parse({ clusters, scan: { intervalSeconds: 1 } });
    const start = () =>
      startJobs({
        config,
        redisUrl: redis.url,
        prefix,
        slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
        channelIntervalMs: 50,
        scanConcurrency: 1,
      });
    const a: WorkerSet = await start();
    const b: WorkerSet = await start();
    const done = new Map<WorkerSet, string[]>([
      [a, []],
      [b, []],
    ]);
    for (const set of [a, b])
      set.workers.find((w) => w.name === SCAN_QUEUE)!.on('completed', (job) => done.get(set)!.push(job.id!));
    const reader = new Redis(redis.url);
    try {
      // Enough ticks that every cluster was scanned several times.
      for (;;) {
        const counts = await Promise.all(clusters.map((c) => reader.llen(`${prefix}:history:${c.name}`)));
        if (counts.every((n) => n >= 4)) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await Promise.all([a.close(), b.close()]);
      const all = [...done.get(a)!, ...done.get(b)!];
      // No job processed twice, and one history record per processed tick (no double scans).
      expect(new Set(all).size).toBe(all.length);
      let records = 0;
      for (const c of clusters) records += await reader.llen(`${prefix}:history:${c.name}`);
      expect(records).toBe(all.length);
      expect(done.get(a)!.length).toBeGreaterThan(0);
      expect(done.get(b)!.length).toBeGreaterThan(0);

      // Static dumps: every alerting finding got exactly one parent and no reply, whatever worker scanned it.
      // Posting may still be finishing after the workers closed their queues: wait for the first parents.
      await slack.waitFor('alert parents', () => slack.callsTo('chat.postMessage').length > 0 || undefined);
      const posts = slack.callsTo('chat.postMessage');
      expect(posts.filter((p) => p.body.thread_ts)).toEqual([]);
      const fingerprints = posts.map((p) => JSON.stringify(p.body.blocks).match(/fingerprint `([0-9a-f]+)`/)?.[1]);
      expect(fingerprints.every(Boolean)).toBe(true);
      expect(new Set(fingerprints).size).toBe(posts.length);
      expect(posts.some((p) => p.body.channel === 'C0ALERT2')).toBe(false); // benign-healthy: nothing to alert
    } finally {
      const q = new Queue(SCAN_QUEUE, { connection: { url: redis.url }, prefix: queuePrefix(prefix, SCAN_QUEUE) });
      await q.obliterate({ force: true });
      await q.close();
      reader.disconnect();
    }
  });
});
