import { describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createAlertReceiptStore } from '../../../src/alertmanager/alert-receipt-store.js';
import { parseWebhook } from '../../../src/alertmanager/parse-webhook.js';
import type { QueuedWebhook } from '../../../src/alertmanager/webhook-payload.js';
import {
  alertsJobId,
  createAlertmanagerEnqueuer,
  notificationOf,
  type AlertsJobData,
} from '../../../src/jobs/enqueue-alertmanager.js';
import { ALERTS_QUEUE } from '../../../src/jobs/queue-names.js';
import { queuePrefix } from '../../../src/store/redis-prefix.js';
import { freePort } from '../../support/free-port.js';
import { useRedis } from '../../support/use-redis.js';

/**
 * serve's side of the alerts queue with a real Redis: notifications read in the same turn go in one addBulk, each
 * stored before its caller resolves, a notification sent again is one job, Redis not taking them fails every caller;
 * and the thread tallies the worker keeps count in O(1), a tally written before the counts existed included.
 */
describe('the alerts queue and the thread tallies', () => {
  const r = useRedis();
  const body = (group: string, fingerprints: string[]) =>
    JSON.stringify({
      version: '4',
      groupKey: group,
      status: 'firing',
      receiver: 'k8s-health',
      groupLabels: {},
      commonLabels: {},
      externalURL: '',
      alerts: fingerprints.map((f) => ({
        status: 'firing',
        labels: { alertname: 'KubeNodeNotReady', node: `n-${f}` },
        annotations: {},
        startsAt: '2026-11-28T01:00:00Z',
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: '',
        fingerprint: f,
      })),
    });
  const queued = (text: string): QueuedWebhook => ({ body: text, receivedAt: '2026-11-28T01:00:01Z', maxAlerts: 1 });

  it('stores each notification of one turn in one batch, the body as received; a repeat is the same job', async () => {
    const queue = new Queue(ALERTS_QUEUE, { connection: r.redis, prefix: queuePrefix('enq-test', ALERTS_QUEUE) });
    const enqueue = createAlertmanagerEnqueuer(queue);
    const texts = ['a1', 'b2', 'c3'].map((f) => body(`{}:{g="${f}"}`, [f, `${f}ff`]));
    const all = [...texts, texts[0]!].map((t) => {
      const q = queued(t);
      return { q, n: parseWebhook(t, q) };
    });
    await Promise.all(all.map(({ n, q }) => enqueue(n, q)));
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((j) => j.id).sort()).toEqual(
      all
        .slice(0, 3)
        .map(({ n }) => alertsJobId(n))
        .sort(),
    );
    const first = jobs.find((j) => j.id === alertsJobId(all[0]!.n))!;
    expect(first.data).toEqual(all[0]!.q);
    // The worker reads the body again: the same notification serve checked, maxAlerts and overflow included.
    const read = notificationOf(first.data as AlertsJobData);
    expect(read).toEqual(all[0]!.n);
    expect(read.alerts.map((a) => a.fingerprint)).toEqual(['a1']);
    expect(read.overflow).toBe(1);
    await queue.close();
  });

  it('Redis not taking the batch fails every caller of it', async () => {
    const down = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const queue = new Queue(ALERTS_QUEUE, { connection: down, prefix: queuePrefix('enq-down', ALERTS_QUEUE) });
    queue.on('error', () => undefined);
    const enqueue = createAlertmanagerEnqueuer(queue);
    const results = await Promise.allSettled(
      ['d1', 'e2'].map((f) => {
        const q = queued(body(`{}:{g="${f}"}`, [f]));
        return enqueue(parseWebhook(q.body, q), q);
      }),
    );
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    await queue.close().catch(() => undefined);
    down.disconnect();
  });

  it('a thread tally counts in O(1); one written before the counts existed gets them from its fields', async () => {
    const receipts = createAlertReceiptStore(r.redis, { keyPrefix: 'tally-test:' });
    const alert = (f: string, status: 'firing' | 'resolved' = 'firing') => ({
      fingerprint: f,
      startsAt: '2026-11-28T01:00:00Z',
      status,
    });
    expect(await receipts.tally('C1', '1.1', alert('a1'))).toEqual({ total: 1, resolved: 0 });
    expect(await receipts.tally('C1', '1.1', alert('b2'))).toEqual({ total: 2, resolved: 0 });
    // The same firing again changes nothing; its resolution counts once.
    expect(await receipts.tally('C1', '1.1', alert('a1'))).toEqual({ total: 2, resolved: 0 });
    expect(await receipts.tally('C1', '1.1', alert('a1', 'resolved'))).toEqual({ total: 2, resolved: 1 });
    expect(await receipts.tally('C1', '1.1', alert('a1', 'resolved'))).toEqual({ total: 2, resolved: 1 });
    await receipts.setTallyTs('C1', '1.1', '1.2');
    expect(await receipts.getTally('C1', '1.1')).toEqual({ total: 2, resolved: 1, tallyTs: '1.2' });
    expect(await receipts.threadAlerts('C1', '1.1')).toEqual([
      { fingerprint: 'a1', startsAt: '2026-11-28T01:00:00Z' },
      { fingerprint: 'b2', startsAt: '2026-11-28T01:00:00Z' },
    ]);
    expect(await receipts.getTally('C1', 'none')).toEqual({ total: 0, resolved: 0 });
    // A tally of an earlier version: fields and `_ts` only.
    await r.redis.hset(
      'tally-test:alertmanager:tally:C1:2.1',
      'c3:2026-11-28T01:00:00Z',
      'resolved',
      'd4:2026-11-28T01:00:00Z',
      'firing',
      '_ts',
      '2.2',
    );
    expect(await receipts.getTally('C1', '2.1')).toEqual({ total: 2, resolved: 1, tallyTs: '2.2' });
    expect(await receipts.tally('C1', '2.1', alert('e5'))).toEqual({ total: 3, resolved: 1, tallyTs: '2.2' });
  });
});
