import { createHash } from 'node:crypto';
import { parseWebhook } from '../alertmanager/parse-webhook.js';
import type { AlertmanagerNotification, QueuedWebhook } from '../alertmanager/webhook-payload.js';

/** Alerts jobs: retried with capped backoff (Slack outages pass); failures stay visible. */
export const ALERTS_JOB_OPTIONS = {
  attempts: 30,
  backoff: { type: 'capped', delay: 1000 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: false,
} as const;

/** What an alerts job holds: the queued body, or (queued by an earlier version) the notification as parsed. */
export type AlertsJobData = QueuedWebhook | AlertmanagerNotification;

/**
 * The job id of a notification: its group key and every alert's (fingerprint, startsAt, status). A
 * notification Alertmanager sends again unchanged (a retry after a lost answer, a repeat_interval)
 * is then one job while the first is kept; the receipts of jobs/run-alerts-job.ts handle the rest.
 */
export function alertsJobId(n: AlertmanagerNotification): string {
  // Built for every webhook the intake forwards: one string, no intermediate arrays. Unambiguous: fingerprints are
  // hex, a status is one of two words, and the free-form fields (the group key, each startsAt) go with their lengths.
  let ids = '';
  for (const a of n.alerts) ids += `\n${a.fingerprint} ${a.status} ${a.startsAt.length}:${a.startsAt}`;
  const h = createHash('sha256').update(`${n.groupKey.length}:${n.groupKey}${ids}\n${n.overflow}`).digest('hex');
  return `am.${h.slice(0, 40)}`;
}

/**
 * The notification an alerts job is about (its body read again: serve checked it before pushing it onto the intake,
 * and the intake's forwarder before queuing it).
 */
export function notificationOf(data: AlertsJobData): AlertmanagerNotification {
  return 'body' in data ? parseWebhook(data.body, { maxAlerts: data.maxAlerts, receivedAt: data.receivedAt }) : data;
}
