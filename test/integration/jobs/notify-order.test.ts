import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import type { WorkerKind } from '../../../src/jobs/worker-kinds.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { createReplayCluster, randomPrefix, REPLAY_DIR, type ReplayCluster } from './replay-cluster.js';

const SCENARIOS = path.resolve('examples/scenarios');
const HEALTHY = path.join(SCENARIOS, 'benign-healthy');
const CHANNEL = 'C0ALERTS';

/**
 * What an on-call sees first when a burst waits for the channel: with changes of three clusters queued
 * together (a follow-up in an open thread, a new warning, a new critical and warning), the notify
 * worker posts every new incident's first message before any follow-up, critical first.
 */
describe('notify order under a burst: new incidents first, worst first', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  let workers: WorkerSet | undefined;
  const prefix = randomPrefix();
  const c: Record<'loop' | 'warn' | 'crit', ReplayCluster> = {
    loop: createReplayCluster(),
    warn: createReplayCluster(),
    crit: createReplayCluster(),
  };
  const config = configSchema.parse({
    clusters: Object.entries(c).map(([name, r]) => ({ name, dump: r.link, slack: { alertChannel: CHANNEL } })),
    scan: { intervalSeconds: 3600, resolveAfterScans: 3 },
    thresholds: { loopReplacements: 2 },
  });
  const start = (only: WorkerKind[]) =>
    startJobs({
      config,
      redisUrl: redis.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 50,
      only,
      notifyConcurrency: 1,
    });
  const posts = () => slack.callsTo('chat.postMessage').filter((x) => x.body.channel === CHANNEL);

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
  });
  afterAll(async () => {
    await workers?.close();
    const r = new Redis(redis.url);
    await r.flushall();
    r.disconnect();
    await slack.close();
    await redis.stop();
    for (const r of Object.values(c)) r.cleanup();
  });

  it('posts the critical parent, then the warnings, then the reply in the open thread', async () => {
    // An open thread: the loop at t24; the two other clusters healthy (older data than what follows).
    c.loop.show(path.join(REPLAY_DIR, 't00'));
    c.warn.show(c.warn.derive(HEALTHY, '2025-01-01T00:00:00Z'));
    c.crit.show(c.crit.derive(HEALTHY, '2025-01-01T00:00:00Z'));
    workers = await start(['scan', 'notify']);
    for (const name of ['loop', 'warn', 'crit']) await workers.scan(name);
    // The loop needs its history: three captures twelve minutes apart.
    for (const t of ['t12', 't24']) {
      c.loop.show(path.join(REPLAY_DIR, t));
      await workers.scan('loop');
    }
    await slack.waitFor('the loop thread', () => posts().some((x) => String(x.body.text).startsWith('CRITICAL loop:')));
    await workers.close();

    // The burst, queued with no notify worker running: a follow-up and three new incidents.
    c.loop.show(path.join(REPLAY_DIR, 't36'));
    c.warn.show(path.join(SCENARIOS, 'rollout-paused-machinedeployment'));
    c.crit.show(path.join(SCENARIOS, 'volume-detach-pending-vsphere-csi'));
    workers = await start(['scan']);
    for (const name of ['loop', 'warn', 'crit']) await workers.scan(name);
    await workers.close();
    const before = posts().length;

    workers = await start(['notify']);
    await slack.waitFor('the burst posted', () => posts().length >= before + 4 && posts().slice(before));
    const burst = posts()
      .slice(before, before + 4)
      .map(
        (x) =>
          `${x.body.thread_ts ? 'reply' : 'parent'} ${String(x.body.text).split(' ')[0]} ${String(x.body.text).split(' ')[1]}`,
      );
    expect(burst[0]).toBe('parent CRITICAL crit:');
    expect(burst.slice(1, 3).sort()).toEqual(['parent WARNING crit:', 'parent WARNING warn:']);
    expect(burst[3]).toMatch(/^reply /);
  }, 90_000);
});
