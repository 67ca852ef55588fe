/**
 * BullMQ queue names and the Redis key prefix shared by every process (serve, worker, CLI).
 * Fixed by the team contract: other engineers' workers and producers import these constants.
 */

/** Scheduled and on-demand cluster scans (one job scheduler per cluster). */
export const SCAN_QUEUE = 'k8s-health-scan';

/** Slack alert-thread posts/updates, rate limited per channel. */
export const NOTIFY_QUEUE = 'k8s-health-notify';

/** Approved remediations, executed exactly once. */
export const REMEDIATE_QUEUE = 'k8s-health-remediate';

/**
 * Fix proposals: a click on a fix button in `serve` becomes a job here, taken by the `remediate`
 * worker kind, which plans against the live cluster and dry-runs (a dry run is authorized like the
 * write itself, so it belongs to the one process that may write).
 */
export const PROPOSE_QUEUE = 'k8s-health-propose';

/** Approval housekeeping: the expiry sweep (job scheduler `approvals-expiry`, jobs/start-approval-expiry.ts). */
export const APPROVALS_QUEUE = 'k8s-health-approvals';

/** Prefix for every Redis key the bot writes (BullMQ `prefix` option included). */
export const REDIS_PREFIX = 'k8s-health:';

/**
 * BullMQ's own `prefix` option: BullMQ appends `:` itself (`<prefix>:<queue>:<key>`), so the
 * trailing colon of REDIS_PREFIX is dropped to keep keys as `k8s-health:<queue>:...`.
 */
export const BULLMQ_PREFIX = 'k8s-health';
