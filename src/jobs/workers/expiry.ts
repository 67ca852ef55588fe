import { Worker, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { expireApprovals, type ExpireApprovalsDeps } from '../expire-approvals.js';
import { APPROVALS_QUEUE, queuePrefix } from '../queue-names.js';
import type { StartedWorker } from './started-worker.js';

/** Job scheduler id of the approval expiry sweep (the same in every replica: upserting it twice keeps one). */
export const APPROVAL_EXPIRY_SCHEDULER_ID = 'approvals-expiry';

/** Sweep period: an expired request loses its buttons within a minute of expiresAt. */
export const APPROVAL_EXPIRY_EVERY_MS = 60_000;

/** The sweep's own needs (jobs/expire-approvals.ts: store, audit, Slack client, signer, clock, log) and its queue. */
export interface StartApprovalExpiryOptions extends ExpireApprovalsDeps {
  /** The `k8s-health-approvals` queue (its scheduler is upserted here). */
  queue: Queue;
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, docs/development.md "Stack notes"). */
  connection: Redis;
  /** BullMQ prefix. */
  prefix: string;
}

/**
 * The approval expiry sweep on its own tiny queue (`k8s-health-approvals`) with a worker that does
 * only this, so a long scan backlog never delays it and the scan worker never sees its jobs. The
 * BullMQ job scheduler `approvals-expiry` (every 60 s) is upserted by every worker process: one
 * scheduler, each tick processed by one worker. Two sweeps overlapping anyway (a slow tick) are
 * safe: the store's compare-and-set lets one win each request, and only the winner posts.
 */
export async function startApprovalExpiry(opts: StartApprovalExpiryOptions): Promise<StartedWorker> {
  await opts.queue.upsertJobScheduler(
    APPROVAL_EXPIRY_SCHEDULER_ID,
    { every: APPROVAL_EXPIRY_EVERY_MS },
    {
      name: 'expire-approvals',
      data: {},
      // No retries: the next tick is the retry. Keep a short trail of runs for inspection.
      opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { age: 7 * 24 * 3600, count: 100 } },
    },
  );
  // Every sweep dependency passes through, the signer included: without it no request message is edited.
  const { queue: _queue, connection, prefix, ...deps } = opts;
  const worker = new Worker(
    APPROVALS_QUEUE,
    async () => {
      const r = await expireApprovals(deps);
      return { expired: r.expired.length, updated: r.updated.length, stale: r.stale.length };
    },
    { connection, prefix: queuePrefix(prefix, APPROVALS_QUEUE), concurrency: 1 },
  );
  return { worker, close: () => worker.close() };
}
