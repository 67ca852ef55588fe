import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAlertmanager, type AlertmanagerServer, type PushedAlert } from '../support/start-alertmanager.js';
import { startFakeSlackApi, type FakeSlackApi, type RecordedCall } from '../support/fake-slack-api.js';
import { eventually } from '../support/eventually.js';
import { freePort } from '../support/free-port.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { spawnWorker, type SpawnedWorker } from '../support/spawn-worker.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * On-call paging and severity routes end to end, laid out as the Helm chart runs the bot: the built
 * `serve --no-workers` receives the webhooks, two built `worker` processes scan the S3 scenario (a Kyverno webhook
 * down blocks the CNI, control-plane nodes recreated: a critical root cause) and show the alerts, over a real Redis;
 * a real Alertmanager pushes through its route to serve (a short repeat_interval, so it notifies its groups again and
 * again); the fake Slack Web API records every message. Five symptom alerts, each in a notification of its own, join
 * the root cause's thread, which mentions the on-call group once; an alert of no known cause goes to the channel its
 * severity routes to (warning, critical), and the critical one, its own root cause, pages once in its own thread.
 */
const S3 = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
const NODE = 'tkc-prod-control-plane-k2v4d';
const TOKEN = 'am-token-for-the-paging-test-0123456789';
const CHANNEL = 'C0ALERTS';
const PAGER = 'C0PAGER';
const WARN = 'C0WARN';
const ONCALL = 'S0ONCALL';

describe('Alertmanager → on-call page once per incident, severity routes (serve --no-workers, two workers)', () => {
  let redis: RedisServer | undefined;
  let slack: FakeSlackApi | undefined;
  let serve: SpawnedServe | undefined;
  const workers: SpawnedWorker[] = [];
  let am: AlertmanagerServer | undefined;
  let dir = '';

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startFakeSlackApi();
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-am-paging-'));
    const config = path.join(dir, 'config.yaml');
    const port = await freePort();
    am = await startAlertmanager({
      webhookUrl: `http://127.0.0.1:${port}/alertmanager`,
      token: TOKEN,
      repeatInterval: '3s',
    });
    writeFileSync(
      config,
      [
        'clusters:',
        '  - name: tkc-prod',
        `    dump: ${JSON.stringify(S3)}`,
        `    slack: { alertChannel: ${CHANNEL}, oncall: ${ONCALL} }`,
        '    approvers: { users: [U0SRE] }',
        'scan: { intervalSeconds: 1, freshSeconds: 30 }',
        'alertmanager:',
        `  url: ${JSON.stringify(am.url)}`,
        '  routes:',
        `    - { severity: critical, channel: ${PAGER} }`,
        `    - { severity: warning, channel: ${WARN} }`,
        '',
      ].join('\n'),
    );
    const env = {
      REDIS_URL: redis.url,
      SLACK_BOT_TOKEN: 'xoxb-test-token',
      SLACK_SIGNING_SECRET: 'signing-secret-of-the-paging-test',
      SLACK_API_URL: slack.apiUrl,
      K8S_HEALTH_ALERTMANAGER_TOKEN: TOKEN,
      LOG_LEVEL: 'warn',
    };
    serve = await spawnServe({ config, env, port, args: ['--no-workers'] });
    for (let i = 0; i < 2; i++) workers.push(await spawnWorker({ config, env }));
  }, 90_000);

  afterAll(async () => {
    await am?.stop();
    await serve?.kill();
    for (const w of workers) await w.kill();
    await slack?.close();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const posts = () => slack!.callsTo('chat.postMessage');
  const textOf = (c: RecordedCall) => JSON.stringify(c.body.blocks ?? c.body.text);
  const byName = (name: string) => posts().filter((c) => textOf(c).includes(`Prometheus:* ${name}`));
  const pages = () => posts().filter((c) => textOf(c).includes(`<!subteam^${ONCALL}>`));
  const accepted = async () => {
    const text = await (await fetch(`http://127.0.0.1:${serve!.port}/metrics`)).text();
    return Number(/k8s_health_alertmanager_requests_total\{outcome="accepted"\} (\d+)/.exec(text)?.[1] ?? 0);
  };
  const alert = (labels: Record<string, string>): PushedAlert => ({
    labels: { cluster: 'tkc-prod', severity: 'warning', ...labels },
    annotations: { summary: `${labels.alertname} fired` },
  });
  // Grouped by alertname and cluster (start-alertmanager.ts): each of these is a notification of its own.
  const SYMPTOMS = [
    alert({ alertname: 'KubeNodeNotReady', node: NODE }),
    alert({ alertname: 'KubeNodeUnreachable', node: NODE, severity: 'critical' }),
    alert({ alertname: 'KubeletDown', instance: `${NODE}:10250`, job: 'kubelet' }),
    alert({ alertname: 'KubeDaemonSetRolloutStuck', namespace: 'kube-system', daemonset: 'antrea-agent' }),
    alert({ alertname: 'KubeAPIErrorBudgetBurn', severity: 'critical', long: '1h', short: '5m' }),
  ];

  it('a critical root cause mentions on-call once for five alerts in five notifications; no-cause alerts follow their severity routes', async () => {
    // The bot's own thread of the root cause first (its scans of the dump, every second).
    await slack!.waitFor(
      'the root-cause thread',
      () => posts().find((c) => c.body.channel === CHANNEL && !c.body.thread_ts && /kyverno/.test(textOf(c))),
      60_000,
    );
    // Two at once (two notifications Alertmanager sends side by side, taken by the two workers), then one at a time,
    // each after the one before was shown.
    await am!.pushAlerts(SYMPTOMS.slice(0, 2));
    for (const a of SYMPTOMS.slice(0, 2))
      await slack!.waitFor(`the ${a.labels.alertname} reply`, () => byName(a.labels.alertname!)[0], 30_000);
    for (const a of SYMPTOMS.slice(2)) {
      await am!.pushAlerts([a]);
      await slack!.waitFor(`the ${a.labels.alertname} reply`, () => byName(a.labels.alertname!)[0], 30_000);
    }
    // The thread they joined is the webhook's (the root cause of S3).
    const rootTs = String(byName('KubeNodeNotReady')[0]!.body.thread_ts);
    expect(JSON.stringify(slack!.messages.get(`${CHANNEL}/${rootTs}`))).toMatch(
      /kyverno-resource-validating-webhook-cfg/,
    );
    for (const a of SYMPTOMS) {
      const shown = byName(a.labels.alertname!);
      expect(`${a.labels.alertname}: ${shown.length}`).toBe(`${a.labels.alertname}: 1`);
      // A symptom joins the thread of its root cause, whatever its own severity routes to.
      expect([shown[0]!.body.channel, shown[0]!.body.thread_ts]).toEqual([CHANNEL, rootTs]);
    }

    // Alerts of no known cause open a thread of their own in the channel their severity routes to.
    const orphanWarning = alert({ alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-7d9f5' });
    const orphanCritical = alert({
      alertname: 'KubePodNotReady',
      namespace: 'billing',
      pod: 'ledger-0',
      severity: 'critical',
    });
    await am!.pushAlerts([orphanWarning, orphanCritical]);
    const warning = await slack!.waitFor('the warning of no cause', () => byName('KubePodCrashLooping')[0], 30_000);
    const critical = await slack!.waitFor('the critical of no cause', () => byName('KubePodNotReady')[0], 30_000);
    expect([warning.body.channel, warning.body.thread_ts]).toEqual([WARN, undefined]);
    expect(textOf(warning)).toMatch(/found no cause for this alert yet/);
    expect([critical.body.channel, critical.body.thread_ts]).toEqual([PAGER, undefined]);
    expect(textOf(critical)).toMatch(/found no cause for this alert yet/);
    const criticalTs = [...slack!.messages.entries()]
      .find(([key, m]) => key.startsWith(`${PAGER}/`) && JSON.stringify(m.blocks).includes('KubePodNotReady'))![0]
      .split('/')[1]!;

    // Still one page per incident, no alert twice, after Alertmanager's repeats.
    await slack!.waitFor('the critical alert of its own paged in its thread', () => pages().length >= 2, 30_000);
    const sent = await accepted();
    expect(sent).toBeGreaterThanOrEqual(SYMPTOMS.length + 2);
    // Alertmanager notifies its groups again (repeat_interval 3s): wait for a few rounds of it.
    expect(await eventually(accepted, (n) => n >= sent + 7, 60_000)).toBeGreaterThanOrEqual(sent + 7);
    expect(
      pages()
        .map((p) => `${p.body.channel} ${p.body.thread_ts}`)
        .sort(),
    ).toEqual([`${CHANNEL} ${rootTs}`, `${PAGER} ${criticalTs}`].sort());
    expect(textOf(pages().find((p) => p.body.channel === CHANNEL)!)).toMatch(/critical root cause on tkc-prod/);
    for (const name of [...SYMPTOMS.map((a) => a.labels.alertname!), 'KubePodCrashLooping', 'KubePodNotReady'])
      expect(`${name}: ${byName(name).length}`).toBe(`${name}: 1`);
    expect(posts().filter((c) => c.body.channel === WARN && c.body.thread_ts)).toEqual([]);
  }, 180_000);
});
