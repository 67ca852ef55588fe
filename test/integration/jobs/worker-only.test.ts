import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { enqueueRemediation } from '../../../src/jobs/enqueue-remediation.js';
import {
  APPROVALS_QUEUE,
  NOTIFY_QUEUE,
  PROPOSE_QUEUE,
  REMEDIATE_QUEUE,
  SCAN_QUEUE,
  queuePrefix,
} from '../../../src/jobs/queue-names.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { eventually } from '../../support/eventually.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { randomPrefix } from './replay-cluster.js';

/**
 * `k8s-health worker --only`: the Helm chart runs the remediation worker apart
 * from the scan/notify/expiry workers, each under its own ServiceAccount. That split only holds if a
 * process started with a subset really takes no job of the other queues: real Redis, real BullMQ.
 */
const TOKEN = 'xoxb-worker-only';
const config = configSchema.parse({
  clusters: [{ name: 'healthy', dump: path.resolve('examples/scenarios/benign-healthy') }],
  // Long enough that the scheduler's own ticks do not add scan jobs while the test looks.
  scan: { intervalSeconds: 3600 },
});

describe('worker --only: a worker set runs only the workers it was given', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  let reader: Redis;
  const prefix = randomPrefix();
  const queues: Record<string, Queue> = {};
  const sets: WorkerSet[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi({ validToken: TOKEN });
    reader = new Redis(redis.url);
    for (const name of [SCAN_QUEUE, REMEDIATE_QUEUE, NOTIFY_QUEUE, APPROVALS_QUEUE])
      queues[name] = new Queue(name, { connection: { url: redis.url }, prefix: queuePrefix(prefix, name) });
  });
  afterAll(async () => {
    for (const s of sets) await s.close().catch(() => undefined);
    for (const q of Object.values(queues)) {
      await q.obliterate({ force: true }).catch(() => undefined);
      await q.close();
    }
    reader?.disconnect();
    await slack?.close();
    await redis?.stop();
  });

  const start = async (only: Parameters<typeof startJobs>[0]['only']) => {
    const set = await startJobs({
      config,
      redisUrl: redis.url,
      prefix,
      only,
      slack: { token: TOKEN, apiUrl: slack.apiUrl },
    });
    sets.push(set);
    return set;
  };
  const stateOf = (queue: string, id: string) => queues[queue]!.getJobState(id);
  const scansRecorded = () => reader.llen(`${prefix}:history:healthy`);

  it('--only remediate takes remediate jobs and leaves scan jobs alone; --only scan,notify,expiry the reverse', async () => {
    await queues[SCAN_QUEUE]!.add('scan', { cluster: 'healthy' }, { jobId: 'scan-before-remediate-worker' });
    // A request id that does not exist: the remediate worker takes the job and finds nothing to run.
    await enqueueRemediation(queues[REMEDIATE_QUEUE]!, 'req-absent-1');

    const remediateOnly = await start(['remediate']);
    expect(remediateOnly.kinds).toEqual(['remediate']);
    expect(remediateOnly.workers.map((w) => w.name)).toEqual([REMEDIATE_QUEUE, PROPOSE_QUEUE]);
    expect(
      await eventually(
        () => stateOf(REMEDIATE_QUEUE, 'req-absent-1'),
        (s) => s === 'completed',
      ),
    ).toBe('completed');
    // The remediate worker is polling, yet no process listens on the scan queue and the scan job waits.
    expect(await queues[SCAN_QUEUE]!.getWorkersCount()).toBe(0);
    expect(await stateOf(SCAN_QUEUE, 'scan-before-remediate-worker')).toBe('waiting');
    expect(await scansRecorded()).toBe(0);
    // Scan schedulers and the expiry scheduler belong to the other workers.
    expect(await queues[SCAN_QUEUE]!.getJobSchedulers(0, -1)).toEqual([]);
    expect(await queues[APPROVALS_QUEUE]!.getJobSchedulers(0, -1)).toEqual([]);
    await remediateOnly.close();

    await enqueueRemediation(queues[REMEDIATE_QUEUE]!, 'req-absent-2');
    const scanSide = await start(['scan', 'notify', 'expiry']);
    expect(scanSide.kinds).toEqual(['scan', 'notify', 'expiry']);
    expect(scanSide.workers.map((w) => w.name)).toEqual([SCAN_QUEUE, NOTIFY_QUEUE, APPROVALS_QUEUE]);
    expect(
      await eventually(
        () => stateOf(SCAN_QUEUE, 'scan-before-remediate-worker'),
        (s) => s === 'completed',
      ),
    ).toBe('completed');
    expect(await scansRecorded()).toBeGreaterThan(0);
    expect(await queues[REMEDIATE_QUEUE]!.getWorkersCount()).toBe(0);
    expect(await stateOf(REMEDIATE_QUEUE, 'req-absent-2')).toBe('waiting');
    expect((await queues[SCAN_QUEUE]!.getJobSchedulers(0, -1)).map((s) => s.key)).toEqual(['scan:healthy']);
    expect((await queues[APPROVALS_QUEUE]!.getJobSchedulers(0, -1)).map((s) => s.key)).toEqual(['approvals-expiry']);
    await scanSide.close();

    // And the default is every worker: the waiting remediation is taken by a full set.
    const all = await start(undefined);
    expect(all.kinds).toEqual(['scan', 'notify', 'remediate', 'expiry', 'alerts']);
    expect(
      await eventually(
        () => stateOf(REMEDIATE_QUEUE, 'req-absent-2'),
        (s) => s === 'completed',
      ),
    ).toBe('completed');
    await all.close();
  }, 60_000);
});
