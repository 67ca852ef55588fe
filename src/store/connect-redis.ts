import { readFileSync } from 'node:fs';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisEnv } from '../config/read-env-options.js';
import { hardenCluster } from './harden-cluster.js';
import { redactRedisUrl } from './redact-redis-url.js';

// Where Redis is comes as config/read-env-options.ts's RedisEnv (the environment's topology: config owns
// its shape, read once from the environment) or as just a URL (tests, the sandbox).

/** The address log lines and Slack may show: the URL redacted, or the sentinels and master group; never a password. */
export function describeRedisTarget(target: string | RedisEnv): string {
  if (typeof target === 'string') return redactRedisUrl(target);
  if (target.clusterNodes?.length)
    return `redis cluster via ${target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  if (target.sentinels?.length)
    return `sentinel master "${target.sentinelMaster}" via ${target.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
  return redactRedisUrl(target.url);
}

/**
 * A new ioredis client for the target with `extra` options (retry policy, lazyConnect…). A Sentinel
 * topology asks the sentinels for the current master and follows failovers by itself (ioredis), so
 * everything above sees one `Redis` whatever the topology. REDIS_USERNAME / REDIS_PASSWORD override the
 * URL's; REDIS_TLS_CA_FILE turns TLS on (to the sentinels too) trusting that CA.
 *
 * A Redis Cluster (REDIS_CLUSTER_NODES) is an ioredis `Cluster`, returned as a `Redis`: it answers the
 * same commands, routing each to the master of its key's slot and following failovers and resharding
 * (MOVED/ASK) by itself; every command the bot sends keeps its keys in one slot (store/redis-prefix.ts)
 * and the few that look at every key ask each master (store/scan-keys.ts). BullMQ takes the Cluster as
 * it is (`isCluster`); its duplicates keep the cluster-level options.
 */
export function connectRedis(target: string | RedisEnv, extra: RedisOptions = {}): Redis {
  if (typeof target === 'string') return new Redis(target, extra);
  const auth: RedisOptions = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
  };
  const tls = target.tlsCaFile ? { tls: { ca: readFileSync(target.tlsCaFile) } } : {};
  if (target.clusterNodes?.length)
    return connectCluster(target.clusterNodes, { ...auth, ...tls }, extra) as unknown as Redis;
  if (target.sentinels?.length) {
    return new Redis({
      sentinels: target.sentinels,
      name: target.sentinelMaster,
      ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
      ...auth,
      ...tls,
      ...(target.tlsCaFile
        ? { enableTLSForSentinelMode: true, sentinelTLS: { ca: readFileSync(target.tlsCaFile) } }
        : {}),
      ...extra,
    });
  }
  return new Redis(target.url, { ...auth, ...tls, ...extra });
}

/**
 * Redirections (retries) a waiting command gets while its slot has no master: at 200–300 ms apiece
 * (fewer when a retry joins a batch already due) about a minute, more than a failover takes with
 * Redis' default cluster-node-timeout of 15 s.
 */
const WAITING_REDIRECTIONS = 200;

/**
 * The options that belong to the cluster as a whole (offline queue, ready check, lazy connect, retry
 * between topology refreshes) go to `Cluster`; the per-connection ones (auth, TLS, timeouts,
 * maxRetriesPerRequest, which BullMQ reads from `redisOptions`) to every node's connection.
 */
function connectCluster(nodes: { host: string; port: number }[], base: RedisOptions, extra: RedisOptions): Cluster {
  const { lazyConnect, enableOfflineQueue, enableReadyCheck, retryStrategy, ...perNode } = extra;
  const options: ClusterOptions = {
    redisOptions: { ...base, ...perNode },
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(enableOfflineQueue !== undefined ? { enableOfflineQueue } : {}),
    ...(enableReadyCheck !== undefined ? { enableReadyCheck } : {}),
    clusterRetryStrategy: (times: number) =>
      retryStrategy ? (retryStrategy(times) ?? null) : Math.min(times * 200, 2000),
    // A master killed: its replica is promoted after cluster-node-timeout; commands meanwhile wait
    // and retry rather than fail, as they do on one Redis that restarts.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 200,
    // Each retry spends one redirection. Clients that wait out outages (maxRetriesPerRequest: null:
    // BullMQ's and the workers' stores) get enough for a failover; ioredis' 16 last about 3 s, and a
    // write failed that soon — an alert thread's record right after Slack took the parent — makes the
    // retried job post it again. Fail-fast clients (serve's commands) keep the 16.
    ...(perNode.maxRetriesPerRequest === null ? { maxRedirections: WAITING_REDIRECTIONS } : {}),
  };
  return hardenCluster(new Cluster(nodes, options));
}
