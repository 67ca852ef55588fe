/**
 * The prefix of every Redis key the bot writes, defined once: stores (`k8s-health:report:<cluster>`,
 * `{k8s-health:approvals}:approval:<id>` …) and BullMQ's queues alike. Tests pass another prefix to
 * isolate runs. Key names are built here (taggedKey, queuePrefix) so a Redis Cluster always finds the
 * keys one operation touches in one slot (docs/reliability.md, "Redis Cluster").
 */
export const REDIS_PREFIX = 'k8s-health:';

/**
 * BullMQ's `prefix` base: BullMQ appends `:` itself (`<prefix>:<queue>:<key>`), so the trailing
 * colon of REDIS_PREFIX is dropped. Queues and workers never pass it to BullMQ directly: they pass
 * queuePrefix(BULLMQ_PREFIX, queue), which adds the queue's hash tag.
 */
export const BULLMQ_PREFIX = REDIS_PREFIX.slice(0, -1);

/**
 * The groups of keys that one Lua script or transaction touches together, each under one hash tag:
 * an approval request and the pending index; the audit stream, its head and its archive; every
 * cluster's lease and the worker heartbeats (a claim covers many clusters in one script); the alert
 * intake's lists and its forwarders (an item moves between them in one command). Every other key is
 * read and written alone, so it keeps a plain name and Redis Cluster spreads it by itself.
 */
export type KeyGroup = 'approvals' | 'audit' | 'lease' | 'alert-intake';

/** `{<base>:<group>}:<rest>` for keyPrefix `<base>:` — the braces are the Redis Cluster hash tag. */
export function taggedKey(keyPrefix: string, group: KeyGroup, rest: string): string {
  return `{${keyPrefix.replace(/:$/, '')}:${group}}:${rest}`;
}

/**
 * The BullMQ `prefix` of one queue: `{<base>:<queue>}`, so each queue's keys (its lists, job hashes,
 * job schedulers, events stream — touched together by BullMQ's Lua scripts) share one slot, and
 * different queues land on different masters. Every Queue, Worker and QueueEvents goes through it.
 */
export function queuePrefix(prefix: string, queue: string): string {
  return `{${prefix.replace(/:$/, '')}:${queue}}`;
}
