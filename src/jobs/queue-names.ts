/**
 * BullMQ queue names shared by every process (serve, worker, CLI).
 * Fixed by the team contract: other engineers' workers and producers import these constants.
 */

/** Scheduled and on-demand cluster scans (one job scheduler per cluster). */
export const SCAN_QUEUE = 'k8s-health-scan';

/** Slack alert-thread posts/updates, rate limited per channel. */
export const NOTIFY_QUEUE = 'k8s-health-notify';

/** Alertmanager notifications received by serve's `POST /alertmanager`, shown by the alerts worker. */
export const ALERTS_QUEUE = 'k8s-health-alerts';

/** Approved remediations, executed exactly once. */
export const REMEDIATE_QUEUE = 'k8s-health-remediate';

/**
 * Fix proposals: a click on a fix button in `serve` becomes a job here, taken by the `remediate`
 * worker kind, which plans against the live cluster and dry-runs (a dry run is authorized like the
 * write itself, so it belongs to the one process that may write).
 */
export const PROPOSE_QUEUE = 'k8s-health-propose';

/** Approval housekeeping: the expiry sweep (job scheduler `approvals-expiry`, jobs/workers/expiry.ts). */
export const APPROVALS_QUEUE = 'k8s-health-approvals';

/** Every queue, for what walks them all (the key-layout migration at start-up): a new queue is added here. */
export const ALL_QUEUES: readonly string[] = [
  SCAN_QUEUE,
  NOTIFY_QUEUE,
  REMEDIATE_QUEUE,
  PROPOSE_QUEUE,
  APPROVALS_QUEUE,
  ALERTS_QUEUE,
];

/**
 * The Redis prefixes, defined in store/redis-prefix.ts; re-exported for the producers and workers that import them from
 * here.
 */
export { BULLMQ_PREFIX, REDIS_PREFIX, queuePrefix } from '../store/redis-prefix.js';
