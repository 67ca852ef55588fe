import type { Queue } from 'bullmq';
import type { NotifyRequest } from '../slack/post/post-alert.js';

/** Notify job options: retried with capped backoff; failures stay visible (never silently dropped). */
export const NOTIFY_JOB_OPTIONS = {
  attempts: 30,
  backoff: { type: 'capped', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 5000 },
  removeOnFail: false,
} as const;

/**
 * The notify job id of a change: cluster + fingerprint + seq. Adding a job whose id exists is a
 * no-op in BullMQ, so two scans (or a retried scan) hand one change to Slack once. (BullMQ ids may
 * not contain ':'.)
 */
export function notifyJobId(req: NotifyRequest): string {
  return `alert.${req.cluster}.${req.fingerprint}.${req.seq}`;
}

/**
 * Hand a change to the notify queue. A job of that id that failed for good (its attempts spent, e.g.
 * Slack down for an hour) is retried instead, so every scan recovers unposted changes.
 */
export async function enqueueNotify(queue: Queue, req: NotifyRequest): Promise<void> {
  const jobId = notifyJobId(req);
  const existing = await queue.getJob(jobId);
  if (existing && (await existing.isFailed())) {
    await existing.retry('failed');
    return;
  }
  if (!existing) await queue.add('notify', req, { ...NOTIFY_JOB_OPTIONS, jobId });
}
