import type { Queue } from 'bullmq';
import type { Incident } from '../alerts/incident.js';
import { SEVERITY_RANK } from '../diagnose/finding.js';
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
export async function enqueueNotify(queue: Queue, req: NotifyRequest, priority?: number): Promise<void> {
  const jobId = notifyJobId(req);
  const existing = await queue.getJob(jobId);
  if (existing && (await existing.isFailed())) {
    await existing.retry('failed');
    return;
  }
  if (!existing)
    await queue.add('notify', req, { ...NOTIFY_JOB_OPTIONS, jobId, ...(priority !== undefined ? { priority } : {}) });
}

/**
 * BullMQ priority of a notify job (1 is taken first): the first message of a new incident (opened or
 * reopened) before every follow-up, each by severity; a fleet member's own card (its follow-up reply)
 * last. Slack lets a channel take about one message a second, so under a burst this order decides what
 * an on-call sees first: every new fault, worst first, then the details.
 */
export function notifyPriority(inc: Pick<Incident, 'changes' | 'severity'>, memberCard = false): number {
  const last = inc.changes.at(-1);
  const fresh = !!last && (last.kinds.includes('opened') || last.kinds.includes('reopened'));
  const rank = SEVERITY_RANK[inc.severity] ?? 2;
  if (memberCard) return 30 + rank;
  return (fresh ? 1 : 10) + rank;
}

/** The follow-up job of a fleet member: its own card, replied in the fleet thread after every first message. */
export async function enqueueMemberCard(queue: Queue, req: NotifyRequest, priority: number): Promise<void> {
  const r: NotifyRequest = { cluster: req.cluster, fingerprint: req.fingerprint, seq: req.seq, memberCard: true };
  await queue.add('notify', r, { ...NOTIFY_JOB_OPTIONS, jobId: `${notifyJobId(req)}.card`, priority });
}
