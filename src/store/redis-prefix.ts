/**
 * The prefix of every Redis key the bot writes, defined once: stores (`k8s-health:report:<cluster>`,
 * `k8s-health:approval:<id>` …) and BullMQ's queues (`k8s-health:k8s-health-scan:…`) alike, so one
 * `SCAN 0 MATCH k8s-health:*` shows everything the bot keeps. Tests pass another prefix to isolate runs.
 */
export const REDIS_PREFIX = 'k8s-health:';

/**
 * BullMQ's own `prefix` option: BullMQ appends `:` itself (`<prefix>:<queue>:<key>`), so the
 * trailing colon of REDIS_PREFIX is dropped to keep keys as `k8s-health:<queue>:...`.
 */
export const BULLMQ_PREFIX = REDIS_PREFIX.slice(0, -1);
