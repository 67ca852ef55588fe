import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { App } from '@slack/bolt';
import { Redis } from 'ioredis';
import { startJobs, type WorkerSet } from '../../../src/compose/compose-jobs.js';
import { composeAlertThreadDeps } from '../../../src/compose/compose-alert-thread-deps.js';
import { configSchema } from '../../../src/config/config-schema.js';
import { createPlanSigner } from '../../../src/approvals/plan-signer.js';
import {
  ALERT_OWN_ACTION_ID,
  ALERT_SNOOZE_ACTION_ID,
  ALERT_TIMELINE_ACTION_ID,
  ALERT_UNSNOOZE_ACTION_ID,
  PROPOSE_FIX_ACTION_PREFIX,
} from '../../../src/slack/action-ids.js';
import { createMetrics } from '../../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../../src/slack/receive/create-slack-app.js';
import { composeAppHomeDeps } from '../../../src/compose/compose-app-home-deps.js';
import { registerListeners } from '../../../src/slack/register-listeners.js';
import { createAuditLog } from '../../../src/store/audit-log.js';
import { createApprovalStore } from '../../../src/store/approval-store.js';
import { createAnswerCardStore } from '../../../src/store/answer-card-store.js';
import { createAlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { fixKey } from '../../../src/approvals/request/fix-key.js';
import { refreshAlertParent } from '../../../src/slack/post/post-alert.js';
import { WebClient } from '@slack/web-api';
import { createProposalStore } from '../../../src/store/proposal-store.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { buildTimeline } from '../../../src/timeline/build-timeline.js';
import { captureLogs } from '../../support/capture-logs.js';
import { cardState } from '../../support/card-lines.js';
import { eventually } from '../../support/eventually.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { createReplayCluster, randomPrefix, REPLAY_DIR, type ReplayCluster } from '../jobs/replay-cluster.js';

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';

/**
 * The alert thread's own buttons (I'm on it, Snooze, Unsnooze, Export timeline)
 * through Bolt's real HTTP receiver with real signatures, on a thread opened by the real scan and
 * notify workers (S3 recreation loop) in the fake Slack, with real Redis: the owner is shown and
 * audited, a snoozed incident gets no replies while its parent still follows the state, Unsnooze
 * reverses it, and the timeline export is the same Markdown as `k8s-health timeline`.
 */
describe('alert thread buttons (through the HTTP receiver)', () => {
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: FakeSlackApi;
  let replay: ReplayCluster;
  let workers: WorkerSet;
  let app: App;
  let baseUrl: string;
  const prefix = randomPrefix();
  const keyPrefix = `${prefix}:`;
  const { log } = captureLogs();
  const config = () =>
    configSchema.parse({
      clusters: [{ name: 'tkc-loop', dump: replay.link, slack: { alertChannel: 'C0ALERTS' } }],
      scan: { intervalSeconds: 3600, resolveAfterScans: 3 },
      thresholds: { loopReplacements: 2 },
    });
  const posts = () => slack.callsTo('chat.postMessage').filter((c) => c.body.channel === 'C0ALERTS');
  const click = async (
    actionId: string,
    value: string,
    opts: { user?: string; channel?: string; ts: string; select?: boolean },
  ) => {
    const response_url = slack.responseUrl();
    const body = blockActionBody({
      actionId,
      value,
      user_id: opts.user ?? 'U0ALICE',
      channel_id: opts.channel ?? 'C0ALERTS',
      message_ts: opts.ts,
      response_url,
      blockId: 'alert:x',
      select: opts.select,
    });
    const res = await fetch(`${baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
      body,
    });
    expect(res.status).toBe(200);
    return response_url;
  };
  const parentOf = (ts: string) => JSON.stringify(slack.messages.get(`C0ALERTS/${ts}`)!.blocks);

  beforeAll(async () => {
    redisServer = await startRedis();
    redis = new Redis(redisServer.url);
    slack = await startFakeSlackApi({ validToken: TOKEN });
    replay = createReplayCluster();
    replay.show(path.join(REPLAY_DIR, 't00'));
    workers = await startJobs({
      config: config(),
      redisUrl: redisServer.url,
      prefix,
      slack: { token: TOKEN, apiUrl: slack.apiUrl },
      channelIntervalMs: 50,
    });
    const started = await createSlackApp({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logLevel: 'error',
    });
    app = started.app;
    const reports = createReportStore(redis, { keyPrefix });
    const deps = {
      config: config(),
      reports,
      proposals: createProposalStore(redis, { keyPrefix }),
      answers: createAnswerCardStore(redis, { keyPrefix }),
      requestScan: createScanRequester((name) => workers.scan(name), reports),
      metrics: createMetrics({ defaultMetrics: false }),
      now: () => new Date(),
      log,
      alertThreads: composeAlertThreadDeps({
        redis,
        keyPrefix,
        signer: createPlanSigner(undefined),
        now: () => new Date(),
        log,
        channelIntervalMs: 50,
      }),
      appHome: composeAppHomeDeps({ redis, keyPrefix, config: config(), now: () => new Date(), log }),
    };
    registerListeners(app, deps);
    const server = (await app.start(0)) as Server;
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.stop();
    await workers?.close();
    redis?.disconnect();
    await slack?.close();
    await redisServer?.stop();
    replay?.cleanup();
  });

  it("I'm on it, Snooze, Unsnooze, Export timeline; the App Home re-published by the scan worker", async () => {
    for (const t of ['t00', 't12', 't24']) {
      replay.show(path.join(REPLAY_DIR, t));
      await workers.scan('tkc-loop');
    }
    const parent = await slack.waitFor('the parent', () => posts().find((c) => !c.body.thread_ts));
    const ts = (await slack.waitFor('its ts', () =>
      [...slack.messages.keys()].find((k) => k.startsWith('C0ALERTS/')),
    ))!.split('/')[1]!;
    const blocks = JSON.stringify(parent.body.blocks);
    for (const id of [ALERT_OWN_ACTION_ID, ALERT_SNOOZE_ACTION_ID, ALERT_TIMELINE_ACTION_ID])
      expect(blocks).toContain(id);
    const value = JSON.stringify({
      c: 'tkc-loop',
      f: (parent.body.blocks as { block_id?: string }[])
        .find((b) => b.block_id?.startsWith('alert:'))!
        .block_id!.slice('alert:'.length),
    });

    // I'm on it: the owner is shown in the parent and audited.
    await click(ALERT_OWN_ACTION_ID, value, { user: 'U0ALICE', ts });
    await slack.waitFor('the owner in the parent', () => parentOf(ts).includes('On it: <@U0ALICE>') || undefined);
    expect(parentOf(ts)).not.toContain(ALERT_OWN_ACTION_ID);
    const audit = createAuditLog(redis, { keyPrefix });
    expect((await audit.list({ cluster: 'tkc-loop' })).map((e) => [e.event, e.user, e.action])).toContainEqual([
      'owned',
      'U0ALICE',
      'alert.own',
    ]);

    // Snooze 4 h: said in the thread, shown in the parent with Unsnooze, stored in Redis with its end.
    await click(ALERT_SNOOZE_ACTION_ID, `4h|${value}`, { user: 'U0BOB', ts, select: true });
    const note = await slack.waitFor('the snooze note', () =>
      posts().find((c) => c.body.thread_ts === ts && String(c.body.text).includes(':zzz:')),
    );
    expect(String(note.body.text)).toContain('<@U0BOB> snoozed this incident until <!date^');
    await slack.waitFor('Unsnooze on the parent', () => parentOf(ts).includes(ALERT_UNSNOOZE_ACTION_ID) || undefined);
    expect(parentOf(ts)).toContain(':zzz: Snoozed until <!date^');
    const snoozeKeys = await redis.keys(`${keyPrefix}alert-snooze:tkc-loop:*`);
    expect(snoozeKeys).toHaveLength(1);
    const ttl = await redis.pttl(snoozeKeys[0]!);
    expect(ttl).toBeGreaterThan(3 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(4 * 3_600_000);
    expect((await audit.list({ cluster: 'tkc-loop' })).map((e) => e.event)).toContain('snoozed');

    // Alice opens the Home tab: published at once; the scan below changes the alerts, so the scan
    // worker re-publishes it (she opened it recently).
    const homeBody = JSON.stringify({
      token: 't',
      team_id: 'T0TEAM',
      api_app_id: 'A0APP',
      type: 'event_callback',
      event_id: 'Ev1',
      event_time: 1,
      event: { type: 'app_home_opened', user: 'U0ALICE', channel: 'D0HOME', tab: 'home', event_ts: '1.2' },
    });
    expect(
      (
        await fetch(`${baseUrl}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signSlackRequest(SECRET, homeBody) },
          body: homeBody,
        })
      ).status,
    ).toBe(200);
    await slack.waitFor("Alice's home", () => slack.homes.get('U0ALICE'));
    expect(JSON.stringify(slack.homes.get('U0ALICE')!.blocks)).toContain('2 machine replacements');
    const homesBefore = slack.callsTo('views.publish').length;

    // While snoozed, the next recreation posts no reply, but the parent follows the state.
    const repliesBefore = posts().filter((c) => c.body.thread_ts === ts).length;
    replay.show(path.join(REPLAY_DIR, 't36'));
    await workers.scan('tkc-loop');
    await slack.waitFor(
      'the parent at 3 replacements',
      () => parentOf(ts).includes('3 machine replacements') || undefined,
    );
    expect(posts().filter((c) => c.body.thread_ts === ts)).toHaveLength(repliesBefore);
    expect(posts().some((c) => JSON.stringify(c.body.blocks ?? '').includes('Recreation counted again'))).toBe(false);
    // The App Home followed the change too.
    await slack.waitFor(
      "Alice's home re-published",
      () =>
        (slack.callsTo('views.publish').length > homesBefore &&
          JSON.stringify(slack.homes.get('U0ALICE')!.blocks).includes('3 machine replacements')) ||
        undefined,
    );

    // Unsnooze: reversed, said in the thread, the parent offers Snooze again.
    await click(ALERT_UNSNOOZE_ACTION_ID, value, { user: 'U0BOB', ts });
    await slack.waitFor('the unsnooze note', () =>
      posts().find((c) => c.body.thread_ts === ts && String(c.body.text).includes(':bell:')),
    );
    await slack.waitFor(
      'Snooze again on the parent',
      () => (parentOf(ts).includes(ALERT_SNOOZE_ACTION_ID) && !parentOf(ts).includes('Snoozed until')) || undefined,
    );
    expect(await redis.keys(`${keyPrefix}alert-snooze:tkc-loop:*`)).toHaveLength(0);
    expect((await audit.list({ cluster: 'tkc-loop' })).map((e) => e.event)).toContain('unsnoozed');

    // Export timeline: a Markdown file in the thread (files.uploadV2), the same Markdown as
    // `k8s-health timeline`, with a short summary.
    await click(ALERT_TIMELINE_ACTION_ID, value, { user: 'U0ALICE', ts });
    const file = await slack.waitFor('the timeline file', () =>
      [...slack.files.values()].find((f) => f.threadTs === ts && f.channel === 'C0ALERTS'),
    );
    expect(file.filename).toMatch(/^timeline-tkc-loop-\d{8}-\d{4}\.md$/);
    expect(file.initialComment).toMatch(
      /^:scroll: Incident timeline of `tkc-loop`, exported by <@U0ALICE>: the Markdown file below \(\d+ lines\) is ready for a postmortem\.$/,
    );
    expect(slack.callsTo('files.getUploadURLExternal')).toHaveLength(1);
    const text = file.content;
    const deps = composeAlertThreadDeps({
      redis,
      keyPrefix,
      signer: createPlanSigner(undefined),
      now: () => new Date(),
      log,
    });
    const cli = await buildTimeline(deps.timeline, 'tkc-loop', { now: new Date() });
    const strip = (s: string) => s.replace(/Generated \S+/, 'Generated X');
    expect(strip(text)).toBe(strip(cli));
    expect(text).toContain('# Incident timeline: tkc-loop');
    expect(text).toContain('took ownership of');

    // A click from another channel is refused, and changes nothing.
    const refused = await click(ALERT_SNOOZE_ACTION_ID, `1h|${value}`, { channel: 'C0OTHER', ts, select: true });
    const answer = await slack.waitFor('the refusal', () =>
      slack.responses.find((r) => r.path === new URL(refused).pathname),
    );
    expect(String(answer.body.text)).toContain('does not know here');
    expect(await redis.keys(`${keyPrefix}alert-snooze:tkc-loop:*`)).toHaveLength(0);
  });

  it('a fix that ran loses its button on the parent at once', async () => {
    // The loop's root cause, offering a fix (as a fix-bearing finding does): its parent shows the button.
    const states = createAlertStateStore(redis, { keyPrefix });
    const { state, version } = await states.load('tkc-loop');
    const inc = Object.values(state.incidents).find((i) => i.status === 'open' && !i.mergedInto)!;
    inc.finding = {
      ...inc.finding,
      remediations: [
        {
          action: 'mhc.pause-remediation',
          params: { namespace: 'default', name: 'tkc-loop-mhc' },
          label: 'Pause remediation',
          risk: 'failed machines are not replaced while paused',
        },
      ],
    };
    expect(await states.save('tkc-loop', state, version)).toBe(true);
    const deps = composeAlertThreadDeps({
      redis,
      keyPrefix,
      signer: createPlanSigner(undefined),
      now: () => new Date(),
      log,
    });
    const post = { ...deps.post, client: new WebClient(TOKEN, { slackApiUrl: slack.apiUrl }), log };
    expect(await refreshAlertParent(post, 'tkc-loop', inc.fingerprint)).toBe(true);
    const ts = [...slack.messages.entries()]
      .find(
        ([k, m]) => k.startsWith('C0ALERTS/') && JSON.stringify(m.blocks).includes(`"alert:${inc.fingerprint}"`),
      )![0]
      .split('/')[1]!;
    expect(parentOf(ts)).toContain(`${PROPOSE_FIX_ACTION_PREFIX}.0`);
    // The fix ran (the remediate worker records it and refreshes the parents that offer it).
    const key = fixKey('tkc-loop', inc.finding.remediations[0]!);
    await createApprovalStore(redis, { keyPrefix }).markFixRan(key, new Date().toISOString(), 60);
    expect(await refreshAlertParent(post, 'tkc-loop', inc.fingerprint)).toBe(true);
    expect(parentOf(ts)).not.toContain(PROPOSE_FIX_ACTION_PREFIX);
    expect(parentOf(ts)).not.toContain('Risk:');
  });

  it('an answer card showing the incident is marked outdated, without its fix buttons, when the incident resolves', async () => {
    const body = slashCommandBody({
      text: 'tkc-loop',
      channel_id: 'C0ANSWERS',
      response_url: slack.responseUrl('answer'),
    });
    expect(
      (
        await fetch(`${baseUrl}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
          body,
        })
      ).status,
    ).toBe(200);
    const card = await slack.waitFor('the answer card', () =>
      slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0ANSWERS'),
    );
    const key = `C0ANSWERS/${String(card.body.ts ?? [...slack.messages.keys()].find((k) => k.startsWith('C0ANSWERS/'))!.split('/')[1])}`;
    await eventually(
      () => redis.hlen(`${keyPrefix}answer-cards:tkc-loop`),
      (n) => n > 0,
      30000,
      20,
    );
    expect(cardState(slack.messages.get(key)!.blocks)).toMatch(/^tkc-loop: (critical|degraded)$/);
    // The cluster heals: resolveAfterScans healthy scans resolve its incidents.
    for (const m of [1, 2, 3]) {
      replay.show(replay.derive(path.join('examples/scenarios', 'benign-healthy'), `2030-01-01T00:0${m}:00Z`));
      await workers.scan('tkc-loop');
    }
    const outdated = await slack.waitFor(
      'the card outdated',
      () =>
        slack.messages.get(key)?.blocks[0].text.text.endsWith('* · outdated') ? slack.messages.get(key) : undefined,
      30000,
    );
    const text = JSON.stringify(outdated.blocks);
    expect(outdated.blocks[1].elements[0].text).toMatch(
      /^:hourglass: \*Outdated\* — .* resolved <!date\^\d+\^.*\|see its alert thread>; `\/k8s-health` again for the current state\.$/,
    );
    expect(text).not.toContain('"fix:');
    // Each card is outdated once.
    expect(await redis.hlen(`${keyPrefix}answer-cards:tkc-loop`)).toBe(0);
  }, 60_000);
});
