import { describe, expect, it } from '@jest/globals';
import { WebClient } from '@slack/web-api';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { configSchema } from '../../../src/config/config-schema.js';
import type { RemediationProposal } from '../../../src/diagnose/finding.js';
import { expireApprovals, type ExpireApprovalsDeps } from '../../../src/jobs/expire-approvals.js';
import { APPROVALS_QUEUE, REDIS_PREFIX, queuePrefix } from '../../../src/jobs/queue-names.js';
import { createWorkerMetrics } from '../../../src/jobs/create-worker-metrics.js';
import { startJobs } from '../../../src/compose/compose-jobs.js';
import type { ApprovalRequest } from '../../../src/approvals/approval-request.js';
import { createPlanSigner } from '../../../src/approvals/plan-signer.js';
import { APPROVE_ACTION_ID } from '../../../src/slack/render/render-approval.js';
import { createApprovalStore } from '../../../src/store/approval-store.js';
import { createAuditLog } from '../../../src/store/audit-log.js';
import { useApprovalBot } from '../../support/start-approval-bot.js';
import { randomPrefix } from './replay-cluster.js';
import { captureLogs } from '../../support/capture-logs.js';
import { TEST_PLAN_SECRET } from '../../support/plan-secret.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = Record<string, any>;

/** The fake Slack API's default bot token (the one startApprovalBot uses). */
const TOKEN = 'xoxb-test-token';
const NAME = 'kyverno-resource-validating-webhook-cfg';
const webhook = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: NAME, uid: 'uid-kyverno' },
  webhooks: [
    {
      name: 'validate.kyverno.svc',
      failurePolicy: 'Fail',
      clientConfig: { service: { namespace: 'kyverno', name: 'kyverno-svc' } },
    },
  ],
} as unknown as KubeObject;
const suspend: RemediationProposal = {
  action: 'webhook.suspend',
  params: { kind: 'Validating', name: NAME },
  label: `Suspend webhook ${NAME}`,
  risk: 'r',
};

/** One request per fix is pending at a time: each request of these tests suspends a webhook of its own. */
const others = Array.from(
  { length: 12 },
  (_, i) =>
    ({ ...webhook, metadata: { name: `${NAME}-${i + 1}`, uid: `uid-kyverno-${i + 1}` } }) as unknown as KubeObject,
);
let proposals = 0;

const bot = useApprovalBot({ objects: [webhook, ...others] });

/** What the sweeps log (real pino, read by nobody here). */
const captured = captureLogs();

/**
 * Sweep deps on the bot's Redis and fake Slack, at a chosen time; `connection` lets two sweeps use two connections like
 * two processes.
 */
function sweeper(at: Date, opts: { connection?: Redis; slack?: boolean } = {}): ExpireApprovalsDeps {
  const redis = opts.connection ?? bot.redis;
  return {
    approvals: opts.connection ? createApprovalStore(redis, { keyPrefix: REDIS_PREFIX }) : bot.approvals,
    audit: opts.connection ? createAuditLog(redis, { keyPrefix: REDIS_PREFIX, log: captured.log }) : bot.audit,
    slack:
      opts.slack === false
        ? undefined
        : new WebClient(TOKEN, { slackApiUrl: bot.slack.apiUrl, retryConfig: { retries: 0 } }),
    signer: createPlanSigner(TEST_PLAN_SECRET),
    now: () => at,
    log: captured.log,
  };
}

async function proposed(): Promise<ApprovalRequest> {
  const n = proposals++;
  const name = n === 0 ? NAME : `${NAME}-${n}`;
  const { requestId, ephemeral } = await bot.propose({
    ...suspend,
    params: { kind: 'Validating', name },
    label: `Suspend webhook ${name}`,
  });
  if (!requestId) throw new Error(`not proposed: ${ephemeral?.text}`);
  // The message is posted before the request is stored: wait for it.
  return bot.waitStatus(requestId, ['pending']);
}

const updatesOf = (req: ApprovalRequest) =>
  bot.slack.callsTo('chat.update').filter((c) => c.body.ts === req.thread.messageTs);
const auditOf = async (id: string) =>
  (await bot.audit.list({ limit: 1000 })).filter((e) => e.requestId === id).reverse();
const hasApprove = (blocks: Any[]) =>
  blocks.some((b) => b.type === 'actions' && (b.elements as Any[]).some((e) => e.action_id === APPROVE_ACTION_ID));
const after = (req: ApprovalRequest, ms: number) => new Date(Date.parse(req.expiresAt) + ms);

describe('approval expiry sweep', () => {
  it('expires a pending request past expiresAt without a click: one audit entry, one chat.update without buttons; a later request is untouched', async () => {
    const past = await proposed();
    const future = await proposed();
    expect(Date.parse(future.expiresAt)).toBeGreaterThan(Date.parse(past.expiresAt)); // proposed later, same TTL
    expect(await bot.approvals.pendingBefore(Date.parse(future.expiresAt), 100)).toEqual(
      expect.arrayContaining([past.id, future.id]),
    );

    // At `past`'s expiresAt exactly (the click path's rule: now ≥ expiresAt), before `future`'s.
    const r = await expireApprovals(sweeper(after(past, 0)));
    expect(r).toEqual({ expired: [past.id], updated: [past.id], stale: [] });

    const stored = (await bot.approvals.get(past.id))!;
    expect(stored.status).toBe('expired');
    expect(stored.transitions.map((t) => t.status)).toEqual(['pending', 'expired']);
    expect(await bot.approvals.get(future.id)).toEqual(future);

    const trail = await auditOf(past.id);
    expect(trail.map((e) => e.event)).toEqual(['proposed', 'expired']);
    expect(trail[1]).toMatchObject({
      cluster: past.cluster,
      action: 'webhook.suspend',
      hash: past.hash,
      detail: '0 of 2 approvals',
    });
    expect(trail[1]!.user).toBeUndefined(); // as a click-time expiry: nobody decided it
    expect((await auditOf(future.id)).map((e) => e.event)).toEqual(['proposed']);

    const updates = updatesOf(past);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.body.channel).toBe(past.thread.channel);
    expect(hasApprove(updates[0]!.body.blocks)).toBe(false);
    expect(JSON.stringify(updates[0]!.body.blocks)).toContain('Expired');
    expect(updatesOf(future)).toHaveLength(0);
    // The message in the channel now shows it (the fake applies chat.update in place).
    expect(hasApprove(bot.slack.messages.get(`${past.thread.channel}/${past.thread.messageTs}`)!.blocks)).toBe(false);

    // Out of the pending index; a second sweep at the same time changes and posts nothing.
    expect(await bot.approvals.pendingBefore(Date.parse(future.expiresAt), 100)).not.toContain(past.id);
    expect(await expireApprovals(sweeper(after(past, 0)))).toEqual({ expired: [], updated: [], stale: [] });
    expect(updatesOf(past)).toHaveLength(1);
    expect(await auditOf(past.id)).toHaveLength(2);
    // A late click is told it is closed, as after a click-time expiry.
    expect(await bot.vote(past.id, 'U0BEN')).toContain('already expired');

    // Tidy for the other tests: `future` expires too.
    await expireApprovals(sweeper(after(future, 0)));
    expect((await bot.approvals.get(future.id))!.status).toBe('expired');
  }, 60_000);

  it('two sweeps running at once (two processes) expire each request once and post once', async () => {
    const reqs = [await proposed(), await proposed(), await proposed()];
    const at = after(reqs[2]!, 1000);
    const connections = [new Redis(bot.redisServer.url), new Redis(bot.redisServer.url)];
    try {
      const [a, b] = await Promise.all(connections.map((connection) => expireApprovals(sweeper(at, { connection }))));
      const won = [...a!.expired, ...b!.expired];
      expect(won.sort()).toEqual(reqs.map((r) => r.id).sort());
      for (const req of reqs) {
        expect((await bot.approvals.get(req.id))!.status).toBe('expired');
        expect((await auditOf(req.id)).filter((e) => e.event === 'expired')).toHaveLength(1);
        expect(updatesOf(req)).toHaveLength(1);
      }
    } finally {
      for (const c of connections) c.disconnect();
    }
  }, 60_000);

  it('a failed chat.update leaves the request expired and is retried by the next sweep, once; without a token the message is left for a process that has one', async () => {
    const req = await proposed();
    bot.slack.fail('chat.update', { status: 503 });
    const first = await expireApprovals(sweeper(after(req, 0)));
    expect(first).toEqual({ expired: [req.id], updated: [], stale: [req.id] });
    expect((await bot.approvals.get(req.id))!.status).toBe('expired');
    expect(updatesOf(req)).toHaveLength(1); // the failed attempt
    expect(hasApprove(bot.slack.messages.get(`${req.thread.channel}/${req.thread.messageTs}`)!.blocks)).toBe(true);

    expect(await expireApprovals(sweeper(after(req, 60_000)))).toEqual({ expired: [], updated: [req.id], stale: [] });
    expect(hasApprove(bot.slack.messages.get(`${req.thread.channel}/${req.thread.messageTs}`)!.blocks)).toBe(false);
    expect(await expireApprovals(sweeper(after(req, 120_000)))).toEqual({ expired: [], updated: [], stale: [] });
    expect(updatesOf(req)).toHaveLength(2);
    expect((await auditOf(req.id)).filter((e) => e.event === 'expired')).toHaveLength(1);

    // No bot token: expired all the same, nothing posted; the next sweep with a token posts it.
    const quiet = await proposed();
    expect(await expireApprovals(sweeper(after(quiet, 0), { slack: false }))).toEqual({
      expired: [quiet.id],
      updated: [],
      stale: [quiet.id],
    });
    expect((await bot.approvals.get(quiet.id))!.status).toBe('expired');
    expect(updatesOf(quiet)).toHaveLength(0);
    expect(await expireApprovals(sweeper(after(quiet, 60_000)))).toEqual({
      expired: [],
      updated: [quiet.id],
      stale: [],
    });

    // A message that is gone is not retried forever.
    const gone = await proposed();
    bot.slack.fail('chat.update', { error: 'message_not_found' });
    expect(await expireApprovals(sweeper(after(gone, 0)))).toEqual({ expired: [gone.id], updated: [], stale: [] });
    expect(await expireApprovals(sweeper(after(gone, 60_000)))).toEqual({ expired: [], updated: [], stale: [] });
  }, 60_000);

  it('a request approved before the sweep is not touched, even if the sweep still found it listed', async () => {
    const req = await proposed();
    await bot.vote(req.id, 'U0ANN');
    await bot.vote(req.id, 'U0BEN');
    const done = await bot.waitStatus(req.id, ['succeeded', 'failed', 'aborted']);
    expect(done.status).toBe('succeeded');
    // The worker posts "Executed" after storing the end state: count the updates only once it is in.
    await bot.slack.waitFor('the Executed message update', () =>
      updatesOf(req).some((c) => String(c.body.text).includes('Executed')),
    );
    expect(await bot.approvals.pendingBefore(Number.MAX_SAFE_INTEGER, 1000)).not.toContain(req.id);
    // The sweep read the index just before the approval landed: the compare-and-set still refuses.
    await bot.redis.zadd(`{k8s-health:approvals}:approvals:pending`, Date.parse(req.expiresAt), req.id);
    const updatesBefore = updatesOf(req).length;
    expect(await expireApprovals(sweeper(after(req, 60_000)))).toEqual({ expired: [], updated: [], stale: [] });
    expect(await bot.approvals.get(req.id)).toEqual(done);
    expect((await auditOf(req.id)).some((e) => e.event === 'expired')).toBe(false);
    expect(updatesOf(req)).toHaveLength(updatesBefore);
  }, 60_000);
});

/**
 * A worker's jobs (startJobs) on a fresh BullMQ prefix, with a request made from a real proposal
 * (`keepMessage`: its posted, signed message; else no message) stored there already due.
 */
async function withDueRequestAndJobs(
  opts: { keepMessage: boolean; jobs?: Partial<Parameters<typeof startJobs>[0]> },
  body: (ctx: {
    due: ApprovalRequest;
    approvals: ReturnType<typeof createApprovalStore>;
    queue: Queue;
  }) => Promise<void>,
): Promise<void> {
  const prefix = randomPrefix();
  const redis = new Redis(bot.redisServer.url);
  const approvals = createApprovalStore(redis, { keyPrefix: `${prefix}:` });
  // suspended by an earlier test
  if (!bot.kube.find('ValidatingWebhookConfiguration', NAME)) bot.kube.emit('ADDED', webhook);
  const template = await proposed();
  const past = new Date(Date.now() - 1000).toISOString();
  const due: ApprovalRequest = opts.keepMessage
    ? { ...template, expiresAt: past }
    : {
        ...template,
        id: approvals.newId(),
        expiresAt: past,
        thread: { channel: template.thread.channel, threadTs: template.thread.threadTs },
      };
  await approvals.create(due);
  const set = await startJobs({
    config: configSchema.parse({}),
    redisUrl: bot.redisServer.url,
    prefix,
    metrics: createWorkerMetrics(),
    ...opts.jobs,
  });
  const queue = new Queue(APPROVALS_QUEUE, {
    connection: { url: bot.redisServer.url },
    prefix: queuePrefix(prefix, APPROVALS_QUEUE),
  });
  try {
    await body({ due, approvals, queue });
  } finally {
    await set.close();
    await queue.obliterate({ force: true });
    await queue.close();
    redis.disconnect();
  }
}

describe('startWorkers schedules the sweep', () => {
  it('upserts the `approvals-expiry` job scheduler (every 60 s) and its worker expires due requests, even without a Slack token', async () => {
    const metrics = createWorkerMetrics();
    await withDueRequestAndJobs({ keepMessage: false, jobs: { metrics } }, async ({ due, approvals, queue }) => {
      const schedulers = await queue.getJobSchedulers(0, -1);
      expect(schedulers.map((s) => [s.key, s.every])).toEqual([['approvals-expiry', 60_000]]);
      // `every` schedulers run their first tick at once.
      for (let i = 0; (await approvals.get(due.id))!.status !== 'expired'; i++) {
        if (i > 300) throw new Error('the scheduled sweep never expired the due request');
        await new Promise((r) => setTimeout(r, 50));
      }
      // Counted on /metrics once the sweep job has completed.
      for (let i = 0; (await metrics.approvalsExpired.get()).values[0]?.value !== 1; i++) {
        if (i > 300)
          throw new Error(
            `k8s_health_approvals_expired_total never reached 1: ${JSON.stringify((await metrics.approvalsExpired.get()).values)}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await metrics.registry.metrics()).toContain('k8s_health_approvals_expired_total 1');
    });
  }, 60_000);

  it("the scheduled sweep of a worker with a bot token and the plan secret edits the expired request's own (signed) message: no buttons left", async () => {
    const jobs = { slack: { token: TOKEN, apiUrl: bot.slack.apiUrl }, signer: createPlanSigner(TEST_PLAN_SECRET) };
    await withDueRequestAndJobs({ keepMessage: true, jobs }, async ({ due, approvals }) => {
      expect(due.thread.messageMac).toBeTruthy();
      const update = await bot.slack.waitFor(
        "the sweep's chat.update of the request message",
        () => updatesOf(due).find((c) => !hasApprove(c.body.blocks as Any[])),
        20_000,
      );
      expect((await approvals.get(due.id))!.status).toBe('expired');
      expect(JSON.stringify(update.body.blocks)).toMatch(/expired/i);
    });
  }, 60_000);
});
