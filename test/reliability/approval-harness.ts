import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { WebClient } from '@slack/web-api';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { parseConfig } from '../../src/config/load-config.js';
import type { RemediationProposal } from '../../src/diagnose/finding.js';
import { enqueueRemediation } from '../../src/jobs/enqueue-remediation.js';
import { createProposalRequester } from '../../src/jobs/create-proposal-requester.js';
import { startProposeWorker } from '../../src/jobs/workers/propose.js';
import { PROPOSE_QUEUE, REMEDIATE_QUEUE, queuePrefix } from '../../src/jobs/queue-names.js';
import { startRemediateWorker } from '../../src/jobs/workers/remediate.js';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { createActionContext } from '../../src/approvals/execute/create-action-context.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createMetrics } from '../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../src/slack/receive/create-slack-app.js';
import { createApproverAccountCheck } from '../../src/slack/handle/check-approver-account.js';
import { createApprovalAuthorizer } from '../../src/slack/handle/handle-approval-authorizer.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { registerListeners } from '../../src/slack/register-listeners.js';
import { APPROVE_ACTION_ID, REJECT_ACTION_ID } from '../../src/slack/render/render-approval.js';
import { createApprovalBackups } from '../../src/store/approval-backups.js';
import { createApprovalStore } from '../../src/store/approval-store.js';
import { createAuditLog, type AuditEvent } from '../../src/store/audit-log.js';
import { createReportStore } from '../../src/store/report-store.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { testSigner } from '../support/plan-secret.js';
import { blockActionBody, signSlackRequest } from '../support/sign-slack-request.js';
import type { RedisServer } from '../support/start-redis.js';
import { captureLogs } from '../support/capture-logs.js';

const SECRET = 'rel-approval-signing-secret';
const TOKEN = 'xoxb-rel-approval-token';
const PREFIX = 'k8s-health:';

/** Two remediable clusters with disjoint approvers and channels (cross-cluster abuse needs both). */
export const EAST = { name: 'prod-east', channel: 'C0EAST', users: ['U0ANN', 'U0BEN'], group: 'S0SRE' } as const;
export const WEST = { name: 'prod-west', channel: 'C0WEST', users: ['U0WES'], group: 'S0WEST' } as const;
/** Members of EAST's approver group (resolved through usergroups.users.list). */
export const EAST_GROUP = Array.from({ length: 50 }, (_, i) => `U0G${String(i).padStart(2, '0')}`);
/** A Slack group that exists but approves nothing, and WEST's group. */
export const OTHER_GROUP = { id: 'S0OTHER', members: ['U0OTH1', 'U0OTH2', 'U0OTH3'] };
export const WEST_GROUP = ['U0WG1', 'U0WG2'];

/** A Deployment the fake API serves; deployment.scale proposals target these. */
export const deployment = (name: string, replicas = 3): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'apps', uid: `uid-${name}` },
    spec: { replicas },
  }) as KubeObject;

export const scaleProposal = (name: string, replicas = 0): RemediationProposal => ({
  action: 'deployment.scale',
  params: { namespace: 'apps', name, replicas },
  label: `Scale apps/${name} to ${replicas}`,
  risk: 'r',
});

/**
 * The real approval flow in-process: Bolt HTTP receiver (signed requests), approval store on a private Redis, remediate
 * worker, fake Kubernetes and Slack APIs.
 */
export interface ApprovalHarness {
  redis: Redis;
  slack: FakeSlackApi;
  kube: FakeKubeApi;
  queue: Queue;
  logs: string[];
  /** The clock every part reads (votes compare it with expiresAt). */
  clock: { now: Date };
  get(id: string): Promise<ApprovalRequest | undefined>;
  audit(requestId: string): Promise<AuditEvent[]>;
  /** Click a proposed-fix button; resolves with the request id of the posted approval request. */
  propose(p: RemediationProposal, opts?: { user?: string; cluster?: typeof EAST | typeof WEST }): Promise<string>;
  /** Click Approve/Reject; resolves with the ephemeral reply. `blockId`/`channel` default to the request's own. */
  click(
    value: string,
    user: string,
    opts?: { kind?: 'approve' | 'reject'; blockId?: string; channel?: string },
  ): Promise<string>;
  waitStatus(id: string, statuses: string[], timeoutMs?: number): Promise<ApprovalRequest>;
  /** Real (not dry-run) writes to a named object at the fake API. */
  realWrites(name: string): number;
  close(): Promise<void>;
}

export async function startApprovalHarness(redisServer: RedisServer, objects: KubeObject[]): Promise<ApprovalHarness> {
  const redis = new Redis(redisServer.url);
  redis.on('error', () => undefined);
  const bull = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  bull.on('error', () => undefined);
  const slack = await startFakeSlackApi({ validToken: TOKEN });
  slack.usergroups.set(EAST.group, EAST_GROUP);
  slack.usergroups.set(WEST.group, WEST_GROUP);
  slack.usergroups.set(OTHER_GROUP.id, OTHER_GROUP.members);
  // Every account the config authorizes is an active member (users.info at vote time).
  slack.addMember([...EAST.users, ...EAST_GROUP, ...WEST.users, ...WEST_GROUP, ...OTHER_GROUP.members, 'U0PAT']);
  const kube = await startFakeKubeApi({ objects });
  const kubeconfig = await writeTestKubeConfig(kube.url);
  const config = parseConfig(
    {
      clusters: [EAST, WEST].map((c) => ({
        name: c.name,
        workload: { kubeconfig },
        slack: { channels: [c.channel] },
        approvers: { users: [...c.users], groups: [c.group] },
        remediation: { enabled: true },
      })),
      approvals: { required: 2, ttlMinutes: 30 },
    },
    '/tmp',
  );
  const clock = { now: new Date('2025-03-01T10:00:00Z') };
  const { log, lines: logs } = captureLogs();
  const approvals = createApprovalStore(redis, { keyPrefix: PREFIX });
  const signer = testSigner();
  const audit = createAuditLog(redis, { keyPrefix: PREFIX, log, signer });
  const backups = createApprovalBackups(redis, { keyPrefix: PREFIX });
  const proposals = createProposalStore(redis, { keyPrefix: PREFIX });
  const queue = new Queue(REMEDIATE_QUEUE, { connection: bull, prefix: queuePrefix('k8s-health', REMEDIATE_QUEUE) });
  queue.on('error', () => undefined);
  const proposeQueue = new Queue(PROPOSE_QUEUE, { connection: bull, prefix: queuePrefix('k8s-health', PROPOSE_QUEUE) });
  proposeQueue.on('error', () => undefined);
  const eventsConnection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  eventsConnection.on('error', () => undefined);
  const proposeEvents = new QueueEvents(PROPOSE_QUEUE, {
    connection: eventsConnection,
    prefix: queuePrefix('k8s-health', PROPOSE_QUEUE),
  });
  proposeEvents.on('error', () => undefined);
  const workerDeps = {
    connection: bull,
    config,
    approvals,
    audit,
    backups,
    proposals,
    createContext: createActionContext,
    signer,
    slack: new WebClient(TOKEN, { slackApiUrl: slack.apiUrl }),
    now: () => clock.now,
    log,
    verifyDelayMs: 50,
  };
  // The remediate worker kind: approved fixes and fix-button clicks (plan + dry run).
  const worker = startRemediateWorker(workerDeps);
  const proposer = startProposeWorker(workerDeps);
  const { app } = await createSlackApp({
    botToken: TOKEN,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    logLevel: 'error',
  });
  const reports = createReportStore(redis, { keyPrefix: PREFIX });
  const deps = {
    config,
    reports,
    proposals,
    requestScan: createScanRequester(async () => {
      throw new Error('no scans in this test');
    }, reports),
    metrics: createMetrics({ defaultMetrics: false }),
    now: () => clock.now,
    log,
    approval: {
      approvals,
      audit,
      signer,
      requestProposal: createProposalRequester(proposeQueue, proposeEvents),
      enqueue: (id: string) => enqueueRemediation(queue, id),
      isAuthorized: createApprovalAuthorizer({ ttlMs: 60_000 }),
      checkApprover: createApproverAccountCheck(config.slack),
    },
  };
  registerListeners(app, deps);
  const server = (await app.start(0)) as Server;
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let seq = 0;
  const post = async (body: string) => {
    const res = await fetch(`${baseUrl}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) },
      body,
    });
    await res.text();
    if (res.status !== 200) throw new Error(`Bolt answered ${res.status}`);
  };
  const h: ApprovalHarness = {
    redis,
    slack,
    kube,
    queue,
    logs,
    clock,
    get: (id) => approvals.get(id),
    async audit(requestId) {
      return (await audit.list({ limit: 100_000 })).filter((e) => e.requestId === requestId).reverse();
    },
    async propose(p, opts = {}) {
      const cluster = opts.cluster ?? EAST;
      const pid = await proposals.save({
        cluster: cluster.name,
        findingId: 'reliability',
        fingerprint: 'fp',
        proposal: p,
        createdAt: clock.now.toISOString(),
      });
      const before = slack.callsTo('chat.postMessage').length;
      const url = slack.responseUrl(`propose-${++seq}`);
      await post(
        blockActionBody({
          actionId: proposeFixActionId(0),
          value: pid,
          user_id: opts.user ?? 'U0PAT',
          channel_id: cluster.channel,
          response_url: url,
          message_ts: `1700000000.${String(seq).padStart(6, '0')}`,
        }),
      );
      const ephemeralBefore = slack.callsTo('chat.postEphemeral').length;
      // A refusal comes from serve (its response_url; "Preparing the plan…" is not one) or from the worker
      // (chat.postEphemeral).
      const refusal = () =>
        slack.responses.find(
          (r) => r.path === new URL(url).pathname && !String(r.body.text).includes('Preparing the plan'),
        )?.body ??
        slack
          .callsTo('chat.postEphemeral')
          .slice(ephemeralBefore)
          .find((c) => c.body.user === (opts.user ?? 'U0PAT') && !/is posted below/.test(String(c.body.text)))?.body;
      const posted = await slack.waitFor(
        'approval request posted',
        () =>
          slack
            .callsTo('chat.postMessage')
            .slice(before)
            .find((c) => JSON.stringify(c.body.blocks ?? '').includes('approval:r_')) ??
          (refusal() && { refused: true }),
        30_000,
      );
      if ('refused' in posted) throw new Error(`proposal refused: ${JSON.stringify(refusal())}`);
      const id = String(JSON.stringify(posted.body.blocks).match(/approval:(r_[A-Za-z0-9_-]+)/)![1]);
      // The request is stored right after its message is posted.
      for (let i = 0; i < 500 && !(await approvals.get(id)); i++) await new Promise((r) => setTimeout(r, 10));
      return id;
    },
    async click(value, user, opts = {}) {
      const url = slack.responseUrl(`click-${++seq}`);
      const req = /^r_/.test(value) ? await approvals.get(value).catch(() => undefined) : undefined;
      await post(
        blockActionBody({
          actionId: (opts.kind ?? 'approve') === 'approve' ? APPROVE_ACTION_ID : REJECT_ACTION_ID,
          value,
          blockId: opts.blockId ?? `approval:${value}`,
          user_id: user,
          channel_id: opts.channel ?? req?.thread.channel ?? EAST.channel,
          response_url: url,
        }),
      );
      const r = await slack.waitFor(
        'click reply',
        () => slack.responses.find((x) => x.path === new URL(url).pathname),
        30_000,
      );
      return String(r.body.text);
    },
    async waitStatus(id, statuses, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await approvals.get(id).catch(() => undefined);
        if (r && statuses.includes(r.status)) return r;
        if (Date.now() > deadline)
          throw new Error(`request ${id} never reached ${statuses.join('|')} (is ${r?.status})`);
        await new Promise((res) => setTimeout(res, 50));
      }
    },
    realWrites: (name) => kube.writes.filter((w) => !w.dryRun && w.name === name).length,
    async close() {
      await app.stop().catch(() => undefined);
      await worker.close().catch(() => undefined);
      await proposer.close().catch(() => undefined);
      await queue.close().catch(() => undefined);
      await proposeQueue.close().catch(() => undefined);
      await proposeEvents.close().catch(() => undefined);
      eventsConnection.disconnect();
      bull.disconnect();
      redis.disconnect();
      await kube.close();
      await slack.close();
    },
  };
  return h;
}
