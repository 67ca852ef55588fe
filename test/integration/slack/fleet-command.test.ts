import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { App } from '@slack/bolt';
import { toClusterConfig } from '../../../src/cluster/fleet/to-cluster-config.js';
import { createClusterSet } from '../../../src/config/cluster-set.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { Report } from '../../../src/report/report.js';
import { createMetrics } from '../../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../../src/slack/receive/create-slack-app.js';
import { parseCommand } from '../../../src/slack/receive/parse-command.js';
import { registerListeners } from '../../../src/slack/register-listeners.js';
import { createProposalStore } from '../../../src/store/proposal-store.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { captureLogs } from '../../support/capture-logs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { signSlackRequest, slashCommandBody } from '../../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';
const config = parseConfig(
  {
    clusters: [{ name: 'lab', dump: './z', slack: { channels: ['C0LAB'] } }],
    fleets: [{ name: 'prod', slack: { alertChannel: 'C0FLEET' } }],
    scan: { freshSeconds: 3600 },
  },
  '/tmp',
);
const fleet = config.fleets[0]!;
const discovered = (name: string, namespace: string, clusterName: string, enrolled: boolean) =>
  toClusterConfig(fleet, { name, fleet: 'prod', namespace, clusterName, enrolled, credentials: 'enrolled' });
createClusterSet(config).setDiscovered([
  discovered('team-a/web', 'team-a', 'web', true),
  discovered('team-b/web', 'team-b', 'web', false),
  discovered('db', 'team-a', 'db', true),
  discovered('cache', 'team-c', 'cache', false),
]);
const report = (cluster: string, status: Report['status']): Report => ({
  cluster,
  generatedAt: '2025-03-01T10:00:00.000Z',
  collectedAt: '2025-03-01T10:00:00.000Z',
  status,
  sections: [],
  findings: [],
  partial: [],
});

describe('/k8s-health in fleet mode (real Bolt receiver, discovered clusters in config.clusters)', () => {
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: FakeSlackApi;
  let app: App;
  let baseUrl: string;
  const now = new Date('2025-03-01T10:00:10Z');

  beforeAll(async () => {
    redisServer = await startRedis();
    redis = new Redis(redisServer.url);
    slack = await startFakeSlackApi({ validToken: TOKEN });
    const reports = createReportStore(redis, { keyPrefix: 'it:', now: () => now });
    await reports.save(report('team-a/web', 'healthy'));
    await reports.save(report('db', 'critical'));
    await reports.save(report('team-b/web', 'degraded'));
    app = (await createSlackApp({ botToken: TOKEN, signingSecret: SECRET, apiUrl: slack.apiUrl, logLevel: 'error' }))
      .app;
    registerListeners(app, {
      config,
      reports,
      proposals: createProposalStore(redis, { keyPrefix: 'it:' }),
      requestScan: createScanRequester(async (name) => report(name, 'healthy'), reports),
      metrics: createMetrics({ defaultMetrics: false }),
      now: () => now,
      log: captureLogs().log,
    });
    const server = (await app.start(0)) as Server;
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.stop();
    redis?.disconnect();
    await slack?.close();
    await redisServer?.stop();
  });

  const command = async (text: string, channel_id: string) => {
    const body = slashCommandBody({ text, channel_id, response_url: slack.responseUrl() });
    const res = await fetch(`${baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
      body,
    });
    const t = await res.text();
    return t.startsWith('{') ? (JSON.parse(t) as { text?: string }) : undefined;
  };

  it('no argument in a fleet channel: every cluster it may query, worst first, from the stored reports', async () => {
    expect(await command('', 'C0FLEET')).toBeUndefined();
    const [call] = await slack.waitFor(
      'the list',
      () => slack.callsTo('chat.postMessage').length > 0 && slack.callsTo('chat.postMessage'),
    );
    const lines = (call!.body.blocks as { text: { text: string } }[])[1]!.text.text.split('\n');
    expect(lines).toEqual([
      ':red_circle: `db` — critical (fleet prod)',
      ':large_orange_circle: `team-b/web` — degraded (fleet prod · management side only)',
      ':hourglass: `cache` — not scanned yet (fleet prod · management side only)',
      ':large_green_circle: `team-a/web` — healthy (fleet prod)',
    ]);
    expect((call!.body.blocks as { text: { text: string } }[])[0]!.text.text).toMatch(
      /^\*Clusters of this channel\* — 4: 1 critical, 1 degraded, 1 not scanned yet, 1 healthy\./,
    );
  });

  it('a channel bound to one configured cluster still gets that cluster', () => {
    const parsed = parseCommand('', { config, channelId: 'C0LAB' });
    expect(parsed.kind === 'report' && parsed.cluster.name).toBe('lab');
  });

  it('namespace/name picks one of two clusters sharing a name; the bare name says which to type', async () => {
    const parsed = parseCommand('team-b/web', { config, channelId: 'C0FLEET' });
    expect(parsed.kind === 'report' && parsed.cluster.name).toBe('team-b/web');
    const byObject = parseCommand('team-a/db', { config, channelId: 'C0FLEET' });
    expect(byObject.kind === 'report' && byObject.cluster.name).toBe('db');
    const ack = await command('web', 'C0FLEET');
    expect(ack?.text).toBe('Several clusters are named "web": type one of team-a/web, team-b/web.');
  });
});
