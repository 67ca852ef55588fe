import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createReplayGuard } from '../../src/slack/receive/create-replay-guard.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { MAX_FUTURE_SKEW_SECONDS, SIGNATURE_WINDOW_SECONDS } from '../../src/slack/receive/slack-request-window.js';
import { blockActionBody, slashCommandBody } from '../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import {
  APPROVAL_CHANNEL,
  APPROVAL_CLUSTER,
  startApprovalBot,
  type ApprovalBot,
} from '../support/start-approval-bot.js';

/**
 * Correctly signed requests that must still be refused, against the real Bolt
 * HTTP receiver as `serve` wires it (createSlackApp: checked receiver, Redis replay guard), a real
 * Redis, the fake Slack and Kubernetes APIs. Each attack carries a valid proposal id for a
 * remediable cluster, so a request that got through would post an approval request; each test
 * asserts the HTTP status, that no listener ran (no reply, no post, no approval stored) and that
 * nothing was written to the cluster (the fake API records every request).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Payload = Record<string, any>;

const app = (name: string): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'apps', uid: `uid-${name}` },
    spec: { replicas: 3 },
  }) as KubeObject;

let redisServer: RedisServer;
let bot: ApprovalBot; // slack.teamId: T0TEAM
let orgBot: ApprovalBot; // slack.enterpriseId: E0ORG
let seq = 0;

beforeAll(async () => {
  redisServer = await startRedis();
  bot = await startApprovalBot({
    redisServer,
    objects: [app('app-a')],
    slackPolicy: { teamId: 'T0TEAM' },
    replayGuard: true,
  });
  orgBot = await startApprovalBot({ redisServer, objects: [app('app-a')], slackPolicy: { enterpriseId: 'E0ORG' } });
}, 60_000);

afterAll(async () => {
  await bot?.stop();
  await orgBot?.stop();
  await redisServer?.stop();
});

/** A fresh proposal for the remediable cluster: its click would post an approval request. */
/** A fix of its own per click (one pending request per fix): the replica count is the click's number. */
async function proposalId(b: ApprovalBot): Promise<string> {
  return createProposalStore(b.redis, { keyPrefix: REDIS_PREFIX }).save({
    cluster: APPROVAL_CLUSTER,
    findingId: 'security',
    fingerprint: 'fp',
    proposal: {
      action: 'deployment.scale',
      params: { namespace: 'apps', name: 'app-a', replicas: seq },
      label: `Scale apps/app-a to ${seq}`,
      risk: 'r',
    },
    createdAt: new Date().toISOString(),
  });
}

/** A propose-fix click as Slack sends it, then changed by `edit` (the payload JSON). */
async function click(
  b: ApprovalBot,
  edit: (p: Payload) => void = () => undefined,
): Promise<{ body: string; responseUrl: string }> {
  seq += 1;
  const responseUrl = b.slack.responseUrl(`sec-${seq}`);
  const raw = blockActionBody({
    actionId: proposeFixActionId(0),
    value: await proposalId(b),
    response_url: responseUrl,
    user_id: 'U0PAT',
    message_ts: `1700000000.${String(seq).padStart(6, '0')}`,
  });
  const payload = JSON.parse(decodeURIComponent(raw.slice('payload='.length))) as Payload;
  payload.trigger_id = `sec.${seq}`; // every real request differs (the replay guard hashes bodies)
  edit(payload);
  return { body: `payload=${encodeURIComponent(JSON.stringify(payload))}`, responseUrl };
}

/** What a request that got through leaves behind. */
async function traces(b: ApprovalBot) {
  return {
    posts: b.slack.callsTo('chat.postMessage').length,
    replies: b.slack.responses.length,
    approvals: (await b.redis.keys(`{k8s-health:approvals}:approval:r_*`)).length,
    writes: b.kube.writes.length,
  };
}

/** Send each body; all must get `status`, and nothing may have happened. */
async function expectRefused(
  b: ApprovalBot,
  bodies: { body: string; ts?: number }[],
  status: number,
  reason: string,
): Promise<void> {
  const before = await traces(b);
  for (const r of bodies) expect(await b.post(r.body, { ts: r.ts })).toEqual({ status, body: '' });
  // A listener acks first and works after: give a wrongly accepted request the time to show.
  await new Promise((r) => setTimeout(r, 300));
  expect(await traces(b)).toEqual(before);
  expect(b.kube.writes).toEqual([]);
  expect(
    b.logRecords.filter((r) => r.msg === 'slack request refused' && r.status === status && r.reason === reason).length,
  ).toBeGreaterThanOrEqual(bodies.length);
}

describe('signed requests refused before any listener', () => {
  it('a payload from another workspace (team.id, user.team_id, slash command team_id) → 403', async () => {
    const bodies = [
      await click(bot, (p) => (p.team = { id: 'T0OTHER', domain: 'evil' })),
      await click(bot, (p) => (p.user.team_id = 'T0OTHER')),
      await click(bot, (p) => delete p.team),
      {
        body: slashCommandBody({
          text: APPROVAL_CLUSTER,
          channel_id: APPROVAL_CHANNEL,
          response_url: bot.slack.responseUrl('cmd-other'),
        }).replace('team_id=T0TEAM', 'team_id=T0OTHER'),
      },
    ];
    await expectRefused(bot, bodies, 403, 'other-team');
  });

  it('a payload from another Enterprise Grid org, or none, when slack.enterpriseId is set → 403; the right org passes', async () => {
    const bodies = [
      await click(orgBot, (p) => (p.enterprise = { id: 'E0EVIL', name: 'evil' })),
      await click(orgBot, (p) => (p.team.enterprise_id = 'E0EVIL')),
      await click(orgBot),
    ];
    await expectRefused(orgBot, bodies, 403, 'other-enterprise');
    const ok = await click(orgBot, (p) => (p.enterprise = { id: 'E0ORG', name: 'org' }));
    expect(await orgBot.post(ok.body)).toEqual({ status: 200, body: '' });
    await orgBot.slack.waitFor(
      'the approval request posted',
      () => orgBot.slack.callsTo('chat.postMessage').length > 0,
    );
  });

  it(`a timestamp more than ${MAX_FUTURE_SKEW_SECONDS} s in the future → 401, like a stale one`, async () => {
    const now = Math.floor(Date.now() / 1000);
    const bodies = [];
    for (const ahead of [MAX_FUTURE_SKEW_SECONDS + 30, 3600, 365 * 24 * 3600])
      bodies.push({ ...(await click(bot)), ts: now + ahead });
    await expectRefused(bot, bodies, 401, 'future-timestamp');
  });

  it('a signed command or interaction without a user → 400, not a 500', async () => {
    const bodies = [
      await click(bot, (p) => delete p.user),
      await click(bot, (p) => (p.user = {})),
      await click(bot, (p) => (p.user = { id: 7, team_id: 'T0TEAM' })),
      await click(bot, (p) => (p.user = { id: 'U0PAT> <!channel', team_id: 'T0TEAM' })),
      await click(bot, (p) =>
        Object.assign(p, {
          type: 'view_submission',
          user: undefined,
          view: { callback_id: 'k8s-health.approval.confirm', private_metadata: 'r_x', state: { values: {} } },
        }),
      ),
      {
        body: slashCommandBody({
          text: APPROVAL_CLUSTER,
          channel_id: APPROVAL_CHANNEL,
          response_url: bot.slack.responseUrl('cmd-nouser'),
        }).replace('user_id=U0ALICE&', ''),
      },
      await click(bot, (p) => (p.type = 'nonsense')),
    ];
    const before = await traces(bot);
    const statuses = [];
    for (const r of bodies) statuses.push((await bot.post(r.body)).status);
    await new Promise((r) => setTimeout(r, 300));
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(await traces(bot)).toEqual(before);
    expect(bot.kube.writes).toEqual([]);
  });
});

describe('replays within the whole signature window', () => {
  it(`the replay guard remembers a body at least ${SIGNATURE_WINDOW_SECONDS} s (stale side + future side)`, async () => {
    const { body } = await click(bot);
    // Stamped just inside the future skew: accepted now, and by Bolt's staleness rule until ts + 300 s.
    const ts = Math.floor(Date.now() / 1000) + MAX_FUTURE_SKEW_SECONDS - 30;
    const before = bot.slack.callsTo('chat.postMessage').length;
    expect((await bot.post(body, { ts })).status).toBe(200);
    await bot.slack.waitFor(
      'the one approval request',
      () => bot.slack.callsTo('chat.postMessage').length === before + 1,
    );
    const keys = await bot.redis.keys(`${REDIS_PREFIX}slack-seen:*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(await bot.redis.ttl(k)).toBeGreaterThanOrEqual(SIGNATURE_WINDOW_SECONDS);
    // The same signed body again: acked empty, never processed.
    for (let i = 0; i < 3; i++) expect(await bot.post(body, { ts })).toEqual({ status: 200, body: '' });
    await new Promise((r) => setTimeout(r, 300));
    expect(bot.slack.callsTo('chat.postMessage').length).toBe(before + 1);
    expect(bot.logMessages.filter((m) => m === 'replayed Slack request ignored').length).toBeGreaterThanOrEqual(3);
    // Only the dry run of the one accepted proposal reached the cluster.
    expect(bot.kube.writes.every((w) => w.dryRun)).toBe(true);
  });

  it('a replay guard shorter than the window is refused at construction', async () => {
    expect(() => createReplayGuard(bot.redis, { keyPrefix: 'x:', ttlSeconds: 300 })).toThrow(
      `shorter than the ${SIGNATURE_WINDOW_SECONDS} s`,
    );
  });
});
