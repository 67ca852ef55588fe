import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAlertmanager, type AlertmanagerServer, type PushedAlert } from '../support/start-alertmanager.js';
import { startFakeSlackApi, type FakeSlackApi, type RecordedCall } from '../support/fake-slack-api.js';
import { freePort } from '../support/free-port.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { blockActionBody, signSlackRequest } from '../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * The bot as a real Alertmanager's webhook receiver (docs/alertmanager.md), on the S3 scenario
 * (a Kyverno webhook down blocks the CNI, control-plane nodes recreated; docs/scenarios.md): the
 * built `serve` with its in-process workers, a real Redis, a real Alertmanager 0.25 pushed to through
 * its API v2 as Prometheus does, the fake Slack Web API. Five alerts about S3's symptoms land as
 * replies in the one root-cause thread, an alert on an unrelated pod opens its own, resolutions edit
 * them, and an alert sent while serve is down arrives once after it is back.
 */
const S3 = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
const NODE = 'tkc-prod-control-plane-k2v4d';
const TOKEN = 'am-token-for-the-e2e-test-0123456789';
const CHANNEL = 'C0ALERTS';
const SIGNING = 'signing-secret-of-the-e2e-test';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBlock = Record<string, any>;

describe('Alertmanager → serve → one thread per root cause (real Alertmanager, S3)', () => {
  let redis: RedisServer | undefined;
  let slack: FakeSlackApi | undefined;
  let serve: SpawnedServe | undefined;
  let am: AlertmanagerServer | undefined;
  let dir = '';
  let port = 0;
  let env: Record<string, string> = {};
  let configFile = '';

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-am-e2e-'));
    configFile = path.join(dir, 'config.yaml');
    port = await freePort();
    am = await startAlertmanager({ webhookUrl: `http://127.0.0.1:${port}/alertmanager`, token: TOKEN });
    slack.addMember('U0SRE', { real_name: 'Sam Reliability' });
    slack.addMember('U0BOB');
    writeFileSync(
      configFile,
      [
        'clusters:',
        `  - name: tkc-prod`,
        `    dump: ${JSON.stringify(S3)}`,
        `    slack: { alertChannel: ${CHANNEL} }`,
        '    approvers: { users: [U0SRE] }',
        'scan: { intervalSeconds: 1, freshSeconds: 30 }',
        `alertmanager: { defaultChannel: C0DEFAULT, url: ${JSON.stringify(am.url)} }`,
        '',
      ].join('\n'),
    );
    env = {
      REDIS_URL: redis.url,
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: SIGNING,
      SLACK_API_URL: slack.apiUrl,
      K8S_HEALTH_ALERTMANAGER_TOKEN: TOKEN,
      LOG_LEVEL: 'warn',
    };
    serve = await spawnServe({ config: configFile, env, port });
  }, 60_000);

  afterAll(async () => {
    await am?.stop();
    await serve?.kill();
    await slack?.close();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const posts = () => slack!.callsTo('chat.postMessage');
  const textOf = (c: RecordedCall) => JSON.stringify(c.body.blocks ?? c.body.text);
  const prometheusReplies = (threadTs: string) =>
    posts().filter((c) => c.body.thread_ts === threadTs && /Prometheus:/.test(textOf(c)));
  const alert = (labels: Record<string, string>, extra: Partial<PushedAlert> = {}): PushedAlert => ({
    labels: { cluster: 'tkc-prod', severity: 'warning', ...labels },
    annotations: { summary: `${labels.alertname} fired` },
    ...extra,
  });
  const SYMPTOMS = [
    alert({ alertname: 'KubeNodeNotReady', node: NODE }),
    alert({ alertname: 'KubeNodeUnreachable', node: NODE }),
    alert({ alertname: 'KubeletDown', instance: `${NODE}:10250`, job: 'kubelet' }),
    alert({ alertname: 'KubeDaemonSetRolloutStuck', namespace: 'kube-system', daemonset: 'antrea-agent' }),
    alert({ alertname: 'KubeAPIErrorBudgetBurn', severity: 'critical', long: '1h', short: '5m' }),
  ];
  const UNRELATED = alert({ alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-7d9f5' });

  it('refuses what is not a version-4 webhook from the token holder, with one line, counted', async () => {
    const url = `http://127.0.0.1:${port}/alertmanager`;
    const post = (body: string, auth: string | null = `Bearer ${TOKEN}`) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body,
      });
    const noAuth = await post('{}', null);
    expect(noAuth.status).toBe(401);
    expect(await noAuth.text()).toBe(
      'missing or wrong bearer token: set http_config.authorization.credentials to K8S_HEALTH_ALERTMANAGER_TOKEN\n',
    );
    expect((await post('{}', 'Bearer wrong-token')).status).toBe(401);
    const bad = await post('{"version": "4", "alerts": [');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('body is not JSON: send Alertmanager webhook payload version 4\n');
    const v3 = await post(JSON.stringify({ version: '3', groupKey: 'g', status: 'firing', alerts: [] }));
    expect(v3.status).toBe(400);
    expect(await v3.text()).toMatch(/^payload version "3" is not supported/);
    const big = await post(JSON.stringify({ version: '4', pad: 'x'.repeat(1024 * 1024 + 1) }));
    expect(big.status).toBe(413);
    // A real-size notification (100 alerts, about 30 KB) passes the HTTP limits in front of the route.
    const many = Array.from({ length: 100 }, (_, i) => ({
      status: 'firing',
      labels: { alertname: 'Watchdog', cluster: 'elsewhere', i: String(i), pad: 'x'.repeat(200) },
      annotations: {},
      startsAt: new Date().toISOString(),
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: '',
      fingerprint: `ab${String(i).padStart(14, '0')}`,
    }));
    const large = await post(
      JSON.stringify({
        version: '4',
        groupKey: '{}:{alertname="Watchdog"}',
        status: 'firing',
        receiver: 'k8s-health',
        groupLabels: {},
        commonLabels: {},
        externalURL: '',
        alerts: many,
      }),
    );
    expect(large.status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/k8s_health_alertmanager_requests_total\{outcome="unauthorized"\} 2/);
    expect(metrics).toMatch(/k8s_health_alertmanager_requests_total\{outcome="malformed"\} 1/);
    expect(metrics).toMatch(/k8s_health_alertmanager_requests_total\{outcome="version"\} 1/);
    expect(metrics).toMatch(/k8s_health_alertmanager_requests_total\{outcome="too-large"\} 1/);
    expect(metrics).toMatch(/k8s_health_alertmanager_requests_total\{outcome="accepted"\} 1/);
    // Those alerts are of no known cluster: shown in alertmanager.defaultChannel (one a second there, as Slack allows).
    await slack!.waitFor(
      'an alert of no known cluster',
      () => posts().find((c) => c.body.channel === 'C0DEFAULT' && /No known cluster/.test(textOf(c))),
      30_000,
    );
  });

  it('S3: five symptom alerts reply in the one root-cause thread, an unrelated pod gets its own; resolutions and a serve restart lose nothing', async () => {
    // The bot's own thread of the root cause first (its scans of the dump, every second).
    await slack!.waitFor(
      'the root-cause thread',
      () => posts().find((c) => c.body.channel === CHANNEL && !c.body.thread_ts && /kyverno/.test(textOf(c))),
      30_000,
    );
    await am!.pushAlerts([...SYMPTOMS, UNRELATED]);
    const byName = (name: string) => posts().filter((c) => textOf(c).includes(`Prometheus:* ${name}`));
    const first = await slack!.waitFor('the KubeNodeNotReady reply', () => byName('KubeNodeNotReady')[0], 30_000);
    const rootTs = String(first.body.thread_ts);
    expect(JSON.stringify(slack!.messages.get(`${CHANNEL}/${rootTs}`))).toMatch(
      /kyverno-resource-validating-webhook-cfg/,
    );
    await slack!.waitFor('five replies in the root-cause thread', () => prometheusReplies(rootTs).length >= 5, 30_000);
    for (const a of SYMPTOMS) {
      const shown = byName(a.labels.alertname!);
      expect(shown).toHaveLength(1);
      expect(shown[0]!.body.thread_ts).toBe(rootTs);
      expect(textOf(shown[0]!)).toMatch(/Symptom of this thread/);
    }
    const own = await slack!.waitFor(
      "the unrelated alert's own thread",
      () => byName('KubePodCrashLooping')[0],
      30_000,
    );
    expect(own.body.thread_ts).toBeUndefined();
    expect(own.body.channel).toBe(CHANNEL);
    expect(textOf(own)).toMatch(/found no cause for this alert yet/);
    // The tally of the root-cause thread.
    await slack!.waitFor(
      'the tally "0 of 5 resolved"',
      () => [...slack!.messages.values()].some((m) => /0 of 5 resolved/.test(JSON.stringify(m.blocks))),
      15_000,
    );

    // Resolved, as Prometheus says it: the same labels with endsAt in the past.
    const now = new Date().toISOString();
    await am!.pushAlerts([
      { ...SYMPTOMS[0]!, endsAt: now },
      { ...UNRELATED, endsAt: now },
    ]);
    await slack!.waitFor(
      'the resolved KubeNodeNotReady reply',
      () => slack!.callsTo('chat.update').find((c) => /Resolved\* \*Prometheus:\* KubeNodeNotReady/.test(textOf(c))),
      30_000,
    );
    await slack!.waitFor(
      'the resolved unrelated alert',
      () => slack!.callsTo('chat.update').find((c) => /Resolved\* \*Prometheus:\* KubePodCrashLooping/.test(textOf(c))),
      30_000,
    );
    await slack!.waitFor(
      'the tally "1 of 5 resolved"',
      () => [...slack!.messages.values()].some((m) => /1 of 5 resolved/.test(JSON.stringify(m.blocks))),
      15_000,
    );

    // Silence 4h on one reply: only a silencer (default: the cluster's approvers) may; the silence is in
    // Alertmanager with the alert's labels, createdBy the Slack name, the thread linked; the alert is suppressed.
    const click = async (
      user: string,
      actionId: string,
      value: string,
      messageTs: string,
      id: string,
      opts: { overflow?: boolean } = {},
    ) => {
      const raw = blockActionBody({
        actionId,
        value,
        user_id: user,
        channel_id: CHANNEL,
        message_ts: messageTs,
        // The parent is the thread's first message: it has no thread_ts of its own.
        ...(messageTs === rootTs ? {} : { thread_ts: rootTs }),
        response_url: slack!.responseUrl(id),
        ...(opts.overflow ? { overflow: true } : {}),
      });
      const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SIGNING, raw) },
        body: raw,
      });
      expect(res.status).toBe(200);
    };
    const [replyKey, reply] = [...slack!.messages.entries()].find(([, m]) =>
      JSON.stringify(m.blocks).includes('Prometheus:* KubeNodeUnreachable'),
    )!;
    const replyTs = replyKey.split('/')[1]!;
    const silence4h = (reply.blocks as AnyBlock[])
      .flatMap((b) => b.elements ?? [])
      .find((e: AnyBlock) => e.action_id === 'k8s-health.alertmanager.silence-4h');
    expect(silence4h).toBeDefined();
    await click('U0BOB', silence4h.action_id, silence4h.value, replyTs, 'bob-silence');
    const refused = await slack!.waitFor(
      'the refusal',
      () => slack!.responses.find((r) => r.path === '/response/bob-silence'),
      15_000,
    );
    expect(refused.body.text).toMatch(/^You may not silence alerts of tkc-prod/);
    expect(await am!.silences()).toEqual([]);
    await click('U0SRE', silence4h.action_id, silence4h.value, replyTs, 'sre-silence');
    const notice = await slack!.waitFor(
      'the silence notice',
      () => posts().find((c) => /silenced KubeNodeUnreachable/.test(textOf(c))),
      15_000,
    );
    expect(notice.body.thread_ts).toBe(rootTs);
    const [silence] = await am!.silences();
    expect(silence).toMatchObject({ status: { state: 'active' }, createdBy: 'Sam Reliability (U0SRE)' });
    expect(silence!.comment).toContain(`https://slack.com/archives/${CHANNEL}/p${rootTs.replace('.', '')}`);
    expect(silence!.matchers.map((m) => `${m.name}=${m.value}`).sort()).toEqual([
      'alertname=KubeNodeUnreachable',
      'cluster=tkc-prod',
      `node=${NODE}`,
      'severity=warning',
    ]);
    const hoursLeft = (Date.parse(silence!.endsAt) - Date.now()) / 3_600_000;
    expect(hoursLeft > 3.9 && hoursLeft <= 4).toBe(true);
    const suppressed = (await (
      await fetch(`${am!.url}/api/v2/alerts?filter=${encodeURIComponent('alertname="KubeNodeUnreachable"')}`)
    ).json()) as { status: { state: string; silencedBy: string[] } }[];
    expect(suppressed.map((a) => a.status)).toEqual([
      { state: 'suppressed', silencedBy: [silence!.id], inhibitedBy: [] },
    ]);
    // Expire: the silence is expired in Alertmanager and the notice says who did it.
    const expire = (notice.body.blocks as AnyBlock[])
      .flatMap((b) => b.elements ?? [])
      .find((e: AnyBlock) => e.action_id === 'k8s-health.alertmanager.expire');
    const noticeTs = [...slack!.messages.entries()]
      .find(([, m]) => JSON.stringify(m.blocks) === JSON.stringify(notice.body.blocks))![0]
      .split('/')[1]!;
    await click('U0SRE', expire.action_id, expire.value, noticeTs, 'sre-expire');
    await slack!.waitFor(
      'the expired notice',
      () => slack!.callsTo('chat.update').find((c) => /expired the silence of KubeNodeUnreachable/.test(textOf(c))),
      15_000,
    );
    expect((await am!.silences()).map((x) => x.status.state)).toEqual(['expired']);

    // The parent offers Silence 1h / 4h / 24h for all of the thread's firing alerts: one silence per alert, each with
    // that alert's labels; the thread says who silenced what until when; Expire expires them all.
    const parentMenu = await slack!.waitFor(
      "the parent's Silence all menu",
      () =>
        (slack!.messages.get(`${CHANNEL}/${rootTs}`)?.blocks as AnyBlock[] | undefined)
          ?.flatMap((b) => b.elements ?? [])
          .find((e: AnyBlock) => e.action_id === 'k8s-health.alertmanager.silence-all'),
      15_000,
    );
    const oneHour = (parentMenu.options as AnyBlock[]).find((o) => o.text.text === 'Silence all alerts 1h')!;
    await click('U0SRE', parentMenu.action_id, oneHour.value, rootTs, 'sre-silence-all', { overflow: true });
    const allNotice = await slack!.waitFor(
      'the notice of the silence of all alerts',
      () => posts().find((c) => /silenced 4 alerts/.test(textOf(c))),
      15_000,
    );
    expect(allNotice.body.thread_ts).toBe(rootTs);
    expect(textOf(allNotice)).toMatch(/<@U0SRE> silenced 4 alerts \(.*\) in Alertmanager until <!date\^\d+\^/);
    const firing = SYMPTOMS.slice(1);
    const made = (await am!.silences()).filter((x) => x.status.state === 'active');
    expect(made).toHaveLength(firing.length);
    for (const a of firing) {
      const matching = made.filter((x) =>
        x.matchers.every((m) => m.isEqual !== false && !m.isRegex && a.labels[m.name] === m.value),
      );
      expect(`${a.labels.alertname}: ${matching.length}`).toBe(`${a.labels.alertname}: 1`);
      expect(matching[0]!.matchers).toHaveLength(Object.keys(a.labels).length);
      expect(matching[0]!.createdBy).toBe('Sam Reliability (U0SRE)');
      expect(matching[0]!.comment).toContain(`https://slack.com/archives/${CHANNEL}/p${rootTs.replace('.', '')}`);
      const hoursLeft = (Date.parse(matching[0]!.endsAt) - Date.now()) / 3_600_000;
      expect(hoursLeft > 0.9 && hoursLeft <= 1).toBe(true);
    }
    const expireAll = (allNotice.body.blocks as AnyBlock[])
      .flatMap((b) => b.elements ?? [])
      .find((e: AnyBlock) => e.action_id === 'k8s-health.alertmanager.expire');
    const allNoticeTs = [...slack!.messages.entries()]
      .find(([, m]) => JSON.stringify(m.blocks) === JSON.stringify(allNotice.body.blocks))![0]
      .split('/')[1]!;
    await click('U0SRE', expireAll.action_id, expireAll.value, allNoticeTs, 'sre-expire-all');
    await slack!.waitFor(
      'the expired notice of all alerts',
      () => slack!.callsTo('chat.update').find((c) => /expired the silence of 4 alerts/.test(textOf(c))),
      15_000,
    );
    expect((await am!.silences()).map((x) => x.status.state)).toEqual(Array(5).fill('expired'));

    // serve goes away; an alert fired meanwhile is delivered (Alertmanager retries) once it is back.
    await serve!.kill();
    await am!.pushAlerts([alert({ alertname: 'NodeFilesystemAlmostFull', node: NODE })]);
    await new Promise((r) => setTimeout(r, 3000));
    serve = await spawnServe({ config: configFile, env, port });
    const late = await slack!.waitFor(
      'the alert sent while serve was down',
      () => byName('NodeFilesystemAlmostFull')[0],
      60_000,
    );
    expect(late.body.thread_ts).toBe(rootTs);
    // Alertmanager re-sends its groups (repeat and retries): still every alert exactly once.
    await new Promise((r) => setTimeout(r, 5000));
    for (const name of [...SYMPTOMS.map((a) => a.labels.alertname!), 'KubePodCrashLooping', 'NodeFilesystemAlmostFull'])
      expect(`${name}: ${byName(name).length}`).toBe(`${name}: 1`);
  }, 120_000);
});
