import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import { createAlertReceiptStore, type AlertReceiptStore } from '../../../src/alertmanager/alert-receipt-store.js';
import { createAlertmanagerApi } from '../../../src/alertmanager/alertmanager-api.js';
import { configSchema, type Config } from '../../../src/config/config-schema.js';
import { silentLogger } from '../../../src/log/logger.js';
import {
  ALERTMANAGER_SILENCE_1H_ACTION_ID,
  ALERTMANAGER_SILENCE_ALL_ACTION_ID,
} from '../../../src/slack/action-ids.js';
import { renderSilenceAllMenu } from '../../../src/slack/render/render-prometheus-alert.js';
import { createApprovalAuthorizer } from '../../../src/slack/handle/handle-approval-authorizer.js';
import { handleSilence } from '../../../src/slack/handle/handle-alertmanager-silence.js';
import { startAlertmanager, type AlertmanagerServer } from '../../support/start-alertmanager.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { freePort } from '../../support/free-port.js';
import { useRedis } from '../../support/use-redis.js';

/**
 * The Silence buttons against a real Alertmanager (its API v2): "Silence all" of a thread makes one
 * silence per alert; one refused silence expires the ones already made (nothing half done); an
 * unreachable Alertmanager is one clear line and nothing in the thread.
 */
describe('Silence buttons → Alertmanager API v2', () => {
  const r = useRedis();
  let slack: FakeSlackApi;
  let am: AlertmanagerServer;
  let receipts: AlertReceiptStore;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
    slack.addMember('U0SRE', { real_name: 'Sam Reliability' });
    am = await startAlertmanager({
      webhookUrl: `http://127.0.0.1:${await freePort()}/alertmanager`,
      token: 'unused-token-0123456789',
    });
    receipts = createAlertReceiptStore(r.redis, { keyPrefix: 'silence-test:' });
  }, 30_000);
  afterAll(async () => {
    await am?.stop();
    await slack?.close();
  });

  const config = (url: string) =>
    configSchema.parse({
      clusters: [{ name: 'prod', dump: '/d', slack: { alertChannel: 'C0ALERTS' }, approvers: { users: ['U0SRE'] } }],
      alertmanager: { url },
    }) as Config;
  /** Record alerts as shown in one thread (what the alerts worker does), with the given label sets. */
  async function thread(ts: string, labelSets: Record<string, string>[]) {
    for (const [i, labels] of labelSets.entries()) {
      const a = {
        fingerprint: `${ts.replace('.', '')}${i}`,
        startsAt: '2026-11-28T01:00:00Z',
        status: 'firing' as const,
      };
      await receipts.saveShown({
        ...a,
        cluster: 'prod',
        channel: 'C0ALERTS',
        threadTs: ts,
        ts: `${ts}${i}`,
        placement: 'joined',
        labels,
        startsAt: a.startsAt,
        status: 'firing',
      });
      await receipts.tally('C0ALERTS', ts, a);
    }
  }
  /** A click on the "Silence all" of a thread: the tally line's 1h button, or a choice of the parent's menu. */
  async function click(url: string, threadTs: string, from: { menu?: number } = {}) {
    const said: string[] = [];
    const option = from.menu
      ? renderSilenceAllMenu(threadTs).options.find((o) => o.value?.includes(`"h":${from.menu}`))
      : undefined;
    const args = {
      ack: async () => undefined,
      respond: async (m: { text: string }) => void said.push(m.text),
      body: {
        type: 'block_actions',
        user: { id: 'U0SRE', name: 'sam' },
        channel: { id: 'C0ALERTS' },
        // The parent is the thread's first message (no thread_ts of its own); the tally line is a reply.
        message: option ? { ts: threadTs } : { ts: `${threadTs}9`, thread_ts: threadTs },
        trigger_id: '1.2.3',
      },
      client: new WebClient('xoxb-test-token', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }),
      action: option
        ? { type: 'overflow', action_id: ALERTMANAGER_SILENCE_ALL_ACTION_ID, selected_option: option }
        : { type: 'button', action_id: ALERTMANAGER_SILENCE_1H_ACTION_ID, value: JSON.stringify({ t: threadTs }) },
    };
    const deps = {
      config: config(url),
      log: silentLogger,
      now: () => new Date(),
      alertmanager: {
        receipts,
        api: createAlertmanagerApi(url, { timeoutMs: 2000 }),
        isAuthorized: createApprovalAuthorizer(),
      },
    };
    // The handler's own types are Bolt's; this is the shape Bolt hands it.
    await handleSilence(args as never, deps as never);
    return said;
  }
  const notices = (ts: string) => slack.callsTo('chat.postMessage').filter((c) => c.body.thread_ts === ts);

  it('"Silence all" of a tally line (posted by an earlier version) makes one silence per firing alert and says so', async () => {
    const ts = '1700000000.000001';
    await thread(ts, [
      { alertname: 'KubeNodeNotReady', node: 'n1', cluster: 'prod' },
      { alertname: 'KubeletDown', instance: 'n1:10250', cluster: 'prod' },
    ]);
    expect(await click(am.url, ts)).toEqual([]);
    const active = (await am.silences()).filter((s) => s.status.state === 'active');
    expect(active.map((s) => s.matchers.find((m) => m.name === 'alertname')!.value).sort()).toEqual([
      'KubeNodeNotReady',
      'KubeletDown',
    ]);
    expect(active.every((s) => s.createdBy === 'Sam Reliability (U0SRE)')).toBe(true);
    expect(JSON.stringify(notices(ts)[0]!.body.blocks)).toMatch(/silenced 2 alerts/);
  });

  it("the parent's menu silences every firing alert of its thread for the hours chosen, said in the thread", async () => {
    const ts = '1700000000.000004';
    await thread(ts, [
      { alertname: 'KubeDaemonSetRolloutStuck', namespace: 'kube-system', cluster: 'prod' },
      { alertname: 'KubeAPIErrorBudgetBurn', long: '1h', cluster: 'prod' },
      { alertname: 'KubeNodeUnreachable', node: 'n4', cluster: 'prod' },
    ]);
    const before = new Set((await am.silences()).map((s) => s.id));
    expect(await click(am.url, ts, { menu: 24 })).toEqual([]);
    const made = (await am.silences()).filter((s) => !before.has(s.id));
    expect(made.map((s) => s.matchers.find((m) => m.name === 'alertname')!.value).sort()).toEqual([
      'KubeAPIErrorBudgetBurn',
      'KubeDaemonSetRolloutStuck',
      'KubeNodeUnreachable',
    ]);
    for (const s of made) {
      expect(s.status.state).toBe('active');
      const hoursLeft = (Date.parse(s.endsAt) - Date.now()) / 3_600_000;
      expect(hoursLeft > 23.9 && hoursLeft <= 24).toBe(true);
    }
    const [notice] = notices(ts);
    expect(JSON.stringify(notice!.body.blocks)).toMatch(/<@U0SRE> silenced 3 alerts \(KubeDaemonSetRolloutStuck/);
  });

  it('one silence refused: the ones already made are expired again, nothing said in the thread', async () => {
    const ts = '1700000000.000002';
    const before = (await am.silences()).filter((s) => s.status.state === 'active').length;
    // A label name Alertmanager refuses in a matcher (it validates names): the second silence fails.
    await thread(ts, [
      { alertname: 'KubePodNotReady', namespace: 'a', cluster: 'prod' },
      { alertname: 'Weird', 'bad-name': 'x', cluster: 'prod' },
    ]);
    const said = await click(am.url, ts);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^Nothing silenced: Alertmanager at http\[:\]\/\/127\.0\.0\.1:\d+ refused POST \/api\/v2\/silences: 400 .*invalid label name/,
    );
    expect((await am.silences()).filter((s) => s.status.state === 'active')).toHaveLength(before);
    expect(
      (await am.silences()).some(
        (s) => s.status.state === 'expired' && s.matchers.some((m) => m.value === 'KubePodNotReady'),
      ),
    ).toBe(true);
    expect(notices(ts)).toEqual([]);
  });

  it('Alertmanager unreachable: one clear line, nothing silenced, nothing in the thread', async () => {
    const ts = '1700000000.000003';
    await thread(ts, [{ alertname: 'KubeNodeNotReady', node: 'n3', cluster: 'prod' }]);
    const closed = `http://127.0.0.1:${await freePort()}`;
    const said = await click(closed, ts);
    // Links are defused in Slack text (http[:]//): the URL is shown, not linked.
    expect(said).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Nothing silenced: Alertmanager at ${closed.replace('http:', 'http[:]').replace(/[.:/[\]]/g, '\\$&')} is unreachable \\(.+\\): check alertmanager\\.url$`,
        ),
      ),
    ]);
    expect(notices(ts)).toEqual([]);
  });
});
