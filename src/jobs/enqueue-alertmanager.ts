import { createHash } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { AlertmanagerNotification } from '../alertmanager/webhook-payload.js';

/** Alerts jobs: retried with capped backoff (Slack outages pass); failures stay visible. */
export const ALERTS_JOB_OPTIONS = {
  attempts: 30,
  backoff: { type: 'capped', delay: 1000 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: false,
} as const;

/**
 * The job id of a notification: its group key and every alert's (fingerprint, startsAt, status). A
 * notification Alertmanager sends again unchanged (a retry after a lost answer, a repeat_interval)
 * is then one job while the first is kept; the receipts of jobs/run-alerts-job.ts handle the rest.
 */
export function alertsJobId(n: AlertmanagerNotification): string {
  const h = createHash('sha256')
    .update(JSON.stringify([n.groupKey, n.alerts.map((a) => [a.fingerprint, a.startsAt, a.status]), n.overflow]))
    .digest('hex');
  return `am.${h.slice(0, 40)}`;
}

/** Hand a notification to the alerts queue (what serve's webhook answers after). */
export async function enqueueAlertmanager(queue: Queue, n: AlertmanagerNotification): Promise<void> {
  await queue.add('notification', n, { ...ALERTS_JOB_OPTIONS, jobId: alertsJobId(n) });
}
