import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import type { App } from '@slack/bolt';
import { parseConfig } from '../../../src/config/load-config.js';
import type { Report } from '../../../src/report/report.js';
import { PROPOSE_FIX_ACTION_PATTERN } from '../../../src/slack/action-ids.js';
import { createHealthRoutes } from '../../../src/slack/receive/create-health-routes.js';
import { createMetrics } from '../../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../../src/slack/receive/create-slack-app.js';
import { parseCommand } from '../../../src/slack/receive/parse-command.js';
import { createProposalStore } from '../../../src/store/proposal-store.js';
import { registerListeners } from '../../../src/slack/register-listeners.js';
import { SlackStartupError } from '../../../src/slack/receive/slack-startup-error.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../../support/sign-slack-request.js';
import { FOREIGN_ACTION_PATTERN } from '../../../src/slack/action-ids.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { webhookDownFinding } from '../../support/webhook-down-finding.js';
import { useFuzzSeed } from '../../support/fuzz-seed.js';
import { captureLogs } from '../../support/capture-logs.js';
import { cardState, detailsButton, hasDetailsButton } from '../../support/card-lines.js';
import { linesOf } from '../../support/inspect-slack-text.js';
import { CLUSTER_PICK_ACTION_ID, DETAILS_ACTION_ID } from '../../../src/slack/action-ids.js';
import { renderClusterPicker } from '../../../src/slack/render/render-cluster-picker.js';

useFuzzSeed();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';
const config = parseConfig(
  {
    clusters: [
      { name: 'prod-east', dump: './x', slack: { channels: ['C0INCIDENT', 'C0ALERTS'] } },
      { name: 'prod-west', dump: './y', slack: { channels: ['C0WEST'] } },
      { name: 'lab', dump: './z' },
      { name: 'lab-b', dump: './z' },
    ],
    scan: { freshSeconds: 30 },
  },
  '/tmp',
);

const webhookDown = webhookDownFinding;

function makeReport(cluster: string, collectedAt: Date, status: Report['status'] = 'critical'): Report {
  return {
    cluster,
    generatedAt: collectedAt.toISOString(),
    collectedAt: collectedAt.toISOString(),
    status,
    sections: [
      { id: 'nodes', status: 'degraded', summary: '4 of 5 nodes Ready' },
      { id: 'webhooks', status: status === 'healthy' ? 'healthy' : 'critical', summary: '1 of 3 webhooks down' },
    ],
    findings: status === 'healthy' ? [] : [webhookDown],
    partial: [],
  };
}

let redisServer: RedisServer;
let redis: Redis;
let slack: FakeSlackApi;
let app: App;
let baseUrl: string;
let clock = new Date('2025-03-01T10:00:00Z');
let scans: string[] = [];
let scanGate: Promise<void> = Promise.resolve();
let scanError: Error | undefined;
const { log } = captureLogs();
const metrics = createMetrics({ defaultMetrics: false });
const reports = () => createReportStore(redis, { keyPrefix: 'it:', now: () => clock });
/** Store a report as if its scan ended at `at` (freshness is judged on that time). */
async function storeReport(report: Report, at: Date): Promise<void> {
  await createReportStore(redis, { keyPrefix: 'it:', now: () => at }).save(report);
}

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
  slack = await startFakeSlackApi({ validToken: TOKEN });
  const store = reports();
  const started = await createSlackApp({
    botToken: TOKEN,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    logLevel: 'error',
    customRoutes: createHealthRoutes({ redis, slackAuthTest: () => app.client.auth.test(), metrics }),
  });
  app = started.app;
  registerListeners(app, {
    config,
    reports: store,
    proposals: createProposalStore(redis, { keyPrefix: 'it:' }),
    requestScan: createScanRequester(async (name) => {
      scans.push(name);
      await scanGate;
      if (scanError) throw scanError;
      return makeReport(name, clock, 'healthy');
    }, store),
    metrics,
    now: () => clock,
    log,
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

beforeEach(async () => {
  await redis.flushall();
  slack.calls.length = 0;
  slack.responses.length = 0;
  slack.messages.clear();
  slack.notInChannel.clear();
  scans = [];
  scanGate = Promise.resolve();
  scanError = undefined;
  clock = new Date('2025-03-01T10:00:00Z');
});

async function post(body: string, headers: Record<string, string> = signSlackRequest(SECRET, body)) {
  const res = await fetch(`${baseUrl}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, json: text.startsWith('{') ? (JSON.parse(text) as AnyBlock) : undefined };
}

const command = (text: string, channel_id = 'C0INCIDENT') =>
  post(slashCommandBody({ text, channel_id, response_url: slack.responseUrl() }));
const blocksText = (blocks: AnyBlock[] | undefined) => JSON.stringify(blocks ?? []);

describe('/k8s-health over the real Bolt HTTP receiver', () => {
  it('answers from a fresh stored report: the card (state with Details beside it, root cause and its why, fix button with an opaque id)', async () => {
    await storeReport(makeReport('prod-east', new Date('2025-03-01T09:59:50Z')), new Date('2025-03-01T10:00:00Z'));
    clock = new Date('2025-03-01T10:00:30Z');
    const res = await command('prod-east');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const [call] = await slack.waitFor(
      'chat.postMessage',
      () => slack.callsTo('chat.postMessage').length > 0 && slack.callsTo('chat.postMessage'),
    );
    expect(call!.body.channel).toBe('C0INCIDENT');
    const blocks = call!.body.blocks as AnyBlock[];
    expect(cardState(blocks)).toBe('prod-east: critical');
    // Fresh: the scan time is the message's own, said in its fallback text as a date token (never an age).
    expect(String(call!.body.text)).toContain('scanned <!date^1740823190^');
    expect(blocksText(blocks)).not.toContain('scanned');
    expect(blocksText(blocks)).not.toMatch(/ ago\b/);
    expect(blocksText(blocks)).not.toContain('stale');
    // Sections are behind Details; the root cause's why is on the card once.
    expect(blocksText(blocks)).not.toContain('4 of 5 nodes Ready');
    expect(blocksText(blocks).split('its service kyverno/kyverno-svc has no ready endpoints')).toHaveLength(2);
    expect(hasDetailsButton(blocks)).toBe(true);
    expect(blocksText(blocks)).toContain('asked by <@U0ALICE>');
    const button = blocks.find((b) => b.type === 'actions')!.elements[0];
    expect(button.action_id).toMatch(PROPOSE_FIX_ACTION_PATTERN);
    expect(button.value).toMatch(/^p_[A-Za-z0-9_-]+$/);
    const stored = JSON.parse((await redis.get(`it:proposal:${button.value}`))!);
    expect(stored.proposal.action).toBe('webhook.suspend');
    expect(stored.cluster).toBe('prod-east');
    expect(scans).toEqual([]);
  });

  it('answers a stale report at once, marked stale, then updates the same message with the fresh scan', async () => {
    await storeReport(makeReport('prod-east', new Date('2025-03-01T09:55:00Z')), new Date('2025-03-01T09:55:10Z'));
    clock = new Date('2025-03-01T10:00:00Z');
    let release!: () => void;
    scanGate = new Promise((r) => (release = r));
    await command('prod-east');
    const [posted] = await slack.waitFor(
      'chat.postMessage',
      () => slack.callsTo('chat.postMessage').length > 0 && slack.callsTo('chat.postMessage'),
    );
    expect(blocksText(posted!.body.blocks)).toContain('*stale*, refreshing');
    expect(blocksText(posted!.body.blocks)).toContain('scanned <!date^1740822900^');
    expect(slack.callsTo('chat.update')).toHaveLength(0);
    release();
    const [update] = await slack.waitFor(
      'chat.update',
      () => slack.callsTo('chat.update').length > 0 && slack.callsTo('chat.update'),
    );
    const ts = [...slack.messages.keys()][0]!.split('/')[1];
    expect(update!.body.ts).toBe(ts);
    expect(update!.body.channel).toBe('C0INCIDENT');
    expect(cardState(update!.body.blocks)).toBe('prod-east: healthy');
    expect(blocksText(update!.body.blocks)).not.toContain('stale');
    expect(scans).toEqual(['prod-east']);
    expect((await reports().latest('prod-east'))!.report.status).toBe('healthy');
  });

  it('with no stored report answers "scanning…" and updates in place; concurrent commands share one scan', async () => {
    let release!: () => void;
    scanGate = new Promise((r) => (release = r));
    await Promise.all([command('prod-east'), command('prod-east'), command('prod-east')]);
    const posts = await slack.waitFor(
      '3 posts',
      () => slack.callsTo('chat.postMessage').length === 3 && slack.callsTo('chat.postMessage'),
    );
    for (const p of posts) expect(cardState(p.body.blocks)).toBe('prod-east: scanning…');
    release();
    await slack.waitFor('3 updates', () => slack.callsTo('chat.update').length === 3);
    expect(scans).toEqual(['prod-east']);
    for (const m of slack.messages.values()) expect(cardState(m.blocks)).toBe('prod-east: healthy');
  });

  it('keeps the stale report, with a note, when the fresh scan fails', async () => {
    await storeReport(makeReport('prod-east', new Date('2025-03-01T09:00:00Z')), new Date('2025-03-01T09:00:10Z'));
    scanError = new Error('cannot read dump /x: ENOENT');
    await command('prod-east');
    const [update] = await slack.waitFor(
      'chat.update',
      () => slack.callsTo('chat.update').length > 0 && slack.callsTo('chat.update'),
    );
    expect(blocksText(update!.body.blocks)).toContain('Fresh scan failed (cannot read dump /x: ENOENT)');
    expect(cardState(update!.body.blocks)).toBe('prod-east: critical');
  });

  it('falls back to the response_url (in_channel, then replace_original) when the bot is not in the channel', async () => {
    slack.notInChannel.add('C0INCIDENT');
    await command('prod-east');
    const rs = await slack.waitFor('2 response_url posts', () => slack.responses.length === 2 && slack.responses);
    expect(rs[0]!.body.response_type).toBe('in_channel');
    expect(rs[0]!.body.blocks[0].text.text).toBe('prod-east: scanning…');
    expect(rs[1]!.body.replace_original).toBe(true);
    expect(cardState(rs[1]!.body.blocks)).toBe('prod-east: healthy');
  });

  it("picks the channel's cluster when none is typed, and answers one section", async () => {
    await reports().save(makeReport('prod-west', clock));
    await command('', 'C0WEST');
    await command('prod-west webhooks', 'C0WEST');
    const posts = await slack.waitFor(
      '2 posts',
      () => slack.callsTo('chat.postMessage').length === 2 && slack.callsTo('chat.postMessage'),
    );
    const headers = posts.map((p) => cardState(p.body.blocks)).sort();
    expect(headers).toEqual(['prod-west · Webhooks: critical', 'prod-west: critical']);
  });

  it.each([
    ['prod-north', 'Unknown cluster "prod-north". Known clusters: prod-east, prod-west, lab, lab-b.'],
    ['prod-eats', 'Unknown cluster "prod-eats". Did you mean cluster `prod-east`? Known clusters:'],
    ['ectd', 'Unknown cluster "ectd". Did you mean section `etcd` (of prod-east)?'],
    ['prod-east webhook', 'Unknown section "webhook". Did you mean `webhooks`? Sections:'],
    ['prod-west', 'Cluster "prod-west" cannot be queried from this channel; ask in <#C0WEST>.'],
    [
      'prod-east disks',
      'Unknown section "disks". Sections: apiserver, etcd, controlplane, nodes, machines, upgrades, webhooks, workloads.',
    ],
    ['prod-east nodes extra', 'Too many arguments.'],
  ])('"%s" gets an ephemeral one-line error and nothing public', async (text, expected) => {
    const res = await command(text, 'C0INCIDENT');
    expect(res.status).toBe(200);
    expect(res.json!.response_type).toBe('ephemeral');
    expect(res.json!.text).toContain(expected);
    expect(res.json!.text).not.toContain('\n');
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it("a section name alone answers for the channel's only cluster", async () => {
    await reports().save(makeReport('prod-west', clock));
    expect((await command('webhooks', 'C0WEST')).text).toBe('');
    const [p] = await slack.waitFor(
      'the answer',
      () => slack.callsTo('chat.postMessage').length === 1 && slack.callsTo('chat.postMessage'),
    );
    expect(cardState(p!.body.blocks)).toBe('prod-west · Webhooks: critical');
  });

  it('no name where several clusters may be queried: a picker (static_select) to the one who typed it; a pick answers as the command would', async () => {
    await reports().save(makeReport('lab-b', clock));
    const res = await command('', 'C0OTHER');
    expect(res.json!.response_type).toBe('ephemeral');
    const select = (res.json!.blocks as AnyBlock[]).find((b) => b.type === 'actions')!.elements[0];
    expect(select.type).toBe('static_select');
    expect(select.action_id).toBe(CLUSTER_PICK_ACTION_ID);
    expect(select.options.map((o: AnyBlock) => o.value)).toEqual(['lab', 'lab-b']);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
    // Picked: the answer is posted in the channel, as `/k8s-health lab-b` would.
    expect(
      (
        await post(
          blockActionBody({
            actionId: CLUSTER_PICK_ACTION_ID,
            value: 'lab-b',
            blockId: 'pick-cluster',
            channel_id: 'C0OTHER',
            response_url: slack.responseUrl('pick'),
            select: true,
          }),
        )
      ).status,
    ).toBe(200);
    const [p] = await slack.waitFor(
      'the answer',
      () => slack.callsTo('chat.postMessage').length === 1 && slack.callsTo('chat.postMessage'),
    );
    expect(p!.body.channel).toBe('C0OTHER');
    expect(cardState(p!.body.blocks)).toBe('lab-b: critical');
    // A section alone with several clusters: the picker carries the section.
    const sectioned = await command('etcd', 'C0OTHER');
    expect((sectioned.json!.blocks as AnyBlock[]).find((b) => b.type === 'actions')!.block_id).toBe(
      'pick-cluster:etcd',
    );
    // A pick of a cluster this channel may not query is refused like typed text.
    await post(
      blockActionBody({
        actionId: CLUSTER_PICK_ACTION_ID,
        value: 'prod-west',
        blockId: 'pick-cluster',
        channel_id: 'C0OTHER',
        response_url: slack.responseUrl('forged-pick'),
        select: true,
      }),
    );
    const [r] = await slack.waitFor(
      'the refusal',
      () =>
        slack.responses.filter((x) => x.path === '/response/forged-pick').length > 0 &&
        slack.responses.filter((x) => x.path === '/response/forged-pick'),
    );
    expect(r!.body.text).toBe('Cluster "prod-west" cannot be queried from this channel; ask in <#C0WEST>.');
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it("the picker's external_select (beyond 100 clusters) is answered with the matching clusters of the channel", async () => {
    const payload = {
      type: 'block_suggestion',
      action_id: CLUSTER_PICK_ACTION_ID,
      block_id: 'pick-cluster',
      value: 'lab',
      team: { id: 'T0TEAM', domain: 'example' },
      user: { id: 'U0BOB', name: 'bob', team_id: 'T0TEAM' },
      api_app_id: 'A0APP',
      token: 'legacy-verification-token',
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0OTHER', is_ephemeral: true },
      channel: { id: 'C0OTHER', name: 'other' },
    };
    const res = await post(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    expect(res.status).toBe(200);
    expect(res.json!.options.map((o: AnyBlock) => o.value)).toEqual(['lab', 'lab-b']);
    const names = Array.from({ length: 101 }, (_, i) => `c${i}`);
    const many = renderClusterPicker(names).blocks as AnyBlock[];
    expect(many[1]!.elements[0]).toMatchObject({
      type: 'external_select',
      action_id: CLUSTER_PICK_ACTION_ID,
      min_query_length: 0,
    });
    expect((renderClusterPicker(names.slice(0, 100)).blocks as AnyBlock[])[1]!.elements[0].type).toBe('static_select');
  });

  it('Details shows the sections, evidence and symptoms to the clicker only; a value for a cluster this channel may not query is refused', async () => {
    await storeReport(makeReport('prod-east', new Date('2025-03-01T09:59:50Z')), new Date('2025-03-01T10:00:00Z'));
    await command('prod-east');
    const [call] = await slack.waitFor(
      'chat.postMessage',
      () => slack.callsTo('chat.postMessage').length > 0 && slack.callsTo('chat.postMessage'),
    );
    const details = detailsButton(call!.body.blocks as AnyBlock[])!;
    expect(details.value).toBe('prod-east');
    const res = await post(
      blockActionBody({
        actionId: DETAILS_ACTION_ID,
        value: details.value,
        channel_id: 'C0INCIDENT',
        blockId: 'details',
        response_url: slack.responseUrl('details'),
      }),
    );
    expect(res.status).toBe(200);
    const [r] = await slack.waitFor('details reply', () => slack.responses.length > 0 && slack.responses);
    expect(r!.path).toBe('/response/details');
    expect(r!.body.response_type).toBe('ephemeral');
    expect(r!.body.replace_original).toBe(false);
    expect(cardState(r!.body.blocks)).toBe('prod-east: details');
    expect(linesOf(r!.body)).toContain('🟡 Nodes — degraded · 4 of 5 nodes Ready');
    expect(blocksText(r!.body.blocks)).toContain('connect: connection refused (x14)');
    // Nothing public: no new message, the card is not replaced.
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
    expect(slack.callsTo('chat.update')).toHaveLength(0);

    // prod-west may be queried only from C0WEST: a Details value naming it is refused here, in one line.
    await post(
      blockActionBody({
        actionId: DETAILS_ACTION_ID,
        value: 'prod-west',
        channel_id: 'C0INCIDENT',
        blockId: 'details',
        response_url: slack.responseUrl('forged'),
      }),
    );
    const [f] = await slack.waitFor(
      'refusal',
      () =>
        slack.responses.filter((x) => x.path === '/response/forged').length > 0 &&
        slack.responses.filter((x) => x.path === '/response/forged'),
    );
    expect(f!.body.text).toBe('Cluster "prod-west" cannot be queried from this channel; ask in <#C0WEST>.');
    expect(f!.body.blocks).toBeUndefined();
  });

  it('answers help ephemerally', async () => {
    const res = await command('help');
    expect(res.json!.response_type).toBe('ephemeral');
    expect(res.json!.text).toContain('/k8s-health CLUSTER SECTION');
  });

  it('answers a proposed-fix click ephemerally: approval flow not enabled yet, and what it would do', async () => {
    await reports().save(makeReport('prod-east', clock));
    await command('prod-east');
    const [call] = await slack.waitFor(
      'chat.postMessage',
      () => slack.callsTo('chat.postMessage').length > 0 && slack.callsTo('chat.postMessage'),
    );
    const button = (call!.body.blocks as AnyBlock[]).find((b) => b.type === 'actions')!.elements[0];
    const res = await post(
      blockActionBody({ actionId: button.action_id, value: button.value, response_url: slack.responseUrl('click') }),
    );
    expect(res.status).toBe(200);
    const [r] = await slack.waitFor('ephemeral reply', () => slack.responses.length > 0 && slack.responses);
    expect(r!.path).toBe('/response/click');
    expect(r!.body.response_type).toBe('ephemeral');
    expect(r!.body.text).toContain('Not proposed'); // dump-backed clusters are never remediated
    expect(r!.body.text).toContain('Suspend webhook kyverno-resource-validating-webhook-cfg');

    await post(
      blockActionBody({
        actionId: button.action_id,
        value: 'forged{"name":"kube-system"}',
        response_url: slack.responseUrl('forged'),
      }),
    );
    const forged = await slack.waitFor('forged reply', () =>
      slack.responses.find((x) => x.path === '/response/forged'),
    );
    expect(forged.body.text).toContain('unknown or expired');
  });

  it("a button no listener handles (an older version's message) is acked at once and explained, not left to time out", async () => {
    const before = slack.responses.length;
    const res = await post(
      blockActionBody({
        actionId: 'k8s-health.retired-button',
        value: 'x',
        response_url: slack.responseUrl('retired'),
      }),
    );
    expect(res.status).toBe(200);
    const r = await slack.waitFor('ephemeral reply', () =>
      slack.responses.slice(before).find((x) => x.path === '/response/retired'),
    );
    expect(r.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(r.body.text).toContain('run `/k8s-health` again');
    // Our own ids are not caught by it: a proposed-fix click still gets its own answer only.
    expect(FOREIGN_ACTION_PATTERN.test('k8s-health.propose-fix.3')).toBe(false);
    expect(FOREIGN_ACTION_PATTERN.test('k8s-health.approval.approve')).toBe(false);
    expect(FOREIGN_ACTION_PATTERN.test('k8s-health.approval.approved')).toBe(true);
  });

  it('rejects forged, stale and unsigned requests with 401 and never runs the command', async () => {
    const body = slashCommandBody({ text: 'prod-east', response_url: slack.responseUrl() });
    const now = Math.floor(Date.now() / 1000);
    expect((await post(body, signSlackRequest('wrong-secret', body))).status).toBe(401);
    expect((await post(body, signSlackRequest(SECRET, body, now - 600))).status).toBe(401);
    expect((await post(body, {})).status).toBe(401);
    expect((await post(`${body}&text=evil`, signSlackRequest(SECRET, body))).status).toBe(401);
    expect(slack.callsTo('chat.postMessage')).toHaveLength(0);
  });
});

describe('probes and metrics on the same port', () => {
  it('/healthz, /readyz (Redis + Slack auth.test) and /metrics', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, redis: 'ok', slack: 'ok' });
    slack.fail('auth.test', { error: 'invalid_auth' });
    const notReady = await fetch(`${baseUrl}/readyz`);
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as AnyBlock).slack).toContain('invalid_auth');
    const m = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(m).toMatch(/k8s_health_commands_total\{outcome="rejected"\} [1-9]/);
    expect(m).toContain('k8s_health_command_duration_seconds_bucket');
  });
});

describe('startup and input safety', () => {
  it('a bad bot token is one SlackStartupError naming SLACK_BOT_TOKEN, not a crash', async () => {
    const err = await createSlackApp({
      botToken: 'xoxb-bad',
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logLevel: 'error',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlackStartupError);
    expect((err as SlackStartupError).code).toBe('E_SLACK_AUTH');
    expect((err as Error).message).toContain('SLACK_BOT_TOKEN');
    expect((err as Error).message).toContain('invalid_auth');
  });

  it('parseCommand never throws and always says something on any input', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.constantFrom('C0INCIDENT', 'C0WEST', 'C0OTHER'),
        (text, channelId) => {
          const r = parseCommand(text, { config, channelId });
          if (r.kind === 'error') expect(r.message.length).toBeGreaterThan(0);
          else if (r.kind === 'report') expect(config.clusters).toContain(r.cluster);
        },
      ),
      { numRuns: 300 },
    );
  });
});
