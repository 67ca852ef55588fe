import { startFleetDiscovery } from '../cluster/fleet/start-fleet-discovery.js';
import { toClusterConfig } from '../cluster/fleet/to-cluster-config.js';
import { createClusterSet, type ClusterSet } from '../config/cluster-set.js';
import type { Config } from '../config/config-schema.js';
import { createRedisConnection } from '../jobs/create-redis-connection.js';
import type { RedisOutageReporter } from '../store/create-redis-outage-reporter.js';
import type { RedisEnv } from '../config/read-env-options.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { createClusterDirectory } from '../store/cluster-directory.js';
import { REDIS_PREFIX } from '../store/redis-prefix.js';

export interface FleetOptions {
  config: Config;
  redisUrl: string | RedisEnv;
  /** The process's Redis outage reporter. */
  outage?: RedisOutageReporter;
  /**
   * `discover`: this process reads the management clusters itself (it scans: it needs the enrolled
   * kubeconfigs) and keeps the shared directory current; `follow`: it only follows the directory
   * (`serve --no-workers`, a worker without `scan`): names and Slack settings, no credential.
   */
  mode: 'discover' | 'follow';
  /**
   * Called with the discovered clusters this process removed from the directory (retire them once); `renamedTo` when
   * only renamed.
   */
  onRemoved?: (clusters: { name: string; renamedTo?: string }[]) => void;
  /** Redis key prefix (tests); default `k8s-health:`. */
  keyPrefix?: string;
  log?: Logger;
  /** How often a follower re-reads the directory in case it missed a change message (default 30 s). */
  relistMs?: number;
}

export interface Fleet {
  clusterSet: ClusterSet;
  /** Resolves when the first view is in (discovery listed every fleet, or the directory was read), or failed. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Fleet mode's composition (docs/fleet.md): the process's ClusterSet (configured ∪ discovered, kept in
 * `config.clusters`), fed by this process's own discovery or by the shared directory in Redis. Without
 * `fleets:` it is the configured clusters alone and nothing is started.
 */
export function startFleet(opts: FleetOptions): Fleet {
  const { config } = opts;
  const log = opts.log ?? silentLogger;
  const clusterSet = createClusterSet(config);
  if (!config.fleets.length) return { clusterSet, ready: Promise.resolve(), stop: async () => undefined };
  for (const f of config.fleets) {
    if (f.credentials === 'capi-admin-secret') {
      log.warn(
        { fleet: f.name },
        `fleet ${f.name}: credentials: capi-admin-secret reads Cluster API's admin kubeconfig of every cluster (for labs only; enroll clusters with k8s-health enroll instead)`,
      );
    }
  }
  const redis = createRedisConnection(opts.redisUrl, { outage: opts.outage });
  const directory = createClusterDirectory(redis, { keyPrefix: opts.keyPrefix ?? REDIS_PREFIX });
  const configuredNames = new Set(config.clusters.map((c) => c.name));
  const stops: (() => Promise<void> | void)[] = [];

  if (opts.mode === 'discover') {
    const warned = new Set<string>();
    let syncing: Promise<unknown> = Promise.resolve();
    const discovery = startFleetDiscovery(config.fleets, {
      configuredNames,
      log,
      onChange: (s) => {
        clusterSet.setDiscovered(s.configs);
        for (const d of s.clusters)
          for (const w of d.warnings ?? [])
            if (!warned.has(`${d.name} ${w}`))
              (warned.add(`${d.name} ${w}`), log.warn({ cluster: d.name }, `fleet: Cluster annotation ${w}`));
        syncing = syncing
          .then(() => directory.sync(s.settled, s.clusters))
          .then(
            (change) => {
              const gone = [
                ...change.removed.map((name) => ({ name })),
                ...(change.renamed ?? []).map((r) => ({ name: r.from, renamedTo: r.to })),
              ];
              if (gone.length) opts.onRemoved?.(gone);
            },
            (err: unknown) => log.warn({ err }, 'fleet directory: not updated (Redis?); the next change retries'),
          );
      },
    });
    stops.push(
      () => discovery.stop(),
      () => syncing.then(() => undefined),
    );
    const ready = discovery.ready.then(() => {
      const s = discovery.state();
      log.info(
        {
          fleets: config.fleets.length,
          clusters: s.clusters.length,
          enrolled: s.clusters.filter((c) => c.enrolled).length,
          errors: s.errors,
        },
        'fleet: discovered',
      );
    });
    return { clusterSet, ready, stop: () => stopAll(stops, redis) };
  }

  const fleets = new Map(config.fleets.map((f) => [f.name, f]));
  const relist = async () => {
    const entries = await directory.list();
    clusterSet.setDiscovered(
      entries.filter((d) => fleets.has(d.fleet)).map((d) => toClusterConfig(fleets.get(d.fleet)!, d)),
    );
  };
  const safeRelist = () => relist().catch((err: unknown) => log.warn({ err }, 'fleet directory: not read (Redis?)'));
  const timer = setInterval(() => void safeRelist(), opts.relistMs ?? 30_000);
  timer.unref();
  stops.push(() => clearInterval(timer));
  const ready = (async () => {
    try {
      const unsubscribe = await directory.subscribe(() => void safeRelist());
      stops.push(unsubscribe);
    } catch (err) {
      log.warn({ err }, 'fleet directory: cannot follow changes; re-read every 30 s');
    }
    await safeRelist();
  })();
  return { clusterSet, ready, stop: () => stopAll(stops, redis) };
}

/** Stop everything; a Redis that is down must not hold the process's shutdown (5 s per step at most). */
async function stopAll(
  stops: (() => Promise<void> | void)[],
  redis: ReturnType<typeof createRedisConnection>,
): Promise<void> {
  const bounded = (p: Promise<unknown>) =>
    Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  for (const s of stops) await bounded(Promise.resolve().then(s));
  await bounded(redis.quit());
  redis.disconnect();
}
