import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createProposalStore } from '../../src/slack/proposal-store.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * The chart runs the internet-facing `serve` as `serve --no-workers --no-cluster-access` under a
 * ServiceAccount with no role and no token (docs/security.md "The Helm chart"). Here the built CLI is
 * given a live, remediation-enabled cluster (the fake API server) anyway: with the flag it must send
 * that API server nothing at all — not for `/k8s-health` with no worker running, not for a fix
 * button — and say why in Slack.
 */
const SECRET = 'no-cluster-access-signing-secret';
const TOKEN = 'xoxb-no-cluster-access';
const CHANNEL = 'C0INCIDENT';
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'noisy', namespace: 'shop', uid: 'uid-noisy' }, spec: { replicas: 4 } } as unknown as KubeObject;

let redisServer: RedisServer;
let slack: FakeSlackApi;
let kube: FakeKubeApi;
let dir: string;
let serve: SpawnedServe;

beforeAll(async () => {
  redisServer = await startRedis();
  slack = await startFakeSlackApi({ validToken: TOKEN });
  kube = await startFakeKubeApi({ objects: [deployment] });
  const kubeconfig = await writeTestKubeConfig(kube.url);
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-no-cluster-access-'));
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    [
      'clusters:',
      '  - name: prod-east',
      `    workload: { kubeconfig: ${JSON.stringify(kubeconfig)} }`,
      `    slack: { channels: [${CHANNEL}] }`,
      '    approvers: { users: [U0ANN, U0BEN] }',
      '    remediation: { enabled: true }',
      '',
    ].join('\n'),
  );
  serve = await spawnServe({
    config: configFile,
    args: ['--no-workers', '--no-cluster-access'],
    env: { SLACK_BOT_TOKEN: TOKEN, SLACK_SIGNING_SECRET: SECRET, SLACK_API_URL: slack.apiUrl, REDIS_URL: redisServer.url, LOG_LEVEL: 'error' },
  });
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  await kube?.close();
  await slack?.close();
  await redisServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function post(body: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${serve.port}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
    body,
  });
  await res.text();
  return res.status;
}

describe('serve --no-workers --no-cluster-access (spawned)', () => {
  it('answers /k8s-health without scanning here when no worker runs, and says why', async () => {
    expect(await post(slashCommandBody({ text: 'prod-east', channel_id: CHANNEL, response_url: slack.responseUrl() }))).toBe(200);
    const [update] = await slack.waitFor('scan failure in place', () => slack.callsTo('chat.update').length === 1 && slack.callsTo('chat.update'), 30_000);
    const text = JSON.stringify(update!.body.blocks);
    expect(text).toContain('no cluster access (--no-cluster-access)');
    expect(text).toContain('no k8s-health worker process took the scan of prod-east');
    expect(kube.requests).toEqual([]);
  });

  it('refuses a fix button with the reason, creates no approval request and sends the API server nothing', async () => {
    const redis = new Redis(redisServer.url);
    try {
      const proposalId = await createProposalStore(redis, { keyPrefix: REDIS_PREFIX }).save({
        cluster: 'prod-east',
        findingId: 'test.finding',
        fingerprint: 'fp-no-cluster-access',
        proposal: { action: 'deployment.scale', params: { namespace: 'shop', name: 'noisy', replicas: 0 }, label: 'Scale shop/noisy to 0', risk: 'r' },
        createdAt: new Date().toISOString(),
      });
      const responseUrl = slack.responseUrl('fix-click');
      expect(await post(blockActionBody({ actionId: proposeFixActionId(0), value: proposalId, channel_id: CHANNEL, user_id: 'U0PAT', response_url: responseUrl }))).toBe(200);
      const reply = await slack.waitFor('fix refusal', () => slack.responses.find((r) => r.path === '/response/fix-click'), 30_000);
      expect(reply.body.response_type).toBe('ephemeral');
      expect(reply.body.text).toContain('this serve has no cluster access (--no-cluster-access), so it cannot plan and dry-run a fix for prod-east');
      expect(await redis.keys(`${REDIS_PREFIX}approval:*`)).toEqual([]);
      expect(slack.callsTo('chat.postMessage').filter((c) => JSON.stringify(c.body).includes('Approve'))).toEqual([]);
      expect(kube.requests).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
