import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { createApproverAccountCheck } from '../../src/slack/handle/check-approver-account.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { useApprovalBot } from '../support/start-approval-bot.js';

/**
 * An approver listed in the config whose Slack account can no longer approve —
 * deactivated, a guest, a bot, someone of another workspace or organisation, unknown to Slack — or
 * whose account Slack cannot confirm right now. Each clicks Approve (and Reject) through the real
 * Bolt receiver (signed interactions), users.info is asked at the vote (fake Slack API), and the
 * vote must not count: the clicker is told why, the stored request is unchanged, the refusal is
 * audited, and nothing was written to the cluster.
 */

const app = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'apps', uid: `uid-${name}` },
    spec: { replicas: 3 },
  }) as KubeObject;

/** Listed approvers, each with what users.info says about their account. */
const ACCOUNTS = {
  U0DEAD: { deleted: true },
  U0GUEST: { is_restricted: true },
  U0SGUEST: { is_restricted: true, is_ultra_restricted: true },
  U0OTHER: { team_id: 'T0OTHER' },
  U0STRANGE: { is_stranger: true, team_id: 'T0OTHER' },
  U0ROBOT: { is_bot: true },
} as const;
const EXPECTED_REASON: Record<string, RegExp> = {
  U0DEAD: /deactivated/,
  U0GUEST: /a guest account/,
  U0SGUEST: /a guest account/,
  U0OTHER: /not a member of the bot's workspace/,
  U0STRANGE: /another organisation/,
  U0ROBOT: /a bot or app account/,
  U0GONE: /Slack does not know this account here \(user_not_found\)/,
};

const bot = useApprovalBot({
  objects: [app('app-a')],
  approvers: ['U0ANN', 'U0BEN', 'U0PAT', 'U0FLAKY', 'U0GONE', ...Object.keys(ACCOUNTS)],
  registerApprovers: false,
});

beforeAll(() => {
  bot.slack.addMember(['U0ANN', 'U0BEN', 'U0PAT', 'U0FLAKY']);
  for (const [id, account] of Object.entries(ACCOUNTS)) bot.slack.addMember(id, account);
  // U0GONE is listed in the config but not a member: users.info answers user_not_found.
});

describe('approvers re-checked with users.info at vote time', () => {
  let requestId: string;

  it('a deactivated, guest, bot, other-workspace, Slack Connect or unknown account: Approve and Reject do not count', async () => {
    const proposed = await bot.propose({
      action: 'deployment.scale',
      params: { namespace: 'apps', name: 'app-a', replicas: 0 },
      label: 'Scale apps/app-a to 0',
      risk: 'r',
    });
    requestId = proposed.requestId!;
    const stored = await bot.redis.get(`{k8s-health:approvals}:approval:${requestId}`);
    for (const [user, reason] of Object.entries(EXPECTED_REASON)) {
      for (const kind of ['approve', 'reject'] as const) {
        const infoCalls = bot.slack.callsTo('users.info').length;
        const reply = await bot.vote(requestId, user, kind);
        expect({ user, kind, reply }).toEqual({
          user,
          kind,
          reply: expect.stringMatching(/^Your vote was not recorded: your Slack account cannot approve fixes/),
        });
        expect(reply).toMatch(reason);
        // Asked at this very vote, about this user.
        expect(
          bot.slack
            .callsTo('users.info')
            .slice(infoCalls)
            .map((c) => c.body.user),
        ).toEqual([user]);
      }
    }
    expect(await bot.redis.get(`{k8s-health:approvals}:approval:${requestId}`)).toBe(stored);
    const refused = (await bot.audit.list({ limit: 100 })).filter(
      (e) => e.requestId === requestId && e.event === 'refused',
    );
    expect(refused.map((e) => e.user).sort()).toEqual(
      Object.keys(EXPECTED_REASON)
        .flatMap((u) => [u, u])
        .sort(),
    );
    for (const e of refused) expect(e.detail).toMatch(/^ineligible: /);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
  });

  it('users.info failing (Slack error, then Slack unreachable after retries) fails closed with a clear reason', async () => {
    const stored = await bot.redis.get(`{k8s-health:approvals}:approval:${requestId}`);
    bot.slack.fail('users.info', { error: 'fatal_error' }, 1);
    expect(await bot.vote(requestId, 'U0FLAKY')).toBe(
      'Your vote was not recorded: Slack could not confirm the account (users.info: fatal_error). Nothing changed; try again in a moment.',
    );
    bot.slack.fail('users.info', { status: 503 }, 10);
    expect(await bot.vote(requestId, 'U0FLAKY', 'reject')).toMatch(
      /^Your vote was not recorded: Slack could not confirm the account \(users\.info: .+\)\. Nothing changed; try again in a moment\.$/,
    );
    bot.slack.fail('users.info', { status: 503 }, 0);
    expect(await bot.redis.get(`{k8s-health:approvals}:approval:${requestId}`)).toBe(stored);
    const refused = (await bot.audit.list({ limit: 100 })).filter(
      (e) => e.requestId === requestId && e.user === 'U0FLAKY',
    );
    expect(refused.map((e) => e.detail)).toEqual([
      expect.stringMatching(/^unverified: Slack could not confirm the account \(users\.info: .+\)$/),
      'unverified: Slack could not confirm the account (users.info: fatal_error)',
    ]); // newest first
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
  });

  it('the same click by an active member counts (the check is not a blanket refusal); nothing runs on one approval', async () => {
    expect(await bot.vote(requestId, 'U0FLAKY')).toBe('Your approval is counted: 1 of 2.');
    const req = await bot.approvals.get(requestId);
    expect(req!.status).toBe('pending');
    expect(req!.approvals.map((a) => a.user)).toEqual(['U0FLAKY']);
    expect(bot.kube.writes.filter((w) => !w.dryRun)).toEqual([]);
  });
});

describe('createApproverAccountCheck against the fake Slack API', () => {
  let slack: FakeSlackApi;
  let client: WebClient;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
    client = new WebClient('xoxb-test-token', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    slack.addMember('U0HOME');
    slack.addMember('U0ELSE', { team_id: 'T0ELSE' });
    slack.addMember('U0ORG', { team_id: 'T0ELSE', enterprise_user: { enterprise_id: 'E0ORG' } });
    slack.addMember('U0NOORG', { team_id: 'T0ELSE', enterprise_user: { enterprise_id: 'E0EVIL' } });
  });
  afterAll(async () => {
    await slack?.close();
  });

  it('with slack.teamId, only members of that workspace count', async () => {
    const check = createApproverAccountCheck({ teamId: 'T0ELSE' });
    expect(await check(client, 'U0ELSE')).toEqual({ status: 'ok' });
    expect(await check(client, 'U0HOME')).toEqual({
      status: 'ineligible',
      reason: 'not a member of the configured workspace (slack.teamId)',
    });
  });

  it('with slack.enterpriseId, members of any workspace of that org count, others do not', async () => {
    const check = createApproverAccountCheck({ enterpriseId: 'E0ORG' });
    expect(await check(client, 'U0ORG')).toEqual({ status: 'ok' });
    expect(await check(client, 'U0NOORG')).toEqual({
      status: 'ineligible',
      reason: 'not a member of the configured Enterprise Grid org (slack.enterpriseId)',
    });
    expect(await check(client, 'U0HOME')).toEqual({
      status: 'ineligible',
      reason: 'not a member of the configured Enterprise Grid org (slack.enterpriseId)',
    });
  });

  it('with neither, the bot’s own workspace (auth.test, asked once; a failed auth.test fails closed and is asked again)', async () => {
    const check = createApproverAccountCheck({});
    slack.fail('auth.test', { error: 'fatal_error' }, 1);
    expect(await check(client, 'U0HOME')).toEqual({
      status: 'unverified',
      reason: "Slack could not confirm the bot's own workspace (auth.test: fatal_error)",
    });
    const before = slack.callsTo('auth.test').length;
    expect(await check(client, 'U0HOME')).toEqual({ status: 'ok' });
    expect(await check(client, 'U0ELSE')).toEqual({
      status: 'ineligible',
      reason: "not a member of the bot's workspace",
    });
    expect(slack.callsTo('auth.test').length).toBe(before + 1);
  });
});
