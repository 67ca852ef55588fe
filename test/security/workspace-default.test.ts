import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { LogLevel, webApi, type App, type ReceiverEvent } from '@slack/bolt';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createCheckedReceiver } from '../../src/slack/receive/create-checked-receiver.js';
import { createWorkspacePolicy } from '../../src/slack/receive/create-workspace-policy.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest } from '../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { APPROVAL_CLUSTER, startApprovalBot, type ApprovalBot } from '../support/start-approval-bot.js';

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
let bot: ApprovalBot; // no slack.teamId / enterpriseId configured
let seq = 0;

beforeAll(async () => {
  redisServer = await startRedis();
  bot = await startApprovalBot({ redisServer, objects: [app('app-a')] });
}, 60_000);
afterAll(async () => {
  await bot?.stop();
  await redisServer?.stop();
});

async function click(edit: (p: Payload) => void): Promise<string> {
  seq += 1;
  const pid = await createProposalStore(bot.redis, { keyPrefix: REDIS_PREFIX }).save({
    cluster: APPROVAL_CLUSTER,
    findingId: 'security',
    fingerprint: 'fp',
    proposal: {
      action: 'deployment.scale',
      params: { namespace: 'apps', name: 'app-a', replicas: 0 },
      label: 'Scale apps/app-a to 0',
      risk: 'r',
    },
    createdAt: new Date().toISOString(),
  });
  const raw = blockActionBody({
    actionId: proposeFixActionId(0),
    value: pid,
    response_url: bot.slack.responseUrl(`ws-${seq}`),
    user_id: 'U0PAT',
    message_ts: `1700000000.${String(seq).padStart(6, '0')}`,
  });
  const payload = JSON.parse(decodeURIComponent(raw.slice('payload='.length))) as Payload;
  payload.trigger_id = `ws.${seq}`;
  edit(payload);
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

describe('with no workspace configured, the bot serves its own (auth.test) and refuses every other', () => {
  it('a signed click from another workspace, by a user users.info places in ours → 403, nothing happens', async () => {
    const before = bot.slack.callsTo('chat.postMessage').length;
    const bodies = [
      await click((p) => ((p.team = { id: 'T0OTHER', domain: 'evil' }), (p.user.team_id = 'T0OTHER'))),
      await click((p) => (p.team = { id: 'T0OTHER', domain: 'evil' })),
    ];
    for (const b of bodies) expect(await bot.post(b)).toEqual({ status: 403, body: '' });
    await new Promise((r) => setTimeout(r, 300));
    expect(bot.slack.callsTo('chat.postMessage').length).toBe(before);
    expect(
      bot.logRecords.filter((r) => r.msg === 'slack request refused' && r.reason === 'other-team').length,
    ).toBeGreaterThanOrEqual(2);
    // Our own workspace still passes.
    expect((await bot.post(await click(() => undefined))).status).toBe(200);
    await bot.slack.waitFor('the approval request', () => bot.slack.callsTo('chat.postMessage').length > before);
  });

  it('a view_submission without a view → 400, not a 500', async () => {
    const body = await click((p) => Object.assign(p, { type: 'view_submission', view: undefined }));
    expect(await bot.post(body)).toEqual({ status: 400, body: '' });
    expect(bot.logRecords.some((r) => r.reason === 'no-view')).toBe(true);
  });
});

describe('until auth.test has answered, the receiver answers 503', () => {
  let slack: FakeSlackApi;
  let server: Server;
  const seen: ReceiverEvent[] = [];
  const workspace = createWorkspacePolicy();
  const SECRET = 'workspace-default-secret';

  beforeAll(async () => {
    slack = await startFakeSlackApi();
    const receiver = createCheckedReceiver({
      signingSecret: SECRET,
      logLevel: LogLevel.ERROR,
      policy: workspace.current,
    });
    // The app behind the receiver only records what reached it (and acks).
    receiver.init({
      processEvent: async (e: ReceiverEvent) => {
        seen.push(e);
        await e.ack();
      },
    } as unknown as App);
    server = (await receiver.start(0)) as Server;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await slack.close();
  });

  it('503 before, checked against the learned workspace after', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
    const send = async (body: string) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
          body,
        })
      ).status;
    const ours = blockActionBody({ actionId: 'x', value: 'v', response_url: 'http://127.0.0.1:1/r' });
    expect(await send(ours)).toBe(503);
    expect(seen).toEqual([]);
    expect(await workspace.learn(new webApi.WebClient('xoxb-test-token', { slackApiUrl: slack.apiUrl }))).toEqual({
      teamId: 'T0TEAM',
    });
    expect(await send(ours.replace(/T0TEAM/g, 'T0OTHER'))).toBe(403);
    expect(await send(ours)).toBe(200);
    expect(seen).toHaveLength(1);
  });
});
