import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { REDIS_PREFIX } from '../../src/jobs/queue-names.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { spawnWorker, type SpawnedWorker } from '../support/spawn-worker.js';
import { eventually } from '../support/eventually.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';

/**
 * The chart runs the internet-facing `serve` as `serve --no-workers --no-cluster-access` under a
 * ServiceAccount with no role and no token (docs/security.md "The Helm chart"). Here the built CLI is
 * given a live, remediation-enabled cluster (a fake API server of its own) anyway: with the flag it
 * must send that API server nothing at all — not for `/k8s-health` with no worker running, not for a
 * fix button. A fix is planned and dry-run by a separate `worker --only remediate` process that holds
 * the credential (another fake API server, the one with the Deployment), so the click still becomes
 * an approval request.
 */
const SECRET = 'no-cluster-access-signing-secret';
const TOKEN = 'xoxb-no-cluster-access';
const CHANNEL = 'C0INCIDENT';
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'noisy', namespace: 'shop', uid: 'uid-noisy' },
  spec: { replicas: 4 },
} as unknown as KubeObject;

let redisServer: RedisServer;
let slack: FakeSlackApi;
/** What `serve` would reach with the cluster in its config: must see no request at all. */
let kube: FakeKubeApi;
/** What the remediation worker reaches (its own credential in the chart). */
let workerKube: FakeKubeApi;
let dir: string;
let serve: SpawnedServe;
let worker: SpawnedWorker | undefined;
let workerConfig: string;

const configText = (kubeconfig: string) =>
  [
    'clusters:',
    '  - name: prod-east',
    `    workload: { kubeconfig: ${JSON.stringify(kubeconfig)} }`,
    `    slack: { channels: [${CHANNEL}] }`,
    '    approvers: { users: [U0ANN, U0BEN] }',
    '    remediation: { enabled: true }',
    '',
  ].join('\n');

beforeAll(async () => {
  redisServer = await startRedis();
  slack = await startFakeSlackApi({ validToken: TOKEN });
  kube = await startFakeKubeApi({ objects: [deployment] });
  workerKube = await startFakeKubeApi({ objects: [deployment] });
  dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-no-cluster-access-'));
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(configFile, configText(await writeTestKubeConfig(kube.url)));
  workerConfig = path.join(dir, 'worker-config.yaml');
  writeFileSync(workerConfig, configText(await writeTestKubeConfig(workerKube.url)));
  serve = await spawnServe({
    config: configFile,
    args: ['--no-workers', '--no-cluster-access'],
    env: {
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redisServer.url,
      LOG_LEVEL: 'error',
    },
  });
}, 60_000);

afterAll(async () => {
  await serve?.kill();
  await worker?.kill();
  await kube?.close();
  await workerKube?.close();
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
    expect(
      await post(slashCommandBody({ text: 'prod-east', channel_id: CHANNEL, response_url: slack.responseUrl() })),
    ).toBe(200);
    const [update] = await slack.waitFor(
      'scan failure in place',
      () => slack.callsTo('chat.update').length === 1 && slack.callsTo('chat.update'),
      30_000,
    );
    const text = JSON.stringify(update!.body.blocks);
    expect(text).toContain('no cluster access (--no-cluster-access)');
    expect(text).toContain('no k8s-health worker process took the scan of prod-east');
    expect(kube.requests).toEqual([]);
  });

  it('a fix button becomes an approval request through a `worker --only remediate` process; serve sends its API server nothing', async () => {
    worker = await spawnWorker({
      config: workerConfig,
      args: ['--only', 'remediate'],
      env: { SLACK_BOT_TOKEN: TOKEN, SLACK_API_URL: slack.apiUrl, REDIS_URL: redisServer.url, LOG_LEVEL: 'error' },
    });
    const redis = new Redis(redisServer.url);
    try {
      const proposalId = await createProposalStore(redis, { keyPrefix: REDIS_PREFIX }).save({
        cluster: 'prod-east',
        findingId: 'test.finding',
        fingerprint: 'fp-no-cluster-access',
        proposal: {
          action: 'deployment.scale',
          params: { namespace: 'shop', name: 'noisy', replicas: 0 },
          label: 'Scale shop/noisy to 0',
          risk: 'r',
        },
        createdAt: new Date().toISOString(),
      });
      const responseUrl = slack.responseUrl('fix-click');
      expect(
        await post(
          blockActionBody({
            actionId: proposeFixActionId(0),
            value: proposalId,
            channel_id: CHANNEL,
            user_id: 'U0PAT',
            response_url: responseUrl,
            message_ts: '1700000000.000777',
          }),
        ),
      ).toBe(200);
      // The clicker hears at once that the plan is being prepared (no silent wait).
      const preparing = await slack.waitFor(
        'the immediate ephemeral',
        () => slack.responses.find((r) => r.path === '/response/fix-click'),
        30_000,
      );
      expect(preparing.body).toMatchObject({
        response_type: 'ephemeral',
        text: expect.stringContaining('Preparing the plan for *Scale shop/noisy to 0*'),
      });
      // The worker planned it (live replicas recorded), dry-ran it, and posted the request in the thread.
      const posted = await slack.waitFor(
        'the approval request in the thread',
        () =>
          slack.callsTo('chat.postMessage').find((c) => JSON.stringify(c.body.blocks ?? '').includes('approval:r_')),
        30_000,
      );
      expect(posted.body).toMatchObject({ channel: CHANNEL, thread_ts: '1700000000.000777' });
      expect(JSON.stringify(posted.body.blocks)).toContain('server-side dry run (dryRun=All) accepted');
      expect(String(posted.body.text)).toContain('Scale shop/noisy to 0 (was 4)');
      // The request is stored right after its message is posted (approvals/request/propose-fix.ts).
      const keys = await eventually(
        () => redis.keys(`{k8s-health:approvals}:approval:*`),
        (k) => k.length > 0,
        30_000,
      );
      expect(keys).toHaveLength(1);
      const stored = JSON.parse((await redis.get(keys[0]!))!);
      expect(stored).toMatchObject({
        cluster: 'prod-east',
        proposer: 'U0PAT',
        status: 'pending',
        dryRunOk: true,
        thread: { channel: CHANNEL, threadTs: '1700000000.000777' },
      });
      expect(workerKube.requests.map((r) => `${r.method} ${r.path}${r.query.dryRun ? ' (dry run)' : ''}`)).toEqual(
        expect.arrayContaining([
          'GET /apis/apps/v1/namespaces/shop/deployments/noisy',
          'PATCH /apis/apps/v1/namespaces/shop/deployments/noisy (dry run)',
        ]),
      );
      expect(workerKube.writes.filter((w) => !w.dryRun)).toEqual([]);
      expect(kube.requests).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
