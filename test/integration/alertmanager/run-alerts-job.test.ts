import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import { Registry } from 'prom-client';
import { createAlertReceiptStore } from '../../../src/alertmanager/alert-receipt-store.js';
import type { AlertmanagerAlert, AlertmanagerNotification } from '../../../src/alertmanager/webhook-payload.js';
import { createAlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { createAlertThreadStore } from '../../../src/alerts/alert-thread-store.js';
import type { Incident } from '../../../src/alerts/incident.js';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { configSchema, DEFAULT_THRESHOLDS, type Config } from '../../../src/config/config-schema.js';
import { createWorkerMetrics } from '../../../src/jobs/create-worker-metrics.js';
import {
  runAlertsJob,
  ThreadNotPostedError,
  WAIT_FOR_THREAD_ATTEMPTS,
  type AlertsJobDeps,
} from '../../../src/jobs/run-alerts-job.js';
import { silentLogger } from '../../../src/log/logger.js';
import type { Report } from '../../../src/report/report.js';
import { scanSnapshot } from '../../../src/scan/scan-snapshot.js';
import { createChannelLimiter } from '../../../src/slack/post/create-channel-limiter.js';
import { InMemoryHistory } from '../../../src/store/in-memory-history.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { useRedis } from '../../support/use-redis.js';

/**
 * One Alertmanager notification through the alerts job (jobs/run-alerts-job.ts) with a real Redis and
 * the fake Slack Web API, on the S3 scenario's report: exactly once, unknown clusters, severity routes,
 * the on-call page, the overflow line, a root-cause thread not posted yet, the scan for an unexplained alert.
 */
const S3 = 'examples/scenarios/s3-recreation-loop-webhook-down';
const NODE = 'tkc-prod-control-plane-k2v4d';
const ROOT_TS = '1700000000.000001';

describe('runAlertsJob', () => {
  const r = useRedis();
  let slack: FakeSlackApi;
  let report: Report;
  let n = 0;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
    report = await scanSnapshot(await loadDump(S3), { history: new InMemoryHistory(), thresholds: DEFAULT_THRESHOLDS });
  });
  afterAll(async () => {
    await slack.close();
  });

  /** A fresh key space per test: the report stored, the root cause's incident open, its thread posted (or not). */
  async function setup(
    opts: { threadPosted?: boolean; config?: Record<string, unknown>; reportAgeSeconds?: number } = {},
  ) {
    n += 1;
    const keyPrefix = `t${n}:`;
    const config = configSchema.parse({
      clusters: [{ name: 'tkc-prod', dump: S3, slack: { alertChannel: 'C0ALERTS', oncall: 'S0ONCALL' } }],
      ...opts.config,
    }) as Config;
    const now = new Date();
    const reports = createReportStore(r.redis, {
      keyPrefix,
      now: () => new Date(now.getTime() - (opts.reportAgeSeconds ?? 0) * 1000),
    });
    await reports.save({ ...report, generatedAt: now.toISOString() });
    const alerts = createAlertStateStore(r.redis, { keyPrefix });
    const threads = createAlertThreadStore<Incident>(r.redis, { keyPrefix, states: alerts });
    const root = report.findings.find((f) => f.id === 'webhook.unavailable-blocking')!;
    const inc = {
      cluster: 'tkc-prod',
      fingerprint: root.fingerprint,
      key: `${root.fingerprint}.1`,
      channel: 'C0ALERTS',
      status: 'open',
      openedAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      missedScans: 0,
      finding: root,
      severity: root.severity,
      evidenceSeen: [],
      related: [],
      seq: 1,
      changes: [],
    } as Incident;
    await alerts.save('tkc-prod', { seq: 1, incidents: { [root.fingerprint]: inc } }, 0);
    if (opts.threadPosted ?? true)
      await threads.set('tkc-prod', inc.key, { channel: 'C0ALERTS', ts: ROOT_TS, postedSeq: 1, proposalIds: {} });
    const registry = new Registry();
    const metrics = createWorkerMetrics({ registry, defaultMetrics: false });
    const scans: string[] = [];
    const deps: AlertsJobDeps = {
      config,
      receipts: createAlertReceiptStore(r.redis, { keyPrefix }),
      reports,
      alerts,
      threads,
      scan: async (cluster) => {
        scans.push(cluster);
        return report;
      },
      client: new WebClient('xoxb-test-token', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }),
      limiter: createChannelLimiter(r.redis, { keyPrefix, intervalMs: 0 }),
      metrics,
      now: () => now,
      log: silentLogger,
    };
    const before = slack.callsTo('chat.postMessage').length;
    const posts = () =>
      slack
        .callsTo('chat.postMessage')
        .slice(before)
        .filter((c) => c.body.channel !== 'C0OTHER-TEST');
    const counted = async () =>
      (await registry.getSingleMetricAsString('k8s_health_alertmanager_alerts_total'))
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('; ');
    return { deps, posts, counted, scans };
  }
  const alert = (
    i: number,
    labels: Record<string, string>,
    status: 'firing' | 'resolved' = 'firing',
  ): AlertmanagerAlert => ({
    status,
    labels: { cluster: 'tkc-prod', severity: 'warning', ...labels },
    annotations: { summary: 'something' },
    startsAt: '2026-11-28T01:00:00Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: '',
    fingerprint: `f${String(i).padStart(15, '0')}`,
  });
  const notification = (
    alerts: AlertmanagerAlert[],
    extra: Partial<AlertmanagerNotification> = {},
  ): AlertmanagerNotification => ({
    groupKey: '{}:{alertname="x"}',
    receiver: 'k8s-health',
    status: 'firing',
    groupLabels: {},
    commonLabels: {},
    externalURL: '',
    alerts,
    overflow: 0,
    truncatedAlerts: 0,
    receivedAt: new Date().toISOString(),
    ...extra,
  });
  const ctx = { jobId: 'job-1', attemptsMade: 0 };
  const text = (c: { body: Record<string, unknown> }) => JSON.stringify(c.body.blocks ?? c.body.text);

  it('joins the root-cause thread once: a repeated or replayed notification shows nothing again; a critical root cause pages on-call once', async () => {
    const { deps, posts, counted } = await setup();
    const n1 = notification([
      alert(1, { alertname: 'KubeNodeNotReady', node: NODE }),
      alert(2, { alertname: 'KubeletDown', instance: `${NODE}:10250` }),
    ]);
    expect(await runAlertsJob(deps, n1, ctx)).toEqual({ shown: 2, repeated: 0 });
    expect(await runAlertsJob(deps, n1, { ...ctx, jobId: 'job-2' })).toEqual({ shown: 0, repeated: 2 });
    const replies = posts().filter((c) => /Prometheus:/.test(text(c)));
    expect(replies.map((c) => c.body.thread_ts)).toEqual([ROOT_TS, ROOT_TS]);
    const pages = posts().filter((c) => /subteam\^S0ONCALL/.test(text(c)));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.body.thread_ts).toBe(ROOT_TS);
    expect(await counted()).toBe(
      'k8s_health_alertmanager_alerts_total{outcome="joined"} 2; k8s_health_alertmanager_alerts_total{outcome="repeated"} 2',
    );
  });

  it("the same firing resolved edits its reply; the tally counts it; the root cause's parent is refreshed", async () => {
    const { deps: base } = await setup();
    const refreshed: string[] = [];
    const deps = {
      ...base,
      refreshParent: async (cluster: string, fp: string) => void refreshed.push(`${cluster} ${fp}`),
    };
    await runAlertsJob(
      deps,
      notification([
        alert(1, { alertname: 'KubeNodeNotReady', node: NODE }),
        alert(2, { alertname: 'KubeletDown', instance: NODE }),
      ]),
      ctx,
    );
    const updates = slack.callsTo('chat.update').length;
    await runAlertsJob(
      deps,
      notification([alert(1, { alertname: 'KubeNodeNotReady', node: NODE }, 'resolved')], { status: 'resolved' }),
      ctx,
    );
    const edits = slack.callsTo('chat.update').slice(updates);
    expect(edits.some((c) => /Resolved\* \*Prometheus:\* KubeNodeNotReady/.test(text(c)))).toBe(true);
    expect(edits.some((c) => /1 of 2 resolved/.test(text(c)))).toBe(true);
    const root = report.findings.find((f) => f.id === 'webhook.unavailable-blocking')!;
    expect(refreshed).toEqual([`tkc-prod ${root.fingerprint}`, `tkc-prod ${root.fingerprint}`]);
  });

  it('waits for a root-cause thread not posted yet, then opens its own after a few attempts', async () => {
    const { deps, posts } = await setup({ threadPosted: false });
    const n1 = notification([alert(1, { alertname: 'KubeNodeNotReady', node: NODE })]);
    await expect(runAlertsJob(deps, n1, ctx)).rejects.toBeInstanceOf(ThreadNotPostedError);
    expect(posts()).toEqual([]);
    expect(await runAlertsJob(deps, n1, { ...ctx, attemptsMade: WAIT_FOR_THREAD_ATTEMPTS - 1 })).toEqual({
      shown: 1,
      repeated: 0,
    });
    expect(posts()[0]!.body.thread_ts).toBeUndefined();
  });

  it('an unexplained alert: a stale report is rescanned first, then a thread of its own, routed by severity', async () => {
    const { deps, posts, scans } = await setup({
      reportAgeSeconds: 120,
      config: { alertmanager: { routes: [{ severity: 'critical', channel: 'C0PAGER' }] } },
    });
    await runAlertsJob(
      deps,
      notification([
        alert(1, { alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-1', severity: 'critical' }),
        alert(2, { alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-2' }),
      ]),
      ctx,
    );
    expect(scans).toEqual(['tkc-prod']);
    const own = posts().filter((c) => /Prometheus:/.test(text(c)));
    expect(own.map((c) => `${c.body.channel} ${c.body.thread_ts ?? 'parent'}`)).toEqual([
      'C0PAGER parent',
      'C0ALERTS parent',
    ]);
    expect(text(own[0]!)).toMatch(/found no cause for this alert yet/);
    // A critical alert of its own is its own root cause: paged once, in its thread.
    expect(
      posts()
        .filter((c) => /subteam\^S0ONCALL/.test(text(c)))
        .map((c) => c.body.channel),
    ).toEqual(['C0PAGER']);
  });

  it('a fresh report is not rescanned', async () => {
    const { deps, scans } = await setup();
    await runAlertsJob(
      deps,
      notification([alert(1, { alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'api-1' })]),
      ctx,
    );
    expect(scans).toEqual([]);
  });

  it('an alert of no known cluster goes to alertmanager.defaultChannel, or is counted when there is none', async () => {
    const withDefault = await setup({ config: { alertmanager: { defaultChannel: 'C0DEFAULT' } } });
    await runAlertsJob(
      withDefault.deps,
      notification([alert(1, { alertname: 'Watchdog', cluster: 'elsewhere' })]),
      ctx,
    );
    expect(withDefault.posts().map((c) => c.body.channel)).toEqual(['C0DEFAULT']);
    expect(text(withDefault.posts()[0]!)).toMatch(/No known cluster/);
    const without = await setup();
    expect(
      await runAlertsJob(without.deps, notification([alert(1, { alertname: 'Watchdog', cluster: 'elsewhere' })]), ctx),
    ).toEqual({ shown: 0, repeated: 0 });
    expect(without.posts()).toEqual([]);
    expect(await without.counted()).toBe('k8s_health_alertmanager_alerts_total{outcome="unknown-cluster"} 1');
  });

  it("says once, in the first alert's thread, how many more alerts arrived than were taken", async () => {
    const { deps, posts, counted } = await setup();
    const n1 = notification([alert(1, { alertname: 'KubeNodeNotReady', node: NODE })], {
      overflow: 4,
      truncatedAlerts: 2,
    });
    await runAlertsJob(deps, n1, ctx);
    await runAlertsJob(deps, n1, ctx); // a retry of the same job
    const notes = posts().filter((c) => /more alerts arrived/.test(text(c)));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body.thread_ts).toBe(ROOT_TS);
    expect(text(notes[0]!)).toMatch(/6 more alerts arrived/);
    expect(await counted()).toContain('k8s_health_alertmanager_alerts_total{outcome="overflow"} 6');
  });
});
