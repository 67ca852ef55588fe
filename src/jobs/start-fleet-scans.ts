import type { WatchCaches } from '../cluster/live/create-watch-caches.js';
import type { ClusterConfig, Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import type { ClusterLeaseStore } from '../store/cluster-lease-store.js';
import { createLeaseKeeper, type ClusterSource, type LeaseKeeper } from './create-lease-keeper.js';
import { createOwnedScans, type ScanTrigger } from './create-owned-scans.js';
import type { WorkerMetrics } from './create-worker-metrics.js';
import { isLeasedCluster } from './is-leased-cluster.js';

/** How long the first scan after a takeover waits for the cluster's watch cache to have listed every kind. */
const ACQUIRE_READY_MS = 5 * 60_000;

export interface FleetScansOptions {
  config: Config;
  store: ClusterLeaseStore;
  watchCaches: WatchCaches;
  /** The clusters to lease (default: the config's live clusters); discovery plugs its set in here. */
  clusters?: ClusterSource;
  /** A cluster's settings by name (default: from the config). */
  clusterOf?: (name: string) => ClusterConfig | undefined;
  /** One scan of a cluster with this worker's watch cache (runScanJob: store, alerts, notify jobs). */
  scan(cluster: string): Promise<unknown>;
  concurrency: number;
  /** Worker id (tests). */
  id?: string;
  log: Logger;
  metrics?: WorkerMetrics;
}

/** The fleet side of one scan worker: its leases, the watches and scans of what it owns. */
export interface FleetScans {
  keeper: LeaseKeeper;
  /** Release every lease (others take over at once) and stop scanning. */
  stop(): Promise<void>;
}

/**
 * The config's live clusters, read afresh on every call: a cluster set that keeps `config.clusters`
 * current (discovery) is followed within one lease tick even without a change callback.
 */
export function configClusterSource(config: Config): ClusterSource {
  return {
    names: () => config.clusters.filter((c) => isLeasedCluster(config, c)).map((c) => c.name),
    onChange: () => () => undefined,
  };
}

/**
 * Fleet mode (docs/fleet.md "Leases and event-driven scans"): this worker keeps its fair
 * share of cluster leases (jobs/create-lease-keeper.ts); for each cluster it owns it holds the watch
 * cache and runs the scans (jobs/create-owned-scans.ts: on acquire, every scan.intervalSeconds, and
 * debounced after each watch event); losing a lease stops its watches at once. Alert posting stays
 * the notify queue's (exactly once per change seq, whichever worker scanned).
 */
export function startFleetScans(opts: FleetScansOptions): FleetScans {
  const { config, watchCaches, log } = opts;
  const clusterOf = opts.clusterOf ?? ((name: string) => config.clusters.find((c) => c.name === name));
  const source = opts.clusters ?? configClusterSource(config);
  const owned = createOwnedScans({
    intervalMs: config.scan.intervalSeconds * 1000,
    debounceMs: config.scan.debounceSeconds * 1000,
    concurrency: opts.concurrency,
    log,
    async scan(cluster: string, trigger: ScanTrigger) {
      const started = performance.now();
      try {
        await opts.scan(cluster);
        opts.metrics?.scanJobs.inc({ cluster, outcome: 'ok' });
        opts.metrics?.scanSeconds.observe({ cluster }, (performance.now() - started) / 1000);
        log.debug({ cluster, trigger }, 'owned scan done');
      } catch (err) {
        opts.metrics?.scanJobs.inc({ cluster, outcome: 'error' });
        throw err;
      }
    },
  });
  const keeper = createLeaseKeeper({
    store: opts.store,
    clusters: source,
    leaseMs: config.scan.leaseSeconds * 1000,
    id: opts.id,
    log,
    onAcquire(cluster) {
      const c = clusterOf(cluster);
      // List and watch from now on; the first scan waits until every kind is listed (however long a
      // takeover of hundreds of clusters queues for list slots), so it never lists a kind twice.
      const cache = c ? watchCaches.get(c) : undefined;
      if (!cache) return owned.acquire(cluster);
      void cache.ready(ACQUIRE_READY_MS).then(() => {
        if (keeper.owns(cluster)) owned.acquire(cluster);
      });
    },
    onLose(cluster) {
      owned.lose(cluster);
      watchCaches.drop(cluster);
    },
  });
  // A scan that ends after its lease was lost (or a queued one of a cluster owned elsewhere) must not
  // start watches here again: only owned (or unleased) clusters get a cache.
  watchCaches.restrict((cluster) => keeper.owns(cluster) || !source.names().includes(cluster));
  const unsubscribe = watchCaches.onEvent((cluster) => {
    if (keeper.owns(cluster)) owned.changed(cluster);
  });
  keeper.start();
  log.info(
    { worker: keeper.id, leaseSeconds: config.scan.leaseSeconds, debounceSeconds: config.scan.debounceSeconds },
    'fleet mode: leasing live clusters',
  );
  return {
    keeper,
    async stop() {
      unsubscribe();
      await keeper.stop();
      await owned.stop();
    },
  };
}
