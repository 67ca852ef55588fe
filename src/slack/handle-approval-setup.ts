import { Queue, QueueEvents } from 'bullmq';
import type { App } from '@slack/bolt';
import type { Redis } from 'ioredis';
import { createProposalRequester } from '../jobs/create-proposal-requester.js';
import { createRedisConnection } from '../jobs/create-redis-connection.js';
import { enqueueRemediation } from '../jobs/enqueue-remediation.js';
import { BULLMQ_PREFIX, PROPOSE_QUEUE, REDIS_PREFIX, REMEDIATE_QUEUE } from '../jobs/queue-names.js';
import { startRemediateWorker } from '../jobs/remediate-worker.js';
import { createActionContext } from '../remediate/create-action-context.js';
import type { PlanSigner } from '../remediate/plan-signer.js';
import { createApprovalBackups } from '../store/approval-backups.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAuditLog } from '../store/audit-log.js';
import type { ApprovalDeps } from './handle-approval-deps.js';
import { createApproverAccountCheck } from './check-approver-account.js';
import { createApprovalAuthorizer } from './handle-approval-authorizer.js';
import { registerApprovalListeners } from './handle-approval-listeners.js';
import type { SlackDeps } from './slack-deps.js';

/**
 * Wire the approval flow into `serve`: approval stores on the shared Redis, the listeners, the
 * remediate queue (producer) and — unless `workers` is false — the remediate worker in-process.
 * Mutates `slackDeps` to add `approval` (the proposed-fix listener reads it). Returns a closer.
 */
export function setupApprovals(
  app: App,
  slackDeps: SlackDeps & { approval?: ApprovalDeps },
  opts: { redis: Redis; redisUrl: string; workers: boolean; signer: PlanSigner; proposeTimeoutMs?: number },
): { close(): Promise<void> } {
  const { redis } = opts;
  const bull = createRedisConnection(opts.redisUrl, { onError: () => undefined });
  const queue = new Queue(REMEDIATE_QUEUE, { connection: bull, prefix: BULLMQ_PREFIX });
  queue.on('error', () => undefined);
  const proposeQueue = new Queue(PROPOSE_QUEUE, { connection: bull, prefix: BULLMQ_PREFIX });
  proposeQueue.on('error', () => undefined);
  // QueueEvents blocks on its connection: one of its own.
  const eventsConnection = bull.duplicate();
  const proposeEvents = new QueueEvents(PROPOSE_QUEUE, { connection: eventsConnection, prefix: BULLMQ_PREFIX });
  proposeEvents.on('error', () => undefined);
  const approval: ApprovalDeps = {
    approvals: createApprovalStore(redis, { keyPrefix: REDIS_PREFIX }),
    audit: createAuditLog(redis, { keyPrefix: REDIS_PREFIX, log: slackDeps.log, signer: opts.signer }),
    signer: opts.signer,
    requestProposal: createProposalRequester(proposeQueue, proposeEvents, { timeoutMs: opts.proposeTimeoutMs }),
    enqueue: (id) => enqueueRemediation(queue, id),
    isAuthorized: createApprovalAuthorizer({ log: slackDeps.log }),
    checkApprover: createApproverAccountCheck(slackDeps.config.slack),
  };
  const deps = { ...slackDeps, approval };
  slackDeps.approval = approval;
  registerApprovalListeners(app, deps);
  const worker = opts.workers
    ? startRemediateWorker({ ...approval, isAuthorized: undefined, backups: createApprovalBackups(redis, { keyPrefix: REDIS_PREFIX, now: slackDeps.now }), createContext: createActionContext, config: slackDeps.config, proposals: slackDeps.proposals, connection: bull, slack: app.client, now: slackDeps.now, log: slackDeps.log })
    : undefined;
  return {
    async close() {
      await worker?.close().catch(() => undefined);
      await queue.close().catch(() => undefined);
      await proposeQueue.close().catch(() => undefined);
      await proposeEvents.close().catch(() => undefined);
      eventsConnection.disconnect();
      bull.disconnect();
    },
  };
}
