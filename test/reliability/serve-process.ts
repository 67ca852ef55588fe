import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { APPROVE_ACTION_ID } from '../../src/slack/render/render-approval.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { freePort, waitForPort } from '../support/free-port.js';
import { TEST_PLAN_SECRET } from '../support/plan-secret.js';
import { blockActionBody, signSlackRequest } from '../support/sign-slack-request.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { scanKeys } from '../../src/store/scan-keys.js';
import type { RemediationProposal } from '../../src/diagnose/finding.js';

const SECRET = 'rel-kill-signing-secret';
const TOKEN = 'xoxb-rel-kill-token';
export const CHANNEL = 'C0EAST';

/**
 * The built `k8s-health serve` (dist/) as a real process that the test kills with SIGKILL and starts
 * again on the same PORT and Redis, with a remediable cluster served by the fake Kubernetes API.
 * Everything the test observes (Redis, fake APIs) outlives the process.
 */
export interface ServeUnderTest {
  redis: Redis;
  /** The PORT serve listens on (its probes). */
  port: number;
  kube: FakeKubeApi;
  slack: FakeSlackApi;
  /** Start `serve` (with `--no-workers` when `workers` is false: no remediate worker in it). */
  start(opts?: { workers?: boolean }): Promise<void>;
  /** SIGKILL the running process and wait for it to be gone. */
  kill9(): Promise<void>;
  output(): string;
  propose(p: RemediationProposal, user?: string): Promise<string>;
  vote(id: string, user: string): Promise<string>;
  get(id: string): Promise<ApprovalRequest | undefined>;
  /** The stored request as raw JSON (byte comparison across a kill). */
  raw(id: string): Promise<string | null>;
  until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T>;
  realWrites(name: string): number;
  close(): Promise<void>;
}

export async function startServeUnderTest(
  objects: KubeObject[],
  opts: { redis?: { env: Record<string, string>; client: Redis }; alerts?: boolean } = {},
): Promise<ServeUnderTest> {
  // A private redis-server, or the topology the test started (its environment, a client of it).
  const redisServer: RedisServer | undefined = opts.redis ? undefined : await startRedis({ appendonly: true });
  const redis = opts.redis?.client ?? new Redis(redisServer!.url);
  const redisEnv = opts.redis?.env ?? { REDIS_URL: redisServer!.url };
  const slack = await startFakeSlackApi({ validToken: TOKEN });
  slack.addMember(['U0ANN', 'U0BEN', 'U0PAT']); // users.info confirms the approvers at vote time
  const kube = await startFakeKubeApi({ objects });
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-health-rel-kill-'));
  const kubeconfig = await writeTestKubeConfig(kube.url);
  const configFile = path.join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    [
      'clusters:',
      '  - name: prod-east',
      `    workload: { kubeconfig: ${JSON.stringify(kubeconfig)} }`,
      `    slack: { channels: [${CHANNEL}]${opts.alerts ? `, alertChannel: ${CHANNEL}` : ''} }`,
      '    approvers: { users: [U0ANN, U0BEN] }',
      '    remediation: { enabled: true }',
      'scan: { intervalSeconds: 3600 }',
      'approvals: { required: 2, ttlMinutes: 30 }',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const proposals = createProposalStore(redis, { keyPrefix: 'k8s-health:' });
  let child: ChildProcess | undefined;
  let exit: Promise<unknown> = Promise.resolve();
  let out = '';
  let seq = 0;

  const post = async (body: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
      body,
    });
    await res.text();
    if (res.status !== 200) throw new Error(`serve answered ${res.status}`);
  };
  const until = async <T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await fn().catch(() => undefined);
      if (v) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nserve output:\n${out.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const get = async (id: string) => {
    const raw = await redis.get(`{k8s-health:approvals}:approval:${id}`);
    return raw ? (JSON.parse(raw) as ApprovalRequest) : undefined;
  };

  const s: ServeUnderTest = {
    redis,
    kube,
    slack,
    port,
    async start({ workers = true } = {}) {
      out += `--- start (workers: ${workers}) ---\n`;
      child = spawn(
        process.execPath,
        ['bin/k8s-health.js', 'serve', '--config', configFile, ...(workers ? [] : ['--no-workers'])],
        {
          env: {
            PATH: process.env.PATH ?? '',
            SLACK_BOT_TOKEN: TOKEN,
            SLACK_SIGNING_SECRET: SECRET,
            SLACK_API_URL: slack.apiUrl,
            ...redisEnv,
            PORT: String(port),
            LOG_LEVEL: 'error',
            K8S_HEALTH_PLAN_SECRET: TEST_PLAN_SECRET,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const c = child;
      exit = new Promise((resolve) => c.on('exit', resolve));
      await until(
        'serve listening',
        async () => out.includes('k8s-health serve listening') && (await waitForPort(port, 1000).then(() => true)),
      );
    },
    async kill9() {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exit;
      }
      out += '--- killed -9 ---\n';
    },
    output: () => out,
    async propose(p, user = 'U0PAT') {
      const pid = await proposals.save({
        cluster: 'prod-east',
        findingId: 'reliability',
        fingerprint: 'fp',
        proposal: p,
        createdAt: new Date().toISOString(),
      });
      const before = new Set(await scanKeys(redis, '{k8s-health:approvals}:approval:*'));
      await post(
        blockActionBody({
          actionId: proposeFixActionId(0),
          value: pid,
          user_id: user,
          channel_id: CHANNEL,
          response_url: slack.responseUrl(`propose-${++seq}`),
          message_ts: `1700000000.${String(seq).padStart(6, '0')}`,
        }),
      );
      const key = await until('the approval request stored', async () =>
        (await scanKeys(redis, '{k8s-health:approvals}:approval:*')).find((k) => !before.has(k)),
      );
      return key.slice('{k8s-health:approvals}:approval:'.length);
    },
    async vote(id, user) {
      const url = slack.responseUrl(`vote-${++seq}`);
      await post(
        blockActionBody({
          actionId: APPROVE_ACTION_ID,
          value: id,
          blockId: `approval:${id}`,
          user_id: user,
          channel_id: CHANNEL,
          response_url: url,
        }),
      );
      const r = await until('the vote reply', async () =>
        slack.responses.find((x) => x.path === new URL(url).pathname),
      );
      return String(r.body.text);
    },
    get,
    raw: (id) => redis.get(`{k8s-health:approvals}:approval:${id}`),
    until,
    realWrites: (name) => kube.writes.filter((w) => !w.dryRun && w.name === name).length,
    async close() {
      await s.kill9();
      redis.disconnect();
      await kube.close();
      await slack.close();
      await redisServer?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return s;
}
