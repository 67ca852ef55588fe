import { afterAll, beforeAll } from '@jest/globals';
import { createInPlaceStore, type InPlaceStore } from '../../src/store/in-place-store.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { parseConfig } from '../../src/config/load-config.js';
import { eventually } from './eventually.js';
import type { RemediationProposal } from '../../src/diagnose/finding.js';
import { enqueueRemediation } from '../../src/jobs/enqueue-remediation.js';
import { createProposalRequester } from '../../src/jobs/create-proposal-requester.js';
import { startProposeWorker } from '../../src/jobs/workers/propose.js';
import {
  BULLMQ_PREFIX,
  PROPOSE_QUEUE,
  REDIS_PREFIX,
  REMEDIATE_QUEUE,
  queuePrefix,
} from '../../src/jobs/queue-names.js';
import { startRemediateWorker } from '../../src/jobs/workers/remediate.js';
import { startJobs } from '../../src/compose/compose-jobs.js';
import type { ApprovalRequest } from '../../src/approvals/approval-request.js';
import { createActionContext } from '../../src/approvals/execute/create-action-context.js';
import { createPlanSigner } from '../../src/approvals/plan-signer.js';
import { proposeFixActionId } from '../../src/slack/action-ids.js';
import { createMetrics } from '../../src/slack/receive/create-metrics.js';
import { createScanRequester } from '../../src/slack/handle/create-scan-requester.js';
import { createSlackApp } from '../../src/slack/receive/create-slack-app.js';
import { createApproverAccountCheck } from '../../src/slack/handle/check-approver-account.js';
import type { SlackRequestPolicy } from '../../src/slack/receive/check-slack-request.js';
import { createReplayGuard } from '../../src/slack/receive/create-replay-guard.js';
import { createApprovalAuthorizer } from '../../src/slack/handle/handle-approval-authorizer.js';
import { createProposalStore } from '../../src/store/proposal-store.js';
import { registerListeners } from '../../src/slack/register-listeners.js';
import { APPROVE_ACTION_ID, CONFIRM_VIEW_ID, REJECT_ACTION_ID } from '../../src/slack/render/render-approval.js';
import { createApprovalBackups } from '../../src/store/approval-backups.js';
import { createApprovalStore } from '../../src/store/approval-store.js';
import { createAuditLog } from '../../src/store/audit-log.js';
import { createReportStore } from '../../src/store/report-store.js';
import { startFakeKubeApi, type FakeKubeApi } from './fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from './fake-kube-api/create-test-kube-config.js';
import { startFakeSlackApi, type FakeSlackApi } from './fake-slack-api.js';
import { TEST_PLAN_SECRET } from './plan-secret.js';
import { blockActionBody, signSlackRequest } from './sign-slack-request.js';
import { startRedis, type RedisServer } from './start-redis.js';
import { captureLogs } from './capture-logs.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token';
/** The channel every proposal is clicked in; approvers U0ANN, U0BEN (the proposer is U0PAT). */
export const APPROVAL_CHANNEL = 'C0INCIDENT';
/** The one remediation-enabled cluster of the harness config. */
export const APPROVAL_CLUSTER = 'prod-east';

export interface ApprovalBotOptions {
  /** Objects the fake workload API server starts with. */
  objects?: KubeObject[];
  /** etcd client URLs of the cluster (a real etcd). */
  etcdEndpoints?: string[];
  confirmByTyping?: boolean;
  /** The configured cluster's name (default APPROVAL_CLUSTER). */
  cluster?: string;
  /** Use this Redis (left running by stop()) instead of a private one. */
  redisServer?: RedisServer;
  /**
   * Run approved fixes through `startWorkers` (what `k8s-health worker` and `serve` run) instead of
   * a bare remediate worker: proves a worker process alone executes them.
   */
  workerSet?: boolean;
  /** Top-level config `slack` (teamId / enterpriseId): enforced by the receiver and the approver check. */
  slackPolicy?: SlackRequestPolicy;
  /** Wire the Redis replay guard as `serve` does. */
  replayGuard?: boolean;
  /** approvers.users of the cluster (default U0ANN, U0BEN, U0PAT). */
  approvers?: string[];
  /**
   * Register the configured approvers as active members of the fake workspace, so users.info
   * confirms them at vote time (default true).
   */
  registerApprovers?: boolean;
  /**
   * K8S_HEALTH_PLAN_SECRET of the bot's Slack side and of its worker (default TEST_PLAN_SECRET for
   * both; `null`: unset). Separate values let a test run a worker whose secret differs.
   */
  planSecret?: string | null;
  workerPlanSecret?: string | null;
  /** Extra config (e.g. approvals.executionDeadlineMinutes) merged over the harness config's approvals. */
  approvals?: Record<string, unknown>;
  /** A second remediation-enabled cluster on the same API server, approvers and channel. */
  secondCluster?: string;
  /** How long a fix-button click waits for the remediation worker (default: production's 30 s). */
  proposeTimeoutMs?: number;
  /** Run no propose worker: clicks wait for a remediation worker that never comes. */
  withoutProposeWorker?: boolean;
  /** Seconds a fix stays claimed while its plan is made (default: production's 120). */
  planningClaimSeconds?: number;
}

/** The result of a proposed-fix click: the posted request (id, message), or the ephemeral refusal. */
export interface Proposed {
  requestId?: string;
  message?: Any;
  ephemeral?: Any;
}

/**
 * The whole approval flow on real parts, for integration tests: a private Redis, the fake Slack Web
 * API, the fake Kubernetes API server, Bolt's HTTP receiver with the real listeners (signed
 * requests), and the remediate worker on BullMQ. Keys use the production REDIS_PREFIX, so the CLI
 * (`k8s-health audit` with REDIS_URL) reads what the flow wrote. Stop it with `stop()`.
 */
export interface ApprovalBot {
  redisServer: RedisServer;
  redis: Redis;
  /** The harness config (the worker reads this very object: a test may change approvers in place). */
  config: ReturnType<typeof parseConfig>;
  /** Enqueue a remediate job as an attacker with Redis access would (any job id). */
  enqueue(requestId: string, jobId?: string): Promise<void>;
  /** The fix-proposal queue (`k8s-health-propose`) the clicks go to. */
  proposeQueue: Queue;
  /**
   * Stop taking remediate jobs (approved requests wait in the queue; clicks are still planned), and take them again.
   */
  pauseWorker(): Promise<void>;
  resumeWorker(): void;
  slack: FakeSlackApi;
  kube: FakeKubeApi;
  approvals: ReturnType<typeof createApprovalStore>;
  proposals: ReturnType<typeof createProposalStore>;
  /** Reversible changes still in place, as the remediate worker records them. */
  inPlace: InPlaceStore;
  backups: ReturnType<typeof createApprovalBackups>;
  audit: ReturnType<typeof createAuditLog>;
  /** Every log line (JSON) the bot's parts wrote, their records and messages. */
  logs: string[];
  logRecords: Record<string, unknown>[];
  logMessages: string[];
  /**
   * POST a raw body to the receiver, signed with the app's secret (at `ts`, default now) unless `headers` are given.
   */
  post(
    body: string,
    opts?: { ts?: number; headers?: Record<string, string> },
  ): Promise<{ status: number; body: string }>;
  /** Store a proposal and click its button as `user` (default the proposer U0PAT). */
  propose(proposal: RemediationProposal, user?: string): Promise<Proposed>;
  /** Click a proposed-fix button whose value is an already stored proposal id (e.g. an undo button). */
  clickProposal(proposalId: string, user?: string): Promise<Proposed>;
  /** Click Approve / Reject as `user`; resolves with the ephemeral reply text. */
  vote(requestId: string, user: string, kind?: 'approve' | 'reject'): Promise<string>;
  /** Submit the confirmation modal as `user` having typed `typed`; Bolt's HTTP answer. */
  submitConfirm(requestId: string, user: string, typed: string): Promise<{ status: number; body: string }>;
  /** Poll Redis until the request reaches one of `statuses`. */
  waitStatus(requestId: string, statuses: string[]): Promise<ApprovalRequest>;
  /** The worker's thread reply for a request (outcome, backup, undo button). */
  resultMessage(requestId: string): Promise<Any>;
  /** Approve as U0ANN then U0BEN and wait for the request's final status (succeeded, failed or aborted). */
  approveTwice(requestId: string): Promise<ApprovalRequest>;
  /** Propose, approve twice (U0ANN, U0BEN) and wait for the final status. */
  runApproved(proposal: RemediationProposal): Promise<{ requestId: string; message: Any; request: ApprovalRequest }>;
  stop(): Promise<void>;
}

let botSeq = 0;

/** Statuses the executor ends a run with (run-remediation.ts finish): stored first, audited right after. */
const FINAL = new Set(['succeeded', 'failed', 'aborted']);

export async function startApprovalBot(opts: ApprovalBotOptions = {}): Promise<ApprovalBot> {
  const redisServer = opts.redisServer ?? (await startRedis());
  const clusterName = opts.cluster ?? APPROVAL_CLUSTER;
  const redis = new Redis(redisServer.url);
  const bull = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  const slack = await startFakeSlackApi({ validToken: TOKEN });
  const kube = await startFakeKubeApi({ objects: opts.objects ?? [] });
  const kubeconfig = await writeTestKubeConfig(kube.url);
  const config = parseConfig(
    {
      clusters: [
        {
          name: clusterName,
          workload: { kubeconfig },
          ...(opts.etcdEndpoints ? { etcd: { endpoints: opts.etcdEndpoints } } : {}),
          slack: { channels: [APPROVAL_CHANNEL] },
          approvers: { users: opts.approvers ?? ['U0ANN', 'U0BEN', 'U0PAT'] },
          remediation: { enabled: true },
        },
        ...(opts.secondCluster
          ? [
              {
                name: opts.secondCluster,
                workload: { kubeconfig },
                slack: { channels: [APPROVAL_CHANNEL] },
                approvers: { users: ['U0ANN', 'U0BEN', 'U0PAT'] },
                remediation: { enabled: true },
              },
            ]
          : []),
      ],
      approvals: { required: 2, ttlMinutes: 30, confirmByTyping: opts.confirmByTyping ?? false, ...opts.approvals },
      ...(opts.slackPolicy ? { slack: opts.slackPolicy } : {}),
    },
    '/tmp',
  );
  // Approvers are re-checked with users.info at vote time: the fake workspace must know them as
  // active members, or every vote is refused as ineligible (the second cluster has the default approvers).
  if (opts.registerApprovers ?? true)
    slack.addMember([
      ...new Set([
        ...(opts.approvers ?? ['U0ANN', 'U0BEN', 'U0PAT']),
        ...(opts.secondCluster ? ['U0ANN', 'U0BEN', 'U0PAT'] : []),
      ]),
    ]);
  const secretOf = (v: string | null | undefined) => (v === null ? undefined : (v ?? TEST_PLAN_SECRET));
  const signer = createPlanSigner(secretOf(opts.planSecret));
  const workerSigner = createPlanSigner(
    secretOf(opts.workerPlanSecret !== undefined ? opts.workerPlanSecret : opts.planSecret),
  );
  const { log, lines: logs, records: logRecords, messages: logMessages } = captureLogs();
  const approvals = createApprovalStore(redis, { keyPrefix: REDIS_PREFIX });
  const audit = createAuditLog(redis, { keyPrefix: REDIS_PREFIX, log, signer });
  const backups = createApprovalBackups(redis, { keyPrefix: REDIS_PREFIX });
  const proposals = createProposalStore(redis, { keyPrefix: REDIS_PREFIX });
  const now = () => new Date();
  // Bots sharing one Redis (opts.redisServer) get queues of their own: each one's worker must take
  // its own bot's clicks and approvals (another bot's has another config, cluster and fake Slack).
  const prefix = opts.redisServer ? `${BULLMQ_PREFIX}-bot${++botSeq}` : BULLMQ_PREFIX;
  const queue = new Queue(REMEDIATE_QUEUE, { connection: bull, prefix: queuePrefix(prefix, REMEDIATE_QUEUE) });
  const proposeQueue = new Queue(PROPOSE_QUEUE, { connection: bull, prefix: queuePrefix(prefix, PROPOSE_QUEUE) });
  const eventsConnection = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  const proposeEvents = new QueueEvents(PROPOSE_QUEUE, {
    connection: eventsConnection,
    prefix: queuePrefix(prefix, PROPOSE_QUEUE),
  });
  // The remediate worker kind: approved fixes and fix-button clicks (plan + dry run), as `worker --only remediate` runs
  // them.
  const inPlace = createInPlaceStore(redis, { keyPrefix: REDIS_PREFIX });
  const workerDeps = {
    inPlace,
    connection: bull,
    config,
    approvals,
    audit: createAuditLog(redis, { keyPrefix: REDIS_PREFIX, log, signer: workerSigner }),
    backups,
    proposals,
    createContext: createActionContext,
    slack: new WebClient(TOKEN, { slackApiUrl: slack.apiUrl }),
    now,
    log,
    verifyDelayMs: 200,
    signer: workerSigner,
    prefix,
    ...(opts.planningClaimSeconds ? { planningClaimSeconds: opts.planningClaimSeconds } : {}),
  };
  const worker = opts.workerSet
    ? await startJobs({
        config,
        redisUrl: redisServer.url,
        slack: { token: TOKEN, apiUrl: slack.apiUrl },
        log,
        now,
        signer: workerSigner,
      })
    : {
        workers: [
          startRemediateWorker(workerDeps).worker,
          ...(opts.withoutProposeWorker ? [] : [startProposeWorker(workerDeps).worker]),
        ],
        close: async () => undefined,
      };
  if (!opts.workerSet) worker.close = async () => void (await Promise.all(worker.workers.map((w) => w.close())));
  const { app } = await createSlackApp({
    botToken: TOKEN,
    signingSecret: SECRET,
    apiUrl: slack.apiUrl,
    logLevel: 'error',
    requestPolicy: config.slack,
    onRefused: (r) => log.warn({ status: r.status, reason: r.reason, detail: r.detail }, 'slack request refused'),
    ...(opts.replayGuard
      ? {
          replayGuard: createReplayGuard(redis, {
            keyPrefix: REDIS_PREFIX,
            onReplay: () => log.warn('replayed Slack request ignored'),
          }),
        }
      : {}),
  });
  const reports = createReportStore(redis, { keyPrefix: REDIS_PREFIX });
  const deps = {
    config,
    reports,
    proposals,
    now,
    log,
    requestScan: createScanRequester(async () => {
      throw new Error('no scans in approval tests');
    }, reports),
    metrics: createMetrics({ defaultMetrics: false }),
    approval: {
      approvals,
      audit,
      signer,
      requestProposal: createProposalRequester(proposeQueue, proposeEvents, { timeoutMs: opts.proposeTimeoutMs }),
      enqueue: (id: string) => enqueueRemediation(queue, id),
      isAuthorized: createApprovalAuthorizer(),
      checkApprover: createApproverAccountCheck(config.slack),
    },
  };
  registerListeners(app as App, deps);
  const server = (await app.start(0)) as Server;
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const post = async (body: string, o: { ts?: number; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${baseUrl}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(o.headers ?? signSlackRequest(SECRET, body, o.ts)),
      },
      body,
    });
    return { status: res.status, body: await res.text() };
  };
  let seq = 0;

  const bot: ApprovalBot = {
    redisServer,
    redis,
    slack,
    kube,
    approvals,
    proposals,
    inPlace,
    backups,
    audit,
    logs,
    logRecords,
    logMessages,
    config,
    post,
    proposeQueue,
    async enqueue(requestId, jobId = requestId) {
      await queue.add('remediate', { requestId }, { jobId, attempts: 1 });
    },
    async pauseWorker() {
      for (const w of worker.workers.filter((x) => x.name === REMEDIATE_QUEUE)) await w.pause();
    },
    resumeWorker() {
      // resume never rejects: bullmq reports its failure as the worker's 'error' event.
      for (const w of worker.workers.filter((x) => x.name === REMEDIATE_QUEUE)) void w.resume();
    },
    async propose(proposal, user = 'U0PAT') {
      const pid = await proposals.save({
        cluster: clusterName,
        findingId: 'test',
        fingerprint: 'fp',
        proposal,
        createdAt: now().toISOString(),
      });
      return bot.clickProposal(pid, user);
    },
    async clickProposal(pid, user = 'U0PAT') {
      const before = slack.callsTo('chat.postMessage').length;
      const ephemeralBefore = slack.callsTo('chat.postEphemeral').length;
      const url = slack.responseUrl(`propose-${++seq}`);
      const r = await post(
        blockActionBody({
          actionId: proposeFixActionId(0),
          value: pid,
          user_id: user,
          response_url: url,
          message_ts: '1700000000.000100',
        }),
      );
      if (r.status !== 200) throw new Error(`propose click answered ${r.status}`);
      // The worker may post a result meanwhile: the request message is the one with Approve / Reject.
      const approvalBlock = (c: { body: Any }) =>
        ((c.body.blocks ?? []) as Any[]).find(
          (b) => b.type === 'actions' && String(b.block_id).startsWith('approval:'),
        );
      const done = await slack.waitFor(
        'proposal posted or refused',
        () => {
          const message = slack.callsTo('chat.postMessage').slice(before).find(approvalBlock);
          if (message) return { message };
          // Refused by serve (its response_url; "Preparing the plan…" is not an answer) or by the worker
          // (chat.postEphemeral).
          const refused =
            slack.responses.find(
              (x) => x.path === new URL(url).pathname && !String(x.body.text).includes('Preparing the plan'),
            )?.body ??
            slack
              .callsTo('chat.postEphemeral')
              .slice(ephemeralBefore)
              .find((c) => c.body.user === user && !isProposedNote(c.body))?.body;
          return refused && { ephemeral: refused };
        },
        30000,
      );
      if (done.message) {
        const requestId = approvalBlock(done.message)!.elements[0].value as string;
        // The request is posted first (its message ts goes into it), then stored and audited: return
        // once it is stored, so a test reading Redis right away sees it.
        await eventually(
          () => redis.get(`{k8s-health:approvals}:approval:${requestId}`),
          (v) => v !== null,
          30000,
          20,
        );
        return { requestId, message: done.message };
      }
      return { ephemeral: done.ephemeral };
    },
    async vote(requestId, user, kind = 'approve') {
      const url = slack.responseUrl(`vote-${++seq}`);
      const viewsBefore = slack.callsTo('views.open').length;
      const r = await post(
        blockActionBody({
          actionId: kind === 'approve' ? APPROVE_ACTION_ID : REJECT_ACTION_ID,
          value: requestId,
          blockId: `approval:${requestId}`,
          user_id: user,
          response_url: url,
        }),
      );
      if (r.status !== 200) throw new Error(`vote click answered ${r.status}`);
      // A decisive approval under confirmByTyping opens the modal instead of replying.
      const reply = await slack.waitFor(
        'vote reply',
        () =>
          slack.responses.find((x) => x.path === new URL(url).pathname) ??
          (slack.callsTo('views.open').length > viewsBefore && { body: { text: '<views.open>' } }),
        30000,
      );
      return String(reply.body.text);
    },
    async submitConfirm(requestId, user, typed) {
      const payload = {
        type: 'view_submission',
        team: { id: 'T0TEAM', domain: 'example' },
        user: { id: user, username: user.toLowerCase(), name: user.toLowerCase(), team_id: 'T0TEAM' },
        api_app_id: 'A0APP',
        token: 'legacy-verification-token',
        trigger_id: '1.2.5',
        view: {
          id: 'V0CONFIRM',
          team_id: 'T0TEAM',
          type: 'modal',
          callback_id: CONFIRM_VIEW_ID,
          private_metadata: requestId,
          state: { values: { cluster: { value: { type: 'plain_text_input', value: typed } } } },
          hash: '1.abc',
          blocks: [],
          title: { type: 'plain_text', text: 'Confirm the fix' },
        },
      };
      return post(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
    },
    async waitStatus(requestId, statuses) {
      const deadline = Date.now() + 45000;
      for (;;) {
        const r = await approvals.get(requestId);
        // The executor stores the final status, then audits it: a run counts as finished once both are there.
        // (A status written by a test itself has no such entry: it is returned at the deadline.)
        const audited = async () =>
          (await audit.list({ limit: 1000 })).some(
            (e) =>
              e.requestId === requestId && e.detail === r!.result && (e.event === r!.status || e.event === 'refused'),
          );
        if (r && statuses.includes(r.status) && (!FINAL.has(r.status) || Date.now() > deadline || (await audited())))
          return r;
        if (Date.now() > deadline)
          throw new Error(`request ${requestId} never reached ${statuses.join('|')} (is ${r?.status}: ${r?.result})`);
        await new Promise((res) => setTimeout(res, 50));
      }
    },
    resultMessage: (requestId) =>
      slack.waitFor(
        `result of ${requestId} in the thread`,
        () =>
          slack
            .callsTo('chat.postMessage')
            .find(
              (c) =>
                String(c.body.text ?? '').includes(': ') &&
                JSON.stringify(c.body.blocks ?? '').includes(`outcome of request ${requestId}`),
            ),
        30000,
      ),
    async approveTwice(requestId) {
      await bot.vote(requestId, 'U0ANN');
      await bot.vote(requestId, 'U0BEN');
      return bot.waitStatus(requestId, ['succeeded', 'failed', 'aborted']);
    },
    async runApproved(proposal) {
      const { requestId, message, ephemeral } = await bot.propose(proposal);
      if (!requestId) throw new Error(`not proposed: ${ephemeral?.text}`);
      return { requestId, message: message!, request: await bot.approveTwice(requestId) };
    },
    async stop() {
      await app.stop().catch(() => undefined);
      await worker.close();
      await queue.close();
      await proposeQueue.close();
      await proposeEvents.close();
      eventsConnection.disconnect();
      bull.disconnect();
      redis.disconnect();
      await kube.close();
      await slack.close();
      if (!opts.redisServer) await redisServer.stop();
    },
  };
  return bot;
}

/**
 * The approval harness for a whole test file (or describe block): started in beforeAll, stopped in
 * afterAll. Returns a stand-in that forwards to the started bot, so tests read `bot.x` as they would
 * a `let bot` assigned in beforeAll; touched before the start, it says so instead of reading undefined.
 */
export function useApprovalBot(opts: ApprovalBotOptions = {}, timeoutMs = 60_000): ApprovalBot {
  let bot: ApprovalBot | undefined;
  beforeAll(async () => {
    bot = await startApprovalBot(opts);
  }, timeoutMs);
  afterAll(async () => {
    await bot?.stop();
  });
  return new Proxy({} as ApprovalBot, {
    get(_target, key) {
      if (!bot) throw new Error(`the approval bot is not started (bot.${String(key)} read outside beforeAll/it)`);
      const value: unknown = Reflect.get(bot, key, bot);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(bot) : value;
    },
  });
}

/** The proposer's own note that a request was posted (render-proposed.ts): not a refusal. */
function isProposedNote(body: { text?: unknown }): boolean {
  return typeof body.text === 'string' && /^Your request for .* is posted below/.test(body.text);
}
