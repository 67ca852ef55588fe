import type { ClusterConfig } from '../../config/config-schema.js';
import { createSlots, createWatchCache, type WatchCache, type WatchCacheOptions } from './create-watch-cache.js';

export interface WatchCachesOptions extends Partial<WatchCacheOptions> {
  /** Lists in flight at once across every cache of the process (default 16; each cache alone: 4). */
  listConcurrency?: number;
  /** Stop a cluster's watches when no scan in this process has read them for this long (default 10 min). */
  idleMs?: number;
}

/** The watch caches of one worker process, one per configured cluster it scans. */
export interface WatchCaches {
  /** The cache of a cluster, started on first use (restarted when its connection settings change). */
  for(cluster: ClusterConfig): WatchCache;
  /**
   * What a scan uses: the cluster's cache (started on first use) when the cluster is admitted, else
   * undefined (the scan lists). Everything is admitted unless {@link restrict} says otherwise.
   */
  get(cluster: ClusterConfig): WatchCache | undefined;
  /**
   * Fleet mode: only clusters `admit` accepts (those this worker holds the lease of, or not leased)
   * get a cache through {@link get}, so a scan finishing after its lease was lost never restarts watches.
   */
  restrict(admit: (cluster: string) => boolean): void;
  /** Caches running now. */
  list(): WatchCache[];
  /** Stop a cluster's watches now (fleet mode: this worker lost its lease); false when it had none. */
  drop(cluster: string): boolean;
  /** Listen to every applied watch event of every cache (fleet mode's event-driven scans); returns an unsubscribe. */
  onEvent(listener: (cluster: string, kind: string) => void): () => void;
  /** Stop every watch (graceful shutdown). */
  close(): void;
}

export const WATCH_DEFAULTS: WatchCacheOptions = {
  pageSize: 500,
  watchSeconds: 300,
  minBackoffMs: 1000,
  maxBackoffMs: 60_000,
};

/**
 * Watch caches per process (`worker`, or `serve` running workers). A cluster is watched from the
 * first scan this process runs of it; a cluster this process has not scanned for `idleMs` is
 * dropped (its watches closed), so a fleet spread over many workers is not watched by all of them
 * forever. A live `check --cluster` never uses one: a one-off read lists once.
 */
export function createWatchCaches(opts: WatchCachesOptions = {}): WatchCaches {
  const idleMs = opts.idleMs ?? 10 * 60_000;
  const settings: WatchCacheOptions = {
    pageSize: opts.pageSize ?? WATCH_DEFAULTS.pageSize,
    timeoutMs: opts.timeoutMs,
    watchSeconds: opts.watchSeconds ?? WATCH_DEFAULTS.watchSeconds,
    minBackoffMs: opts.minBackoffMs ?? WATCH_DEFAULTS.minBackoffMs,
    maxBackoffMs: opts.maxBackoffMs ?? WATCH_DEFAULTS.maxBackoffMs,
    discoveryRefreshMs: opts.discoveryRefreshMs,
    log: opts.log,
    acquireList: createSlots(opts.listConcurrency ?? 16),
  };
  const caches = new Map<string, { cache: WatchCache; signature: string }>();
  const listeners = new Set<(cluster: string, kind: string) => void>();
  let admit: (cluster: string) => boolean = () => true;

  const sweep = (now: number) => {
    for (const [name, entry] of caches) {
      if (now - entry.cache.lastUsed > idleMs) {
        entry.cache.stop();
        caches.delete(name);
        settings.log?.info(
          { cluster: name, idleSeconds: Math.round(idleMs / 1000) },
          'watch cache: cluster not scanned here lately; watches closed',
        );
      }
    }
  };

  const caches_: WatchCaches = {
    get: (cluster) => (admit(cluster.name) ? caches_.for(cluster) : undefined),
    restrict(fn) {
      admit = fn;
    },
    for(cluster) {
      const now = Date.now();
      sweep(now);
      const signature = JSON.stringify([cluster.workload ?? {}, cluster.management ?? {}]);
      let entry = caches.get(cluster.name);
      if (entry && entry.signature !== signature) {
        entry.cache.stop();
        entry = undefined;
      }
      if (!entry) {
        const name = cluster.name;
        const onChange = (spec: { kind: string }) => {
          for (const l of listeners) l(name, spec.kind);
        };
        entry = { cache: createWatchCache(cluster, { ...settings, onChange }), signature };
        caches.set(cluster.name, entry);
      }
      entry.cache.lastUsed = now;
      return entry.cache;
    },
    list: () => [...caches.values()].map((e) => e.cache),
    drop(name) {
      const entry = caches.get(name);
      if (!entry) return false;
      entry.cache.stop();
      caches.delete(name);
      return true;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      for (const e of caches.values()) e.cache.stop();
      caches.clear();
    },
  };
  return caches_;
}
