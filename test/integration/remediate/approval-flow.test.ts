import type { Server } from 'node:http';
import { cardLines } from '../../support/card-lines.js';
import { SHOW_BACKUP_ACTION_ID } from '../../../src/slack/action-ids.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Queue, QueueEvents } from 'bullmq';
import { Etcd3 } from 'etcd3';
import { Redis } from 'ioredis';
import { WebClient } from '@slack/web-api';
import type { App } from '@slack/bolt';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { RemediationProposal } from '../../../src/diagnose/finding.js';
import { enqueueRemediation } from '../../../src/jobs/enqueue-remediation.js';
import { createProposalRequester } from '../../../src/jobs/create-proposal-requester.js';
import { startProposeWorker } from '../../../src/jobs/workers/propose.js';
import { BULLMQ_PREFIX, PROPOSE_QUEUE, REMEDIATE_QUEUE, queuePrefix } from '../../../src/jobs/queue-names.js';
import { startRemediateWorker } from '../../../src/jobs/workers/remediate.js';
import { createActionContext } from '../../../src/approvals/execute/create-action-context.js';
import { proposeFixActionId } from '../../../src/slack/action-ids.js';
import { createMetrics } from '../../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../../src/slack/receive/create-slack-app.js';
import { createApproverAccountCheck } from '../../../src/slack/handle/check-approver-account.js';
import { createApprovalAuthorizer } from '../../../src/slack/handle/handle-approval-authorizer.js';
import { createProposalStore } from '../../../src/store/proposal-store.js';
import { registerListeners } from '../../../src/slack/register-listeners.js';
import { APPROVE_ACTION_ID, REJECT_ACTION_ID } from '../../../src/slack/render/render-approval.js';
import { createApprovalBackups } from '../../../src/store/approval-backups.js';
import { createApprovalStore } from '../../../src/store/approval-store.js';
import { createAuditLog } from '../../../src/store/audit-log.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { testSigner } from '../../support/plan-secret.js';
import { blockActionBody, signSlackRequest } from '../../support/sign-slack-request.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { captureLogs } from '../../support/capture-logs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';
const PREFIX = 'k8s-health:';
const CHANNEL = 'C0INCIDENT';
const GROUP_MEMBERS = Array.from({ length: 50 }, (_, i) => `U0G${String(i).padStart(2, '0')}`);

const webhook: KubeObject = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'kyverno-resource-validating-webhook-cfg', uid: 'uid-kyverno' },
  webhooks: [
    {
      name: 'validate.kyverno.svc',
      failurePolicy: 'Fail',
      clientConfig: { service: { namespace: 'kyverno', name: 'kyverno-svc' } },
    },
  ],
} as KubeObject;
const deployment = (replicas: number): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'kyverno-admission-controller', namespace: 'kyverno', uid: 'uid-dep' },
    spec: { replicas },
  }) as KubeObject;

let redisServer: RedisServer;
let redis: Redis;
let bullConnection: Redis;
let slack: FakeSlackApi;
let kube: FakeKubeApi;
let etcd: EtcdTestCluster;
let app: App | undefined;
let baseUrl: string;
let queue: Queue;
let proposeQueue: Queue;
let eventsConnection: Redis;
let proposeEvents: QueueEvents;
let worker: ReturnType<typeof startRemediateWorker>;
let proposer: ReturnType<typeof startProposeWorker>;
let clock = new Date('2025-03-01T10:00:00Z');
let config: ReturnType<typeof parseConfig>;
const { log, lines: logs } = captureLogs();

const approvals = () => createApprovalStore(redis, { keyPrefix: PREFIX });
const signer = testSigner();
const audit = () => createAuditLog(redis, { keyPrefix: PREFIX, log, signer });
const backups = () => createApprovalBackups(redis, { keyPrefix: PREFIX });
const proposals = () => createProposalStore(redis, { keyPrefix: PREFIX });

/** Start (or restart) the bot's Slack side on the same Redis: nothing lives in the process. */
async function startBot(): Promise<void> {
  const started = await createSlackApp({
    botToken: TOKEN,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    logLevel: 'error',
  });
  app = started.app;
  const reports = createReportStore(redis, { keyPrefix: PREFIX });
  const deps = {
    config,
    reports,
    proposals: proposals(),
    requestScan: createScanRequester(async () => {
      throw new Error('no scans in this test');
    }, reports),
    metrics: createMetrics({ defaultMetrics: false }),
    now: () => clock,
    log,
    approval: {
      approvals: approvals(),
      audit: audit(),
      backups: backups(),
      signer,
      requestProposal: createProposalRequester(proposeQueue, proposeEvents),
      enqueue: (id: string) => enqueueRemediation(queue, id),
      isAuthorized: createApprovalAuthorizer({ ttlMs: 60_000 }),
      checkApprover: createApproverAccountCheck(config.slack),
    },
  };
  registerListeners(app, deps);
  const server = (await app.start(0)) as Server;
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  redisServer = await startRedis();
  redis = new Redis(redisServer.url);
  bullConnection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  slack = await startFakeSlackApi({ validToken: TOKEN });
  slack.usergroups.set('S0SRE', GROUP_MEMBERS);
  slack.addMember(['U0ANN', 'U0BEN', 'U0PAT', ...GROUP_MEMBERS]);
  kube = await startFakeKubeApi({ objects: [webhook, deployment(3)] });
  etcd = await startEtcdCluster();
  const kubeconfig = await writeTestKubeConfig(kube.url);
  config = parseConfig(
    {
      clusters: [
        {
          name: 'prod-east',
          workload: { kubeconfig },
          etcd: { endpoints: etcd.endpoints },
          slack: { channels: [CHANNEL] },
          approvers: { users: ['U0ANN', 'U0BEN', 'U0PAT'], groups: ['S0SRE'] },
          remediation: { enabled: true },
        },
        { name: 'demo', dump: './examples/x', slack: { channels: [CHANNEL] } },
        { name: 'lab', workload: { kubeconfig }, slack: { channels: [CHANNEL] } },
      ],
      approvals: { required: 2, ttlMinutes: 30 },
    },
    '/tmp',
  );
  queue = new Queue(REMEDIATE_QUEUE, {
    connection: bullConnection,
    prefix: queuePrefix(BULLMQ_PREFIX, REMEDIATE_QUEUE),
  });
  proposeQueue = new Queue(PROPOSE_QUEUE, {
    connection: bullConnection,
    prefix: queuePrefix(BULLMQ_PREFIX, PROPOSE_QUEUE),
  });
  eventsConnection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  proposeEvents = new QueueEvents(PROPOSE_QUEUE, {
    connection: eventsConnection,
    prefix: queuePrefix(BULLMQ_PREFIX, PROPOSE_QUEUE),
  });
  // The remediate worker kind: approved fixes and fix-button clicks (plan + dry run).
  const workerDeps = {
    connection: bullConnection,
    config,
    approvals: approvals(),
    audit: audit(),
    backups: backups(),
    proposals: proposals(),
    createContext: createActionContext,
    signer,
    slack: new WebClient(TOKEN, { slackApiUrl: slack.apiUrl }),
    now: () => clock,
    log,
    verifyDelayMs: 200,
  };
  worker = startRemediateWorker(workerDeps);
  proposer = startProposeWorker(workerDeps);
  await startBot();
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await worker?.close();
  await proposer?.close();
  await queue?.close();
  await proposeQueue?.close();
  await proposeEvents?.close();
  eventsConnection?.disconnect();
  bullConnection?.disconnect();
  redis?.disconnect();
  await kube?.close();
  await slack?.close();
  await etcd?.stopAll();
  await redisServer?.stop();
});

beforeEach(() => {
  clock = new Date('2025-03-01T10:00:00Z');
});

async function post(body: string): Promise<number> {
  const res = await fetch(`${baseUrl}/slack/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
    body,
  });
  await res.text();
  return res.status;
}

let seq = 0;
/** Click a proposed-fix button for `proposal` as `user`; resolves with the posted approval request message. */
async function propose(
  proposal: RemediationProposal,
  user = 'U0PAT',
  cluster = 'prod-east',
  createdAt = clock,
): Promise<{ requestId?: string; ephemeral?: Any; message?: Any }> {
  const pid = await proposals().save({
    cluster,
    findingId: 'webhook.unavailable-blocking',
    fingerprint: 'fp',
    proposal,
    createdAt: createdAt.toISOString(),
  });
  const before = slack.callsTo('chat.postMessage').length;
  const ephemeralBefore = slack.callsTo('chat.postEphemeral').length;
  const url = slack.responseUrl(`propose-${++seq}`);
  expect(
    await post(
      blockActionBody({
        actionId: proposeFixActionId(0),
        value: pid,
        user_id: user,
        response_url: url,
        message_ts: '1700000000.000100',
      }),
    ),
  ).toBe(200);
  // Refused by serve (its response_url; "Preparing the plan…" is not an answer) or by the worker (chat.postEphemeral).
  const done = await slack.waitFor(
    'proposal posted or refused',
    () =>
      slack.callsTo('chat.postMessage').length > before ||
      slack.responses.find(
        (r) => r.path === new URL(url).pathname && !String(r.body.text).includes('Preparing the plan'),
      ) ||
      slack
        .callsTo('chat.postEphemeral')
        .slice(ephemeralBefore)
        .find((c) => c.body.user === user && !/is posted below/.test(String(c.body.text))),
    30000,
  );
  if (done === true) {
    const message = slack.callsTo('chat.postMessage')[before]!;
    const actions = (message.body.blocks as Any[]).find((b) => b.type === 'actions');
    const requestId = actions?.elements[0].value as string | undefined;
    // The request is stored right after its message is posted (approvals/request/propose-fix.ts): wait for it.
    for (let i = 0; requestId && i < 500 && !(await approvals().get(requestId)); i++)
      await new Promise((r) => setTimeout(r, 10));
    return { requestId, message };
  }
  return { ephemeral: (done as { body: Any }).body };
}

/** Click Approve/Reject as `user`; resolves with the ephemeral reply text. */
async function vote(
  requestId: string,
  user: string,
  kind: 'approve' | 'reject' = 'approve',
  blockId = `approval:${requestId}`,
): Promise<string> {
  const url = slack.responseUrl(`vote-${++seq}`);
  expect(
    await post(
      blockActionBody({
        actionId: kind === 'approve' ? APPROVE_ACTION_ID : REJECT_ACTION_ID,
        value: requestId,
        blockId,
        user_id: user,
        response_url: url,
      }),
    ),
  ).toBe(200);
  const r = await slack.waitFor(
    'vote reply',
    () => slack.responses.find((x) => x.path === new URL(url).pathname),
    30000,
  );
  return String(r.body.text);
}

async function waitStatus(requestId: string, statuses: string[]): Promise<Any> {
  const deadline = Date.now() + 45000;
  for (;;) {
    const r = await approvals().get(requestId);
    if (r && statuses.includes(r.status)) return r as Any;
    if (Date.now() > deadline)
      throw new Error(`request ${requestId} never reached ${statuses.join('|')} (is ${r?.status})`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

const suspend: RemediationProposal = {
  action: 'webhook.suspend',
  params: { kind: 'Validating', name: 'kyverno-resource-validating-webhook-cfg' },
  label: 'Suspend webhook kyverno-resource-validating-webhook-cfg',
  risk: 'r',
};
const scaleToZero: RemediationProposal = {
  action: 'deployment.scale',
  params: { namespace: 'kyverno', name: 'kyverno-admission-controller', replicas: 0 },
  label: 'Scale kyverno/kyverno-admission-controller to 0',
  risk: 'r',
};

describe('two-person approval over signed Bolt interactions', () => {
  it('refuses to propose on a dump-backed or disabled cluster, showing what it would do', async () => {
    const dump = await propose(suspend, 'U0PAT', 'demo');
    expect(dump.ephemeral!.text).toContain('dump-backed');
    expect(JSON.stringify(dump.ephemeral!.blocks)).toContain(
      'DELETE /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-resource-validating-webhook-cfg',
    );
    const off = await propose(suspend, 'U0PAT', 'lab');
    expect(off.ephemeral!.text).toContain('remediation is not enabled');
    expect(kube.writes).toHaveLength(0);
  });

  it('posts the frozen plan with its dry run, then enforces the policy; two approvals execute once, backup and undo in the thread', async () => {
    const { requestId, message } = await propose(suspend);
    expect(requestId).toMatch(/^r_/);
    expect(message!.body.thread_ts).toBe('1700000000.000100');
    const text = JSON.stringify(message!.body.blocks);
    expect(text).toContain(
      'DELETE /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/kyverno-resource-validating-webhook-cfg',
    );
    expect(text).toContain('dryRun=All) accepted');
    expect(text).toContain('0 of 2 approvals');
    expect(text).toContain('<@U0PAT>');
    // State first (header and buttons), who may approve from the cluster's config, the blast radius.
    const blocks = message!.body.blocks as Any[];
    expect(blocks[0].text.text).toBe(':large_yellow_circle: Waiting for 2 more of 2 approvals');
    expect(blocks[1].elements.map((e: Any) => `${e.text.text}/${e.style}/${e.confirm ? 'confirm' : '-'}`)).toEqual([
      'Approve/primary/confirm',
      'Reject/danger/confirm',
    ]);
    expect(text).toContain('*Who may approve:* <@U0ANN>, <@U0BEN>, <!subteam^S0SRE> (not its proposer)');
    expect(text).toContain(
      '*Blast radius:* 1 object cluster-scoped: validatingwebhookconfigurations kyverno-resource-validating-webhook-cfg',
    );
    expect(kube.writes.map((w) => `${w.method} dry=${w.dryRun}`)).toEqual(['DELETE dry=true']);

    expect(await vote(requestId!, 'U0PAT')).toContain(
      'your approval does not count. It needs 2 more approvals from other authorized people.',
    );
    expect(await vote(requestId!, 'U0EVE')).toContain('not an authorized approver');
    expect(await vote(requestId!, 'U0EVE', 'reject')).toContain('not an authorized approver');
    expect(await vote(requestId!, 'U0ANN', 'approve', 'approval:r_forged')).toContain('unknown');
    expect(await vote(requestId!, 'U0ANN')).toContain('1 of 2');
    expect(await vote(requestId!, 'U0ANN')).toContain('already approved');
    const ts =
      message!.body.ts ??
      [...slack.messages.entries()].find(([, m]) => JSON.stringify(m.blocks).includes(requestId!))![0].split('/')[1];
    const updated = slack.messages.get(`${CHANNEL}/${ts}`)!;
    expect(JSON.stringify(updated.blocks)).toContain('1 of 2 approvals: <@U0ANN>');
    expect(updated.blocks[0].text.text).toBe(':large_yellow_circle: Waiting for 1 more of 2 approvals');
    expect(kube.writes.filter((w) => !w.dryRun)).toHaveLength(0);

    // A member of the approver group (resolved through usergroups.users.list) is authorized.
    expect(await vote(requestId!, GROUP_MEMBERS[7]!)).toContain('last one needed');
    const done = await waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('succeeded');
    expect(kube.writes.map((w) => `${w.method} dry=${w.dryRun}`)).toEqual(['DELETE dry=true', 'DELETE dry=false']);
    expect(kube.find('ValidatingWebhookConfiguration', 'kyverno-resource-validating-webhook-cfg')).toBeUndefined();
    expect((await backups().load(requestId!))!.object.metadata.uid).toBe('uid-kyverno');
    const report = await slack.waitFor(
      'result in thread',
      () =>
        slack
          .callsTo('chat.postMessage')
          .find((c) => JSON.stringify(c.body.blocks ?? '').includes('done and verified')),
      30000,
    );
    expect(report.body.thread_ts).toBe('1700000000.000100');
    // A few lines on a phone: the backup is behind "Show backup", shown to the clicker alone.
    expect(cardLines(report.body.blocks as Any[]).length).toBeLessThanOrEqual(8);
    expect(JSON.stringify(report.body.blocks)).not.toContain('uid-kyverno');
    const show = (report.body.blocks as Any[])
      .flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .find((e: Any) => e.action_id === SHOW_BACKUP_ACTION_ID);
    expect(show.value).toBe(requestId);
    const showUrl = slack.responseUrl('show-backup');
    expect(
      await post(
        blockActionBody({
          actionId: SHOW_BACKUP_ACTION_ID,
          value: requestId!,
          blockId: `undo:${requestId}`,
          user_id: 'U0ANN',
          response_url: showUrl,
        }),
      ),
    ).toBe(200);
    const shown = await slack.waitFor('the backup, ephemeral', () =>
      slack.responses.find((r) => r.path === new URL(showUrl).pathname),
    );
    expect(shown.body.response_type).toBe('ephemeral');
    expect(JSON.stringify(shown.body.blocks)).toContain('uid-kyverno');
    // Not from another channel than the request's.
    const otherUrl = slack.responseUrl('show-backup-elsewhere');
    await post(
      blockActionBody({
        actionId: SHOW_BACKUP_ACTION_ID,
        value: requestId!,
        blockId: `undo:${requestId}`,
        user_id: 'U0ANN',
        channel_id: 'C0ELSEWHERE',
        response_url: otherUrl,
      }),
    );
    expect(
      String(
        (await slack.waitFor('refused', () => slack.responses.find((r) => r.path === new URL(otherUrl).pathname))).body
          .text,
      ),
    ).toContain('No backup of this request can be shown here');
    expect(JSON.stringify(report.body.blocks)).toContain('Restore webhook kyverno-resource-validating-webhook-cfg');
    // The request message ends Executed, green, without buttons.
    const final = await slack.waitFor(
      'the request message executed',
      () => {
        const m = slack.messages.get(`${CHANNEL}/${ts}`);
        return m?.blocks[0].text.text === ':large_green_circle: Executed' && m;
      },
      30000,
    );
    expect(final.blocks.some((b: Any) => b.type === 'actions')).toBe(false);
    expect(await vote(requestId!, 'U0BEN')).toContain('already succeeded');

    const trail = (await audit().list({ cluster: 'prod-east', limit: 100 }))
      .filter((e) => e.requestId === requestId)
      .map((e) => e.event)
      .reverse();
    expect(trail).toEqual([
      'proposed',
      'refused',
      'refused',
      'refused',
      'approved',
      'refused',
      'approved',
      'executing',
      'succeeded',
    ]);
    expect(logs.some((l) => l.includes('"audit":true') && l.includes('"event":"succeeded"'))).toBe(true);
  }, 90_000);

  it('any authorized Reject cancels; a request past its expiry ignores clicks', async () => {
    kube.emit('ADDED', webhook);
    const a = await propose(suspend);
    expect(await vote(a.requestId!, 'U0BEN', 'reject')).toContain('rejected');
    expect(await vote(a.requestId!, 'U0ANN')).toContain('already rejected');
    const rejected = slack.messages.get(
      `${CHANNEL}/${a.message!.body.ts ?? [...slack.messages.entries()].find(([, m]) => JSON.stringify(m.blocks).includes(a.requestId!))![0].split('/')[1]}`,
    )!;
    expect(rejected.blocks[0].text.text).toBe(':red_circle: Rejected');
    expect(rejected.blocks.some((b: Any) => b.type === 'actions')).toBe(false);

    const b = await propose(suspend);
    await vote(b.requestId!, 'U0ANN');
    clock = new Date(clock.getTime() + 31 * 60_000);
    expect(await vote(b.requestId!, 'U0BEN')).toContain('expired');
    expect(await vote(b.requestId!, 'U0BEN')).toContain('already expired');
    expect((await approvals().get(b.requestId!))!.status).toBe('expired');
    // only the earlier test's delete
    expect(kube.writes.filter((w) => !w.dryRun && w.name === webhook.metadata.name)).toHaveLength(1);
  }, 60_000);

  it('fifty concurrent approve clicks execute the plan exactly once', async () => {
    const { requestId } = await propose(scaleToZero);
    const replies = await Promise.all(GROUP_MEMBERS.map((u) => vote(requestId!, u)));
    expect(replies.filter((r) => r.includes('last one needed'))).toHaveLength(1);
    const done = await waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('succeeded');
    expect(done.approvals).toHaveLength(2);
    // A duplicate enqueue (another process) is a no-op: the job id is the request id.
    await enqueueRemediation(queue, requestId!);
    const realPatches = kube.writes.filter(
      (w) => w.method === 'PATCH' && !w.dryRun && w.name === 'kyverno-admission-controller',
    );
    expect(realPatches).toHaveLength(1);
    expect(kube.writes.findIndex((w) => w.method === 'PATCH' && w.dryRun)).toBeLessThan(
      kube.writes.indexOf(realPatches[0]!),
    );
    expect(kube.find('Deployment', 'kyverno-admission-controller', 'kyverno')!.spec.replicas).toBe(0);
    const events = (await audit().list({ limit: 500 })).filter((e) => e.requestId === requestId);
    expect(events.filter((e) => e.event === 'executing')).toHaveLength(1);
  }, 90_000);

  it('aborts with a clear message when a precondition changed after the proposal', async () => {
    kube.emit('MODIFIED', deployment(2));
    const { requestId } = await propose(scaleToZero);
    kube.emit('MODIFIED', deployment(5));
    await vote(requestId!, 'U0ANN');
    await vote(requestId!, 'U0BEN');
    const done = await waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('aborted');
    expect(done.result).toContain('now has 5 replicas, not the 2 recorded');
    expect(kube.find('Deployment', 'kyverno-admission-controller', 'kyverno')!.spec.replicas).toBe(5);
  }, 60_000);

  it('a restart of the bot between the two approvals loses nothing; the etcd leader really moves', async () => {
    const probe = new Etcd3({ hosts: etcd.endpoints[0]! });
    const status = await probe.maintenance.status();
    const members = (await probe.cluster.memberList({ linearizable: true })).members;
    probe.close();
    const target = members.find((m) => m.ID !== status.leader)!;
    const { requestId, message } = await propose({
      action: 'etcd.move-leader',
      params: { targetMemberId: target.ID },
      label: `Move etcd leader to ${target.name}`,
      risk: 'r',
    });
    expect(JSON.stringify(message!.body.blocks)).toContain('read-only check ok');
    expect(await vote(requestId!, 'U0ANN')).toContain('1 of 2');

    await app!.stop();
    await startBot();

    expect(await vote(requestId!, 'U0BEN')).toContain('last one needed');
    const done = await waitStatus(requestId!, ['succeeded', 'failed', 'aborted']);
    expect(done.result).toContain('done and verified');
    const after = new Etcd3({ hosts: etcd.endpoints[0]! });
    expect((await after.maintenance.status()).leader).toBe(target.ID);
    after.close();
  }, 90_000);

  it('a request found executing on redelivery (worker crash) is reported interrupted, never re-run', async () => {
    const store = approvals();
    const { requestId } = await propose(scaleToZero);
    await store.update(requestId!, (r) => ({ request: { ...r, status: 'executing' as const }, extra: undefined }));
    const writesBefore = kube.writes.length;
    await queue.add('remediate', { requestId }, { jobId: `${requestId}-redelivered` });
    const done = await waitStatus(requestId!, ['interrupted']);
    expect(done.result).toContain('interrupted');
    expect(kube.writes.length).toBe(writesBefore);
  }, 60_000);
  it('one pending request per fix: a second click links to it, the proposer is told how many others must approve, a fix that ran is not proposed again', async () => {
    kube.emit('ADDED', webhook);
    const offered = new Date(clock.getTime() - 60_000);
    const first = await propose(suspend, 'U0PAT');
    expect(first.requestId).toMatch(/^r_/);
    const told = await slack.waitFor(
      'the proposer told',
      () =>
        slack
          .callsTo('chat.postEphemeral')
          .find((c) => c.body.user === 'U0PAT' && String(c.body.text).includes('posted below')),
      30000,
    );
    expect(told.body.text).toContain('It needs 2 approvals from other authorized people; yours does not count');
    // Someone else presses the same fix (another button, same cluster, action and parameters): pointed to the pending
    // request.
    const second = await propose(suspend, 'U0ANN');
    expect(second.requestId).toBeUndefined();
    expect(second.ephemeral!.text).toBe(
      'This fix is already proposed by <@U0PAT> and waiting for approvals in this thread: approve it there (one request per fix).',
    );
    expect((await propose(suspend, 'U0PAT')).ephemeral!.text).toBe(
      'You already proposed this fix: your request is waiting for approvals in this thread.',
    );
    expect(await vote(first.requestId!, 'U0ANN')).toContain('1 of 2');
    expect(await vote(first.requestId!, 'U0BEN')).toContain('last one needed');
    expect((await waitStatus(first.requestId!, ['succeeded', 'failed', 'aborted'])).status).toBe('succeeded');
    await slack.waitFor(
      'the result in the thread',
      () =>
        slack
          .callsTo('chat.postMessage')
          .find(
            (c) =>
              JSON.stringify(c.body.blocks ?? '').includes(first.requestId!) &&
              JSON.stringify(c.body.blocks ?? '').includes('done and verified'),
          ),
      30000,
    );
    // A button offered before the fix ran proposes nothing: it says when it ran.
    clock = new Date(clock.getTime() + 60_000);
    const late = await propose(suspend, 'U0BEN', 'prod-east', offered);
    expect(late.ephemeral!.text).toMatch(/^\*Suspend webhook .*\* already ran <!date\^/);
  }, 90_000);

  it('a fix in the overflow menu goes through the same two-person approval', async () => {
    const scaleToTwo: RemediationProposal = {
      ...scaleToZero,
      params: { ...scaleToZero.params, replicas: 2 },
      label: 'Scale kyverno/kyverno-admission-controller to 2',
    };
    const pid = await proposals().save({
      cluster: 'prod-east',
      findingId: 'webhook.unavailable-blocking',
      fingerprint: 'fp',
      proposal: scaleToTwo,
      createdAt: clock.toISOString(),
    });
    const before = slack.callsTo('chat.postMessage').length;
    const payload = {
      type: 'block_actions',
      team: { id: 'T0TEAM', domain: 'example' },
      user: { id: 'U0PAT', username: 'pat', name: 'pat', team_id: 'T0TEAM' },
      api_app_id: 'A0APP',
      token: 'legacy-verification-token',
      container: { type: 'message', message_ts: '1700000000.000100', channel_id: CHANNEL, is_ephemeral: false },
      trigger_id: '1.2.4',
      channel: { id: CHANNEL, name: 'incident' },
      message: { type: 'message', ts: '1700000000.000100', text: 'alert' },
      response_url: slack.responseUrl('overflow'),
      actions: [
        {
          type: 'overflow',
          action_id: proposeFixActionId(2),
          block_id: 'alert:fp',
          selected_option: { text: { type: 'plain_text', text: scaleToTwo.label }, value: pid },
          action_ts: '1700000001.000200',
        },
      ],
    };
    expect(await post(`payload=${encodeURIComponent(JSON.stringify(payload))}`)).toBe(200);
    const message = await slack.waitFor(
      'the request from the overflow menu',
      () =>
        slack
          .callsTo('chat.postMessage')
          .slice(before)
          .find((c) => JSON.stringify(c.body.blocks ?? '').includes('approval:r_')),
      30000,
    );
    const requestId = String(JSON.stringify(message.body.blocks).match(/approval:(r_[A-Za-z0-9_-]+)/)![1]);
    await waitStatus(requestId, ['pending']);
    expect(await vote(requestId, 'U0PAT')).toContain('does not count');
    expect(await vote(requestId, 'U0ANN')).toContain('1 of 2');
  }, 60_000);
});
