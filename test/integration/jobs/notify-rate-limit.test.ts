import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { createChannelLimiter } from '../../../src/slack/post/create-channel-limiter.js';
import { NOTIFY_QUEUE, SCAN_QUEUE, queuePrefix } from '../../../src/jobs/queue-names.js';
import { startJobs } from '../../../src/compose/compose-jobs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { randomPrefix } from './replay-cluster.js';
import { findRootCauses } from '../../../src/report/find-root-causes.js';

const DUMP = path.resolve('examples/scenarios/s1-etcd-no-quorum');

describe('notify worker against Slack rate limits and failures', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  async function runOnce(slack: FakeSlackApi, prefix: string) {
    const config = configSchema.parse({
      clusters: [{ name: 'quorum', dump: DUMP, slack: { alertChannel: 'C0ALERTS' } }],
      scan: { intervalSeconds: 3600 },
    });
    const set = await startJobs({
      config,
      redisUrl: redis.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 100,
    });
    try {
      const report = await set.scan('quorum');
      // One thread per root cause: alerting findings whose cause chain ends at themselves.
      const findings = report.findings.filter((f) => f.severity !== 'info');
      const alerting = findings.filter((f) => findRootCauses(f, findings).length === 0);
      expect(alerting.length).toBeGreaterThan(0);
      expect(alerting.length).toBeLessThan(findings.length);
      await slack.waitFor(
        'one parent per root cause',
        () => slack.messages.size >= alerting.length || undefined,
        30000,
      );
      // A second scan of the unchanged cluster posts nothing more.
      await set.scan('quorum');
      await new Promise((r) => setTimeout(r, 300));
      return { alerting, posted: slack.callsTo('chat.postMessage').length };
    } finally {
      await set.close();
      for (const name of [SCAN_QUEUE, NOTIFY_QUEUE]) {
        const q = new Queue(name, { connection: { url: redis.url }, prefix: queuePrefix(prefix, name) });
        await q.obliterate({ force: true });
        await q.close();
      }
    }
  }

  it('honours 429 Retry-After and posts each message exactly once', async () => {
    const slack = await startFakeSlackApi();
    try {
      slack.fail('chat.postMessage', { status: 429, retryAfter: 1 }, 2);
      const { alerting, posted } = await runOnce(slack, randomPrefix());
      // Two calls were refused with 429, then every parent went out once.
      expect(posted).toBe(alerting.length + 2);
      expect(slack.messages.size).toBe(alerting.length);
    } finally {
      await slack.close();
    }
  });

  it('retries a Slack 5xx with backoff (BullMQ attempts) and still posts exactly once', async () => {
    const slack = await startFakeSlackApi();
    try {
      slack.fail('chat.postMessage', { status: 503 }, 1);
      const { alerting, posted } = await runOnce(slack, randomPrefix());
      expect(posted).toBe(alerting.length + 1);
      expect(slack.messages.size).toBe(alerting.length);
    } finally {
      await slack.close();
    }
  });

  it('the channel limiter hands out distinct slots across connections (≈1 message per interval)', async () => {
    const prefix = `${randomPrefix()}:`;
    const c1 = new Redis(redis.url);
    const c2 = new Redis(redis.url);
    try {
      const l1 = createChannelLimiter(c1, { keyPrefix: prefix, intervalMs: 200 });
      const l2 = createChannelLimiter(c2, { keyPrefix: prefix, intervalMs: 200 });
      const started = Date.now();
      const finished: number[] = [];
      await Promise.all(
        [l1, l2, l1, l2, l1, l2].map((l) => l.wait('C0X').then(() => finished.push(Date.now() - started))),
      );
      // Six sends need five gaps: the last one cannot have gone out before ~1 s (lower bound only).
      expect(Math.max(...finished)).toBeGreaterThanOrEqual(900);
    } finally {
      c1.disconnect();
      c2.disconnect();
    }
  });
});
