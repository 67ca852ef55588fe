import { WebClient } from '@slack/web-api';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PlanSigner } from '../remediate/plan-signer.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAuditLog } from '../store/audit-log.js';
import { expireApprovals } from './expire-approvals.js';
import { APPROVALS_QUEUE } from './queue-names.js';

/** Job scheduler id of the approval expiry sweep (the same in every replica: upserting it twice keeps one). */
export const APPROVAL_EXPIRY_SCHEDULER_ID = 'approvals-expiry';

/** Sweep period: an expired request loses its buttons within a minute of expiresAt. */
export const APPROVAL_EXPIRY_EVERY_MS = 60_000;

export interface StartApprovalExpiryOptions {
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, TOOLING.md). */
  connection: Redis;
  /** BullMQ prefix; store keys use `<prefix>:`. */
  prefix: string;
  /** Bot token and Web API base URL; without a token requests are expired but messages not updated here. */
  slack?: { token?: string; apiUrl?: string };
  now: () => Date;
  log: (line: string) => void;
  /** Gives the sweep's audit records their MAC (K8S_HEALTH_PLAN_SECRET); without it they are hash-chained only. */
  signer?: PlanSigner;
}

/**
 * The approval expiry sweep on its own tiny queue (`k8s-health-approvals`) with a worker that does
 * only this, so a long scan backlog never delays it and the scan worker never sees its jobs. The
 * BullMQ job scheduler `approvals-expiry` (every 60 s) is upserted by every worker process: one
 * scheduler, each tick processed by one worker. Two sweeps overlapping anyway (a slow tick) are
 * safe: the store's compare-and-set lets one win each request, and only the winner posts.
 */
export async function startApprovalExpiry(opts: StartApprovalExpiryOptions): Promise<{ queue: Queue; worker: Worker; close(): Promise<void> }> {
  const keyPrefix = `${opts.prefix}:`;
  const queue = new Queue(APPROVALS_QUEUE, { connection: opts.connection, prefix: opts.prefix });
  // Errors of the shared connection surface through /readyz (startWorkers); not logged per retry here.
  queue.on('error', () => undefined);
  await queue.upsertJobScheduler(APPROVAL_EXPIRY_SCHEDULER_ID, { every: APPROVAL_EXPIRY_EVERY_MS }, {
    name: 'expire-approvals',
    data: {},
    // No retries: the next tick is the retry. Keep a short trail of runs for inspection.
    opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { age: 7 * 24 * 3600, count: 100 } },
  });
  const deps = {
    approvals: createApprovalStore(opts.connection, { keyPrefix }),
    audit: createAuditLog(opts.connection, { keyPrefix, log: opts.log, signer: opts.signer }),
    // Failures are retried by the next sweep (the message is marked stale), so no client retries or
    // waiting out a 429 here: a tick stays short.
    slack: opts.slack?.token
      ? new WebClient(opts.slack.token, { ...(opts.slack.apiUrl ? { slackApiUrl: opts.slack.apiUrl } : {}), rejectRateLimitedCalls: true, retryConfig: { retries: 0 }, timeout: 10_000 })
      : undefined,
    now: opts.now,
    log: opts.log,
  };
  const worker = new Worker(APPROVALS_QUEUE, async () => {
    const r = await expireApprovals(deps);
    return { expired: r.expired.length, updated: r.updated.length, stale: r.stale.length };
  }, { connection: opts.connection, prefix: opts.prefix, concurrency: 1 });
  return {
    queue,
    worker,
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
