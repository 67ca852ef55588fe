import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { createReplayCluster, randomPrefix, type ReplayCluster } from './replay-cluster.js';

const WEBHOOK_DOWN = path.resolve('examples/scenarios/s3-webhook-denies-outside-namespace');
const HEALTHY = path.resolve('examples/scenarios/benign-healthy');
const CHANNEL = 'C0FLEET';

/**
 * One policy webhook down on three clusters of one alert channel (the same configuration, the same
 * service): one fleet thread — the first cluster's thread, its parent edited to list every cluster —
 * that grows as clusters join, gets each cluster's own card (with its fix) as a reply, and marks a
 * cluster that recovers in place. Real BullMQ scan and notify workers, real Redis, the fake Slack API.
 */
describe('fleet incident: one fault on several clusters is one thread', () => {
  let redis: RedisServer;
  let slack: FakeSlackApi;
  let workers: WorkerSet | undefined;
  const clusters: Record<string, ReplayCluster> = {};
  const names = ['shop-a', 'shop-b', 'shop-c'];
  const prefix = randomPrefix();

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
    // Healthy at start (the schedulers scan every cluster once when they start), then failing one by one.
    for (const n of names) {
      clusters[n] = createReplayCluster();
      clusters[n]!.show(clusters[n]!.derive(HEALTHY, '2025-03-04T08:00:00Z'));
    }
    const config = configSchema.parse({
      clusters: names.map((name) => ({ name, dump: clusters[name]!.link, slack: { alertChannel: CHANNEL } })),
      scan: { intervalSeconds: 3600, resolveAfterScans: 1, correlateSeconds: 60 },
    });
    workers = await startJobs({
      config,
      redisUrl: redis.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 50,
    });
  });

  afterAll(async () => {
    await workers?.close();
    const r = new Redis(redis.url);
    await r.flushall();
    r.disconnect();
    await slack.close();
    await redis.stop();
    for (const c of Object.values(clusters)) c.cleanup();
  });

  const parents = () =>
    slack.callsTo('chat.postMessage').filter((c) => c.body.channel === CHANNEL && !c.body.thread_ts);
  const webhookParents = () =>
    parents().filter(
      (c) =>
        JSON.stringify(c.body.blocks).includes('gatekeeper-validating-webhook-configuration') &&
        JSON.stringify(c.body.blocks).includes('webhook.unavailable-blocking'),
    );
  const shown = (ts: string) => JSON.stringify(slack.messages.get(`${CHANNEL}/${ts}`)?.blocks ?? []);

  const fail = async (name: string) => {
    clusters[name]!.show(clusters[name]!.derive(WEBHOOK_DOWN, '2025-03-04T08:15:00Z'));
    await workers!.scan(name);
  };
  const tsOf = (text: string) =>
    [...slack.messages.entries()]
      .find(([k, m]) => k.startsWith(`${CHANNEL}/`) && String(m.text).includes(text))?.[0]
      .split('/')[1];

  it('forms on the second cluster, grows with the third, lists per-cluster cards, marks recovered clusters in place, resolves when all recovered', async () => {
    await workers!.scan('shop-a');
    await workers!.scan('shop-b');
    await workers!.scan('shop-c');
    expect(parents()).toHaveLength(0);

    await fail('shop-a');
    const first = await slack.waitFor('shop-a opens the webhook thread', () => webhookParents()[0]);
    expect(first.body.text).toContain('shop-a');
    const ts = (await slack.waitFor('its ts', () => tsOf('refuses pods')))!;

    await fail('shop-b');
    await slack.waitFor(
      'the parent becomes the fleet parent naming both',
      () =>
        shown(ts).includes('Fleet incident: webhook.unavailable-blocking on 2 clusters') &&
        shown(ts).includes('shop-b'),
    );
    await slack.waitFor("shop-b's own card as a reply, with its fix", () =>
      slack
        .callsTo('chat.postMessage')
        .find((c) => c.body.thread_ts === ts && JSON.stringify(c.body.blocks).includes('*shop-b* has the same fault')),
    );

    await fail('shop-c');
    await slack.waitFor('grown to three', () => shown(ts).includes('on 3 clusters') && shown(ts).includes('shop-c'));
    // One thread for the webhook, whatever the number of clusters; the parent says what is the same.
    expect(webhookParents()).toHaveLength(1);
    expect(shown(ts)).toContain('gatekeeper-system/gatekeeper-webhook-service');

    // shop-b recovers: marked in place, the others still failing.
    clusters['shop-b']!.show(clusters['shop-b']!.derive(HEALTHY, '2025-03-04T08:30:00Z'));
    await workers!.scan('shop-b');
    await slack.waitFor('shop-b marked recovered in place', () => shown(ts).includes('~shop-b~ recovered'));
    expect(shown(ts)).toContain('2 of 3 clusters failing');
    await slack.waitFor("shop-b's resolution replied in the fleet thread", () =>
      slack
        .callsTo('chat.postMessage')
        .find(
          (c) =>
            c.body.thread_ts === ts &&
            JSON.stringify(c.body.blocks).includes('*shop-b*') &&
            /Resolved/i.test(JSON.stringify(c.body.blocks)),
        ),
    );
    expect(webhookParents()).toHaveLength(1);

    // The anchor and the last one recover: the fleet thread resolves, every cluster marked.
    for (const name of ['shop-a', 'shop-c']) {
      clusters[name]!.show(clusters[name]!.derive(HEALTHY, '2025-03-04T08:45:00Z'));
      await workers!.scan(name);
    }
    await slack.waitFor(
      'every cluster recovered',
      () =>
        shown(ts).includes('Every cluster recovered') &&
        shown(ts).includes('~shop-a~ recovered') &&
        shown(ts).includes('~shop-c~ recovered'),
    );
    expect(shown(ts)).toContain('Resolved · Fleet incident: webhook.unavailable-blocking on 3 clusters');
    await slack.waitFor("the anchor's own resolution replied naming it", () =>
      slack
        .callsTo('chat.postMessage')
        .find(
          (c) =>
            c.body.thread_ts === ts &&
            JSON.stringify(c.body.blocks).includes('*shop-a*') &&
            /Resolved/i.test(JSON.stringify(c.body.blocks)),
        ),
    );
    // Both root causes of the fault (the refusing webhook, its unexcluded system namespaces) are one fleet thread each.
    expect(parents()).toHaveLength(2);
  }, 60_000);
});
