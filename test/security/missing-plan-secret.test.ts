import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { blockActionBody, signSlackRequest, slashCommandBody } from '../support/sign-slack-request.js';
import { spawnServe, type SpawnedServe } from '../support/spawn-serve.js';
import { startApprovalBot } from '../support/start-approval-bot.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { scaleWeb, web } from '../support/web-deployment.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * K8S_HEALTH_PLAN_SECRET missing (or different between the processes): proposing and executing refuse
 * with one line naming the variable, nothing reaches the cluster — while the read-only bot (dump
 * clusters, /k8s-health) keeps working without it.
 */
const SECRET_LINE =
  'K8S_HEALTH_PLAN_SECRET is not set: approval-gated fixes are disabled until it holds a random secret of at least 32 bytes (e.g. `openssl rand -hex 32`), the same in every serve and worker process';

describe('in-process: the Slack side or the worker without the secret', () => {
  it('serve without the secret: the fix is not proposed (one line naming the variable), nothing stored, nothing sent to the cluster', async () => {
    const bot = await startApprovalBot({ objects: [web], planSecret: null });
    try {
      const p = await bot.propose(scaleWeb);
      expect(p.requestId).toBeUndefined();
      expect(p.ephemeral!.text).toBe(`Not proposed: ${SECRET_LINE}`);
      expect(await bot.redis.keys('{k8s-health:approvals}:approval:*')).toEqual([]);
      expect(bot.kube.writes).toEqual([]);
    } finally {
      await bot.stop();
    }
  }, 60_000);

  it('a remediation worker without the secret, or with another one, refuses the click (one line to the clicker); nothing stored or read', async () => {
    // Planning happens in the remediation worker: it seals the plan with its secret and must
    // verify serve's seal on the click, so a worker without it, or with a different one, proposes nothing.
    const cases = [
      [null, `Not proposed: ${SECRET_LINE}`],
      [
        'a-different-secret-of-at-least-32-bytes!!',
        'Not proposed: the remediation worker could not verify this click (is K8S_HEALTH_PLAN_SECRET the same in serve and in the worker?).',
      ],
    ] as const;
    for (const [workerPlanSecret, told] of cases) {
      const bot = await startApprovalBot({ objects: [web], workerPlanSecret });
      try {
        const p = await bot.propose(scaleWeb);
        expect(p.requestId).toBeUndefined();
        expect(p.ephemeral!.text).toBe(told);
        expect(await bot.redis.keys('{k8s-health:approvals}:approval:*')).toEqual([]);
        expect(bot.kube.requests).toEqual([]);
        expect((bot.kube.find('Deployment', 'web', 'shop') as Any).spec.replicas).toBe(3);
      } finally {
        await bot.stop();
      }
    }
  }, 90_000);
});

describe('spawned `k8s-health serve` without K8S_HEALTH_PLAN_SECRET', () => {
  const SIGNING = 'secretless-signing-secret';
  const TOKEN = 'xoxb-secretless';
  let redisServer: RedisServer;
  let slack: FakeSlackApi;
  let kube: FakeKubeApi;
  let serve: SpawnedServe;
  let dir: string;

  beforeAll(async () => {
    redisServer = await startRedis();
    slack = await startFakeSlackApi({ validToken: TOKEN });
    kube = await startFakeKubeApi({ objects: [web] });
    dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-secretless-'));
    const config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'clusters:',
        `  - name: demo`,
        `    dump: ${JSON.stringify(path.resolve('examples/scenarios/s3-recreation-loop-webhook-down'))}`,
        '    slack: { channels: [C0INCIDENT] }',
        '  - name: prod-east',
        `    workload: { kubeconfig: ${JSON.stringify(await writeTestKubeConfig(kube.url))} }`,
        '    slack: { channels: [C0INCIDENT] }',
        '    approvers: { users: [U0ANN, U0BEN] }',
        '    remediation: { enabled: true }',
        'scan: { intervalSeconds: 3600, watch: false }',
        '',
      ].join('\n'),
    );
    serve = await spawnServe({
      config,
      env: {
        SLACK_BOT_TOKEN: TOKEN,
        SLACK_SIGNING_SECRET: SIGNING,
        SLACK_API_URL: slack.apiUrl,
        REDIS_URL: redisServer.url,
        LOG_LEVEL: 'error',
        K8S_HEALTH_PLAN_SECRET: '',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await serve?.kill();
    await kube?.close();
    await slack?.close();
    await redisServer?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const post = async (body: string) => {
    const res = await fetch(`http://127.0.0.1:${serve.port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SIGNING, body) },
      body,
    });
    await res.text();
    return res.status;
  };

  it('starts, warns once with the one line (a JSON log line), and still answers /k8s-health on a dump cluster', async () => {
    // One JSON log line, a warning (startup lines are written whatever LOG_LEVEL: here `error`).
    const lines = serve.stdout.split('\n').filter((l) => l.includes('K8S_HEALTH_PLAN_SECRET'));
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 'warn', process: 'serve', msg: SECRET_LINE }),
    ]);
    expect(await post(slashCommandBody({ text: 'demo', response_url: slack.responseUrl('cmd') }))).toBe(200);
    const update = await slack.waitFor(
      'the report',
      () => slack.callsTo('chat.update').find((c) => JSON.stringify(c.body.blocks ?? '').includes('demo: critical')),
      30_000,
    );
    expect(JSON.stringify(update.body.blocks)).toContain('kyverno-resource-validating-webhook-cfg');
  }, 60_000);

  it('a fix on the remediation-enabled cluster is refused with that line; nothing is stored or sent to the cluster', async () => {
    const redis = new Redis(redisServer.url);
    try {
      const pid = await createProposalStore(redis, { keyPrefix: 'k8s-health:' }).save({
        cluster: 'prod-east',
        findingId: 'x',
        fingerprint: 'fp',
        proposal: scaleWeb,
        createdAt: new Date().toISOString(),
      });
      expect(
        await post(
          blockActionBody({
            actionId: proposeFixActionId(0),
            value: pid,
            user_id: 'U0PAT',
            response_url: slack.responseUrl('fix'),
          }),
        ),
      ).toBe(200);
      const reply = await slack.waitFor(
        'the refusal',
        () => slack.responses.find((r) => r.path === '/response/fix'),
        30_000,
      );
      expect(reply.body).toMatchObject({ response_type: 'ephemeral', text: `Not proposed: ${SECRET_LINE}` });
      expect(await redis.keys('{k8s-health:approvals}:approval:*')).toEqual([]);
    } finally {
      redis.disconnect();
    }
    expect(kube.writes).toEqual([]);
    expect(serve.stderr).toBe('');
  }, 60_000);
});
