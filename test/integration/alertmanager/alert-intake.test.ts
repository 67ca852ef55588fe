import { afterAll, describe, expect, it } from '@jest/globals';
import { Queue, Worker } from 'bullmq';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { createAlertReceiptStore } from '../../../src/alertmanager/alert-receipt-store.js';
import { createAlertmanagerRoute } from '../../../src/alertmanager/create-alertmanager-route.js';
import { parseWebhook } from '../../../src/alertmanager/parse-webhook.js';
import type { QueuedWebhook } from '../../../src/alertmanager/webhook-payload.js';
import { alertIntakeKeys, frameIntakeItem } from '../../../src/jobs/alert-intake.js';
import { createAlertIntakePusher } from '../../../src/jobs/create-alert-intake-pusher.js';
import { createCommandRedis, createRedisConnection } from '../../../src/jobs/create-redis-connection.js';
import { createWorkerMetrics } from '../../../src/jobs/create-worker-metrics.js';
import { alertsJobId, notificationOf, type AlertsJobData } from '../../../src/jobs/enqueue-alertmanager.js';
import { ALERTS_QUEUE } from '../../../src/jobs/queue-names.js';
import { startAlertIntakeForwarder } from '../../../src/jobs/start-alert-intake-forwarder.js';
import { silentLogger } from '../../../src/log/logger.js';
import { queuePrefix } from '../../../src/store/redis-prefix.js';
import { captureLogs } from '../../support/capture-logs.js';
import { eventually } from '../../support/eventually.js';
import { freePort } from '../../support/free-port.js';
import { startRedis } from '../../support/start-redis.js';
import { useRedis } from '../../support/use-redis.js';
import { firingAlert, webhookBody } from '../../support/alertmanager-webhook.js';

/**
 * The alert intake with a real Redis, between serve's `POST /alertmanager` and the `k8s-health-alerts` queue: serve
 * pushes the webhooks of one turn in one LPUSH and answers only once Redis took them (503 when it does not); the
 * forwarder makes each its alerts job, which runs once however often the notification arrives, gives back what a
 * forwarder that died held, drops what serve never writes, and stops at once. Then the thread tallies the alerts
 * worker keeps count in O(1), a tally written before the counts existed included.
 */
describe('the alert intake, the alerts queue and the thread tallies', () => {
  // Declared before useRedis: hooks run in that order, so everything here closes while its Redis still runs.
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  });
  const r = useRedis();
  const body = (group: string, fingerprints: string[]) =>
    webhookBody(
      group,
      fingerprints.map((f) => firingAlert(f, { alertname: 'KubeNodeNotReady', node: `n-${f}` })),
    );
  const queued = (text: string): QueuedWebhook => ({
    body: text,
    receivedAt: '2026-11-28T01:00:01.000Z',
    maxAlerts: 1,
  });

  /** One test's own prefix: its queue, a worker that records each job it runs, the forwarder's metrics and logs. */
  let tests = 0;
  const setup = () => {
    const prefix = `intake-${++tests}`;
    const keyPrefix = `${prefix}:`;
    const connection = createRedisConnection(r.server.url);
    const queue = new Queue(ALERTS_QUEUE, { connection, prefix: queuePrefix(prefix, ALERTS_QUEUE) });
    const ran: string[] = [];
    let worker: Worker | undefined;
    const metrics = createWorkerMetrics({ registry: new Registry() });
    const logs = captureLogs('info');
    closers.push(async () => {
      await worker?.close();
      await queue.close();
      await connection.quit();
    });
    const count = async (outcome: string) =>
      (await metrics.alertIntake.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    return {
      prefix,
      keyPrefix,
      keys: alertIntakeKeys(keyPrefix),
      connection,
      queue,
      ran,
      metrics,
      logs,
      count,
      /** The alerts jobs run by a plain worker: each job's id and group key, in the order they ran. */
      startWorker() {
        worker = new Worker<AlertsJobData>(
          ALERTS_QUEUE,
          async (job) => void ran.push(`${job.id} ${notificationOf(job.data).groupKey}`),
          { connection, prefix: queuePrefix(prefix, ALERTS_QUEUE) },
        );
      },
      forwarder(extra: Partial<Parameters<typeof startAlertIntakeForwarder>[0]> = {}) {
        const f = startAlertIntakeForwarder({
          redis: connection,
          queue,
          keyPrefix,
          log: logs.log,
          metrics,
          graceMs: 600,
          blockSeconds: 1,
          ...extra,
        });
        closers.push(() => f.stop());
        return f;
      },
      /** Every job forwarded and none left to run. */
      async settled(forwarded: number) {
        return eventually(
          async () => ({
            forwarded: await count('forwarded'),
            counts: await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
          }),
          (s) => s.forwarded >= forwarded && s.counts.waiting + s.counts.active + s.counts.delayed === 0,
        );
      },
    };
  };

  it('the webhooks of one turn are one LPUSH; each becomes its alerts job, which runs once; a repeat is the same job', async () => {
    const t = setup();
    const push = createAlertIntakePusher(r.redis, { keyPrefix: t.keyPrefix });
    const texts = ['a1', 'b2', 'c3'].map((f) => body(`{}:{g="${f}"}`, [f, `${f}ff`]));
    const all = [...texts, texts[0]!].map((text) => {
      const q = queued(text);
      return { q, n: parseWebhook(text, q) };
    });
    await r.redis.config('RESETSTAT');
    await Promise.all(all.map(({ n, q }) => push(n, q)));
    expect(/cmdstat_lpush:calls=(\d+)/.exec(await r.redis.info('commandstats'))?.[1]).toBe('1');
    // The body as received behind its header, oldest at the end the forwarders take from.
    expect(await r.redis.lrange(t.keys.pending, 0, -1)).toEqual(
      all.map(({ q }) => frameIntakeItem(q).toString()).reverse(),
    );

    t.startWorker();
    t.forwarder();
    const { counts } = await t.settled(4);
    expect(counts.completed).toBe(3);
    const ids = all.slice(0, 3).map(({ n }) => alertsJobId(n));
    expect(t.ran.sort()).toEqual(ids.map((id, i) => `${id} {}:{g="${['a1', 'b2', 'c3'][i]}"}`).sort());
    // The job holds what serve's own queuing stored: the body as received, read again by the worker (maxAlerts and
    // the overflow included).
    const first = (await t.queue.getJob(ids[0]!))!;
    expect(first.data).toEqual(all[0]!.q);
    expect(first.opts.attempts).toBe(30);
    const read = notificationOf(first.data as AlertsJobData);
    expect(read).toEqual(all[0]!.n);
    expect(read.overflow).toBe(1);
    expect(await r.redis.llen(t.keys.pending)).toBe(0);
    expect((await t.metrics.alertIntakePending.get()).values[0]?.value).toBe(0);
    // The same notification again later (Alertmanager's retry after a lost answer): forwarded, and still one job.
    await push(all[0]!.n, queued(texts[0]!));
    await t.settled(5);
    expect(t.ran).toHaveLength(3);
  });

  it('serve answers only once Redis took the push: Redis stopped is a 503 for each webhook, a refused body stores nothing', async () => {
    const server = await startRedis();
    closers.push(() => server.stop());
    const commands = createCommandRedis(server.url);
    closers.push(async () => commands.disconnect());
    const keyPrefix = 'intake-serve:';
    const TOKEN = 'intake-test-token-0123456789';
    const route = createAlertmanagerRoute({
      token: TOKEN,
      maxBodyBytes: 1 << 20,
      maxAlertsPerRequest: 1000,
      enqueue: createAlertIntakePusher(commands, { keyPrefix }),
      log: silentLogger,
    });
    const http1 = http.createServer((req, res) => route.handler(req, res));
    await new Promise<void>((resolve) => http1.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => http1.close(resolve)));
    const url = `http://127.0.0.1:${(http1.address() as AddressInfo).port}/alertmanager`;
    const post = async (text: string) => {
      const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: text });
      return `${res.status} ${(await res.text()).split(':')[0]!.trim()}`;
    };
    const intake = alertIntakeKeys(keyPrefix).pending;
    const length = async () => {
      const client = new Redis(server.url);
      try {
        return await client.llen(intake);
      } finally {
        client.disconnect();
      }
    };
    expect(await post(body('{}:{g="up"}', ['a1']))).toBe('200 queued');
    expect(await length()).toBe(1);
    expect(await post('{"version": "4", "alerts": [')).toBe('400 body is not JSON');
    expect(await length()).toBe(1);
    await server.kill();
    expect(await Promise.all([post(body('{}:{g="d1"}', ['d1'])), post(body('{}:{g="d2"}', ['d2']))])).toEqual([
      '503 not queued',
      '503 not queued',
    ]);
    await server.restart();
    expect(
      await eventually(
        () => post(body('{}:{g="back"}', ['b1'])),
        (s) => s === '200 queued',
      ),
    ).toBe('200 queued');
    // No AOF: the restarted Redis holds the webhook sent after it came back, and nothing of the refused ones.
    expect(await length()).toBe(1);
  });

  it('Redis not taking the push fails every caller of it', async () => {
    const down = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const push = createAlertIntakePusher(down, { keyPrefix: 'intake-down:' });
    const results = await Promise.allSettled(
      ['d1', 'e2'].map((f) => {
        const q = queued(body(`{}:{g="${f}"}`, [f]));
        return push(parseWebhook(q.body, q), q);
      }),
    );
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    down.disconnect();
  });

  it('a forwarder that dies holding webhooks: another gives them back after the grace period, each job stored and run once', async () => {
    const t = setup();
    // A forwarder whose jobs Redis refuses (the queue's id counter is not a number): it keeps the batch in its own list
    // and tries again.
    const idKey = `${queuePrefix(t.prefix, ALERTS_QUEUE)}:${ALERTS_QUEUE}:id`;
    await r.redis.set(idKey, 'not a number');
    const doomed = createRedisConnection(r.server.url);
    const doomedQueue = new Queue(ALERTS_QUEUE, { connection: doomed, prefix: queuePrefix(t.prefix, ALERTS_QUEUE) });
    const a = t.forwarder({ redis: doomed, queue: doomedQueue, id: 'doomed' });
    closers.push(() => doomedQueue.close());
    const stuck = queued(body('{}:{g="stuck"}', ['5a']));
    await r.redis.lpush(t.keys.pending, frameIntakeItem(stuck));
    expect(
      await eventually(
        () => r.redis.lrange(t.keys.forwarding(a.id), 0, -1),
        (held) => held.length === 1,
      ),
    ).toEqual([frameIntakeItem(stuck).toString()]);
    // Then it dies between the take and the end of its batch: its connection is gone, its heartbeat is no longer
    // renewed, its list stays.
    doomed.disconnect();
    await r.redis.del(idKey);
    // Another forwarder died after its batch was stored and before emptying its list: those webhooks are jobs already.
    const done = queued(body('{}:{g="done"}', ['d0']));
    t.startWorker();
    await t.queue.add('notification', done, { jobId: alertsJobId(parseWebhook(done.body, done)) });
    await r.redis.sadd(t.keys.forwarders, 'gone');
    await r.redis.lpush(t.keys.forwarding('gone'), frameIntakeItem(done));

    t.forwarder({ id: 'survivor' });
    const { counts } = await t.settled(2);
    expect(await t.count('recovered')).toBe(2);
    expect(counts.completed).toBe(2);
    expect(t.ran.map((line) => line.split(' ')[1]).sort()).toEqual(['{}:{g="done"}', '{}:{g="stuck"}']);
    expect(await r.redis.exists(t.keys.forwarding('doomed'), t.keys.forwarding('gone'), t.keys.pending)).toBe(0);
    expect((await r.redis.smembers(t.keys.forwarders)).sort()).toEqual(['survivor']);
    expect(t.logs.messages.filter((m) => /stopped answering/.test(m))).toHaveLength(2);
  });

  it('an item serve did not write is dropped, counted and logged in one neutralized line; the others still go', async () => {
    const t = setup();
    t.startWorker();
    t.forwarder();
    const good = (g: string) => frameIntakeItem(queued(body(`{}:{g="${g}"}`, ['ab'])));
    await r.redis.lpush(
      t.keys.pending,
      good('first'),
      'hello\u001b[31m\nFORGED LINE',
      'am1 2026-11-28T01:00:01.000Z 1\n{"version":"3"}',
      good('second'),
    );
    await t.settled(2);
    expect(await t.count('dropped')).toBe(2);
    expect(t.ran.map((line) => line.split(' ')[1]).sort()).toEqual(['{}:{g="first"}', '{}:{g="second"}']);
    expect(await r.redis.lrange(t.keys.dropped, 0, -1)).toHaveLength(2);
    const line = t.logs.records.find((rec) => /dropped/.test(String(rec.msg)))!;
    expect(t.logs.records.filter((rec) => /dropped/.test(String(rec.msg)))).toHaveLength(1);
    expect(line).toMatchObject({ dropped: 2, reason: 'not an intake item', item: 'hello ⏎ FORGED LINE' });
    // It keeps going.
    await r.redis.lpush(t.keys.pending, good('third'));
    await t.settled(3);
    expect(t.ran).toHaveLength(3);
  });

  it('stops at once while it waits, and leaves no registration behind', async () => {
    const t = setup();
    const f = t.forwarder({ blockSeconds: 30 });
    await eventually(
      () => r.redis.sismember(t.keys.forwarders, f.id),
      (n) => n === 1,
    );
    await f.stop();
    expect(await r.redis.sismember(t.keys.forwarders, f.id)).toBe(0);
    expect(await r.redis.exists(t.keys.heartbeat(f.id), t.keys.forwarding(f.id))).toBe(0);
    // The next push stays in the intake for the next forwarder.
    await r.redis.lpush(t.keys.pending, frameIntakeItem(queued(body('{}:{g="later"}', ['ab']))));
    expect(await r.redis.llen(t.keys.pending)).toBe(1);
  });

  it('stops at once while Redis is unreachable', async () => {
    const connection = createRedisConnection(`redis://127.0.0.1:${await freePort()}`);
    const queue = new Queue(ALERTS_QUEUE, { connection, prefix: queuePrefix('intake-down', ALERTS_QUEUE) });
    queue.on('error', () => undefined);
    const f = startAlertIntakeForwarder({ redis: connection, queue, keyPrefix: 'intake-down:', log: silentLogger });
    await f.stop();
    await queue.close().catch(() => undefined);
    connection.disconnect();
  });

  it('waits out a Redis restart and forwards what arrives after it', async () => {
    const server = await startRedis();
    closers.push(() => server.stop());
    const connection = createRedisConnection(server.url);
    closers.push(() => connection.quit());
    const queue = new Queue(ALERTS_QUEUE, { connection, prefix: queuePrefix('intake-restart', ALERTS_QUEUE) });
    queue.on('error', () => undefined);
    closers.push(() => queue.close());
    const logs = captureLogs('info');
    const f = startAlertIntakeForwarder({
      redis: connection,
      queue,
      keyPrefix: 'intake-restart:',
      log: logs.log,
      graceMs: 600,
      blockSeconds: 1,
    });
    closers.push(() => f.stop());
    const keys = alertIntakeKeys('intake-restart:');
    await eventually(
      () => connection.sismember(keys.forwarders, f.id),
      (n) => n === 1,
    );
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await server.restart();
    const q = queued(body('{}:{g="after"}', ['af']));
    const client = new Redis(server.url);
    closers.push(async () => client.disconnect());
    await client.lpush(keys.pending, frameIntakeItem(q));
    const jobId = alertsJobId(parseWebhook(q.body, q));
    expect(
      await eventually(
        async () => (await queue.getJob(jobId))?.data as unknown,
        (d) => d !== undefined,
      ),
    ).toEqual(q);
    expect(logs.messages).toEqual([]);
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
