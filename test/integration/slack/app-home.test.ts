import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { App } from '@slack/bolt';
import { Redis } from 'ioredis';
import { composeAppHomeDeps } from '../../../src/compose/compose-app-home-deps.js';
import { composeApprovalDeps } from '../../../src/compose/compose-approval-deps.js';
import { createPlanSigner } from '../../../src/approvals/plan-signer.js';
import { signRequest } from '../../../src/approvals/request/sign-request.js';
import { castVote } from '../../../src/slack/handle/handle-approval-vote.js';
import { createMetrics } from '../../../src/slack/receive/create-metrics.js';
import { createProposalStore } from '../../../src/store/proposal-store.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { ApprovalRequest } from '../../../src/approvals/approval-request.js';
import type { Report } from '../../../src/report/report.js';
import { createSlackApp } from '../../../src/slack/receive/create-slack-app.js';
import { registerAppHomeListener } from '../../../src/slack/handle/handle-app-home.js';
import { refreshAppHomes } from '../../../src/slack/post/publish-app-home.js';
import { createApprovalStore } from '../../../src/store/approval-store.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { captureLogs } from '../../support/capture-logs.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { signSlackRequest } from '../../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { webhookDownFinding } from '../../support/webhook-down-finding.js';

const SIGNER = createPlanSigner('a'.repeat(64));

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';
const keyPrefix = 'home:';

/**
 * The App Home tab through Bolt's real HTTP receiver with a real signature: an
 * `app_home_opened` event publishes (views.publish, fake Slack) the clusters the user may query —
 * state, worst finding, since when (date tokens) and the approvals waiting on them — and a change
 * re-publishes the Home of the users who opened it recently.
 */
describe('App Home', () => {
  let redisServer: RedisServer;
  let redis: Redis;
  let slack: FakeSlackApi;
  let app: App;
  let baseUrl: string;
  const { log } = captureLogs();
  const config = parseConfig(
    {
      clusters: [
        { name: 'open', dump: './x' },
        { name: 'restricted', dump: './y', slack: { channels: ['C0OPS'] }, approvers: { users: ['U0ALICE'] } },
        { name: 'by-group', dump: './z', slack: { channels: ['C0SRE'] }, approvers: { groups: ['S0SRE'] } },
      ],
    },
    '/tmp',
  );
  const report = (cluster: string, status: Report['status'], findings: Report['findings'] = []): Report => ({
    cluster,
    generatedAt: '2025-03-01T10:00:00Z',
    collectedAt: '2025-03-01T10:00:00Z',
    status,
    sections: [],
    findings,
    partial: [],
  });
  const open = async (user: string) => {
    const body = JSON.stringify({
      token: 't',
      team_id: 'T0TEAM',
      api_app_id: 'A0APP',
      type: 'event_callback',
      event_id: `Ev${user}${Math.random()}`,
      event_time: 1,
      event: { type: 'app_home_opened', user, channel: 'D0HOME', tab: 'home', event_ts: '1.2' },
    });
    const res = await fetch(`${baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signSlackRequest(SECRET, body) },
      body,
    });
    expect(res.status).toBe(200);
  };
  let pendingId = '';
  const home = (user: string) => JSON.stringify(slack.homes.get(user)?.blocks ?? '');

  beforeAll(async () => {
    redisServer = await startRedis();
    redis = new Redis(redisServer.url);
    slack = await startFakeSlackApi({ validToken: TOKEN });
    slack.usergroups.set('S0SRE', ['U0SRE']);
    const started = await createSlackApp({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logLevel: 'error',
    });
    app = started.app;
    registerAppHomeListener(app, {
      appHome: composeAppHomeDeps({ redis, keyPrefix, config, now: () => new Date(), log }),
    });
    const server = (await app.start(0)) as Server;
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const reports = createReportStore(redis, { keyPrefix });
    await reports.save(report('open', 'healthy'));
    await reports.save(report('restricted', 'critical', [{ ...webhookDownFinding, since: '2025-03-01T09:20:00Z' }]));
    await reports.save(report('by-group', 'degraded'));
    const approvals = createApprovalStore(redis, { keyPrefix });
    const pending = {
      id: approvals.newId(),
      cluster: 'restricted',
      plan: { label: 'Suspend webhook kyverno' },
      hash: 'h',
      proposer: 'U0BOB',
      createdAt: '2025-03-01T10:00:00Z',
      expiresAt: '2099-03-01T10:30:00Z',
      required: 2,
      status: 'pending',
      approvals: [],
      dryRun: 'ok',
      thread: { channel: 'C0OPS', threadTs: '1.1' },
      transitions: [],
    } as unknown as ApprovalRequest;
    // Signed as serve's propose step signs it: a vote on an unsigned (tampered) request is refused.
    pending.signature = signRequest(pending, SIGNER);
    await approvals.create(pending);
    pendingId = pending.id;
  });

  afterAll(async () => {
    await app?.stop();
    redis?.disconnect();
    await slack?.close();
    await redisServer?.stop();
  });

  it('shows the clusters the user may query, their state, worst finding, since when and approvals waiting on them', async () => {
    await open('U0ALICE');
    await slack.waitFor("Alice's home", () => slack.homes.get('U0ALICE'));
    const alice = home('U0ALICE');
    expect(alice).toContain('*open* · healthy');
    expect(alice).toContain('*restricted* · critical');
    expect(alice).not.toContain('by-group');
    expect(alice).toContain(
      `since <!date^${Date.parse('2025-03-01T09:20:00Z') / 1000}^{date_short_pretty} {time}|2025-03-01 09:20 UTC>`,
    );
    expect(alice).toContain('Waiting on you: *Suspend webhook kyverno* proposed by <@U0BOB>');
    expect(alice).not.toMatch(/\d+m ago/);

    // A member of an approver group sees that cluster; the proposer is not asked to approve their own request.
    await open('U0SRE');
    await open('U0BOB');
    await slack.waitFor('the other homes', () => slack.homes.get('U0SRE') && slack.homes.get('U0BOB'));
    expect(home('U0SRE')).toContain('*by-group* · degraded');
    expect(home('U0SRE')).not.toContain('restricted');
    expect(home('U0BOB')).not.toContain('Waiting on you');
    expect(home('U0BOB')).toContain('*open*');
  });

  it('re-publishes the Home of recent viewers when a cluster changes', async () => {
    await createReportStore(redis, { keyPrefix }).save({
      ...report('open', 'critical', [{ ...webhookDownFinding, since: '2025-03-01T10:55:00Z' }]),
      generatedAt: '2025-03-01T11:00:00Z',
      collectedAt: '2025-03-01T11:00:00Z',
    });
    const before = slack.callsTo('views.publish').length;
    const published = await refreshAppHomes(
      composeAppHomeDeps({ redis, keyPrefix, config, now: () => new Date(), log }),
      app.client,
    );
    expect(published).toBe(3);
    expect(slack.callsTo('views.publish').length).toBe(before + 3);
    for (const u of ['U0ALICE', 'U0SRE', 'U0BOB']) expect(home(u)).toContain('*open* · critical');
  });

  it("re-publishes recent viewers' Home when a vote changes a request: it no longer waits on who voted", async () => {
    slack.addMember('U0ALICE');
    expect(home('U0ALICE')).toContain('Waiting on you: *Suspend webhook kyverno*');
    const before = slack.callsTo('views.publish').length;
    const now = () => new Date();
    const approval = composeApprovalDeps({
      redis,
      keyPrefix,
      config,
      signer: SIGNER,
      jobs: {
        requestProposal: async () => ({ status: 'finished' as const }),
        enqueueRemediation: async () => undefined,
      },
      log,
      now,
    });
    const reports = createReportStore(redis, { keyPrefix });
    const r = await castVote(pendingId, { user: 'U0ALICE', kind: 'approve' }, app.client, {
      config,
      reports,
      proposals: createProposalStore(redis, { keyPrefix }),
      requestScan: async () => {
        throw new Error('no scans here');
      },
      metrics: createMetrics({ defaultMetrics: false }),
      now,
      log,
      approval,
    });
    expect(r.outcome).toBe('counted');
    expect(slack.callsTo('views.publish').length).toBeGreaterThan(before);
    expect(home('U0ALICE')).not.toContain('Waiting on you');
    expect(home('U0ALICE')).toContain('*restricted* · critical');
  });
});
