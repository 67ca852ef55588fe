import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { createReplayCluster, randomPrefix, REPLAY_DIR, type ReplayCluster } from './replay-cluster.js';

/**
 * The S3 recreation loop played forward through the real BullMQ scan and notify workers against the
 * fake Slack Web API: the loop opens one thread, a restart of the workers in the middle of the
 * incident continues that same thread, the next recreation is a reply, and the fix resolves it.
 */
describe('alert thread lifecycle (S3 recreation loop, then fixed)', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  let replay: ReplayCluster;
  let workers: WorkerSet | undefined;
  const prefix = randomPrefix();
  const config = () =>
    configSchema.parse({
      clusters: [{ name: 'tkc-loop', dump: replay.link, slack: { alertChannel: 'C0ALERTS' } }],
      // The scheduler is not what this test drives: scans are requested one by one through the queue.
      scan: { intervalSeconds: 3600, resolveAfterScans: 3 },
      thresholds: { loopReplacements: 2 },
    });
  const start = () =>
    startJobs({
      config: config(),
      redisUrl: redis.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 100,
    });
  const posts = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS');

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
    replay = createReplayCluster();
    replay.show(path.join(REPLAY_DIR, 't00'));
    workers = await start();
  });

  afterAll(async () => {
    await workers?.close();
    const r = new Redis(redis.url);
    await r.flushall();
    r.disconnect();
    await slack.close();
    await redis.stop();
    replay.cleanup();
  });

  it('opens one thread, survives a restart, replies to each change and resolves', async () => {
    await workers!.scan('tkc-loop');
    replay.show(path.join(REPLAY_DIR, 't12'));
    await workers!.scan('tkc-loop');
    expect(posts()).toHaveLength(0);

    replay.show(path.join(REPLAY_DIR, 't24'));
    const at24 = await workers!.scan('tkc-loop');
    const loop = at24.findings.find((f) => f.id === 'capi.recreation-loop');
    expect(loop?.severity).toBe('critical');
    const parent = await slack.waitFor('the parent message', () => posts()[0]);
    expect(parent.body.thread_ts).toBeUndefined();
    expect(JSON.stringify(parent.body.blocks)).toContain('tkc-loop-control-plane: 2 machine replacements');
    const parentTs = (await slack.waitFor('parent ts', () =>
      [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/')),
    ))!.split('/')[1]!;

    // Restart in the middle of the open incident: a new set of workers, new connections.
    await workers!.close();
    workers = await start();

    replay.show(path.join(REPLAY_DIR, 't36'));
    await workers.scan('tkc-loop');
    const reply = await slack.waitFor('a reply for the recreation', () =>
      posts().find((c) => c.body.thread_ts === parentTs),
    );
    expect(JSON.stringify(reply.body.blocks)).toContain('Recreation counted again: 2');
    await slack.waitFor('the parent updated', () => slack.callsTo('chat.update').find((c) => c.body.ts === parentTs));
    expect(JSON.stringify(slack.messages.get(`C0ALERTS/${parentTs}`)!.blocks)).toContain('3 machine replacements');

    // Fixed: the looping machine is gone and the loop window has passed.
    const fixed = replay.derive(path.join(REPLAY_DIR, 't36'), '2025-02-17T12:10:00Z', {
      dropMachines: ['tkc-loop-control-plane-k2v4d'],
    });
    replay.show(fixed);
    for (let i = 0; i < 3; i++) {
      const r = await workers.scan('tkc-loop');
      expect(r.findings.filter((f) => f.id === 'capi.recreation-loop')).toHaveLength(0);
    }
    const resolved = await slack.waitFor('the resolved reply', () =>
      posts().find((c) => c.body.thread_ts === parentTs && JSON.stringify(c.body.blocks).includes('Resolved')),
    );
    expect(resolved.body.text).toContain('Resolved');
    await slack.waitFor(
      'the parent marked resolved',
      () => JSON.stringify(slack.messages.get(`C0ALERTS/${parentTs}`)!.blocks).includes('Resolved') || undefined,
    );
    // The duration is computed from the problem's own start (the first replacement, 09:57, before the
    // first scan that saw it at 10:24) to the last sighting (10:36); times are Slack date tokens.
    const resolvedParent = JSON.stringify(slack.messages.get(`C0ALERTS/${parentTs}`)!.blocks);
    expect(resolvedParent).toContain(
      `*Resolved* <!date^${Date.parse('2025-02-17T12:10:00Z') / 1000}^{date_short_pretty} {time}|2025-02-17 12:10 UTC> · lasted 39m (since <!date^${Date.parse('2025-02-17T09:57:00Z') / 1000}^`,
    );
    expect(resolvedParent).not.toMatch(/\d+m ago/);

    // One thread for the incident: one parent, every other post a reply in it.
    const parents = posts().filter((c) => !c.body.thread_ts);
    expect(parents).toHaveLength(1);
    expect(posts().filter((c) => c.body.thread_ts === parentTs)).toHaveLength(posts().length - 1);
    expect(posts().length).toBe(3);
  });
});
