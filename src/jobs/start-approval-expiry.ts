import type { webApi } from '@slack/bolt';
import type { PlanSigner } from '../remediate/plan-signer.js';
import { Worker, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ApprovalStore, AuditLog } from '../remediate/approval-stores.js';
import { expireApprovals } from './expire-approvals.js';
import { APPROVALS_QUEUE } from './queue-names.js';
import type { Logger } from '../log/logger.js';

/** Job scheduler id of the approval expiry sweep (the same in every replica: upserting it twice keeps one). */
export const APPROVAL_EXPIRY_SCHEDULER_ID = 'approvals-expiry';

/** Sweep period: an expired request loses its buttons within a minute of expiresAt. */
export const APPROVAL_EXPIRY_EVERY_MS = 60_000;

export interface StartApprovalExpiryOptions {
  /** The `k8s-health-approvals` queue (its scheduler is upserted here). */
  queue: Queue;
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, docs/development.md "Stack notes"). */
  connection: Redis;
  /** BullMQ prefix. */
  prefix: string;
  approvals: ApprovalStore;
  /** Gives the sweep's audit records their MAC when it holds K8S_HEALTH_PLAN_SECRET. */
  audit: AuditLog;
  /** Without a client (no bot token) requests are expired but messages not updated here. */
  slack?: webApi.WebClient;
  /** Verifies which message each request may edit (its signed placement). */
  signer?: PlanSigner;
  now: () => Date;
  log: Logger;
}

/**
 * The approval expiry sweep on its own tiny queue (`k8s-health-approvals`) with a worker that does
 * only this, so a long scan backlog never delays it and the scan worker never sees its jobs. The
 * BullMQ job scheduler `approvals-expiry` (every 60 s) is upserted by every worker process: one
 * scheduler, each tick processed by one worker. Two sweeps overlapping anyway (a slow tick) are
 * safe: the store's compare-and-set lets one win each request, and only the winner posts.
 */
export async function startApprovalExpiry(opts: StartApprovalExpiryOptions): Promise<Worker> {
  await opts.queue.upsertJobScheduler(APPROVAL_EXPIRY_SCHEDULER_ID, { every: APPROVAL_EXPIRY_EVERY_MS }, {
    name: 'expire-approvals',
    data: {},
    // No retries: the next tick is the retry. Keep a short trail of runs for inspection.
    opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { age: 7 * 24 * 3600, count: 100 } },
  });
  const deps = { approvals: opts.approvals, audit: opts.audit, slack: opts.slack, now: opts.now, log: opts.log };
  return new Worker(APPROVALS_QUEUE, async () => {
    const r = await expireApprovals(deps);
    return { expired: r.expired.length, updated: r.updated.length, stale: r.stale.length };
  }, { connection: opts.connection, prefix: opts.prefix, concurrency: 1 });
}
