import type { ClusterConfig } from '../../config/config-schema.js';
import type { KubeTarget } from './collect-kind.js';
import { collectServedVersions } from './collect-served-versions.js';
import { clusterSides } from './cluster-sides.js';
import { sidesOfKind, namespaceOfKind } from './kind-sides.js';
import { KINDS, type KindSpec } from '../kinds.js';
import { loadKubeConfig } from './load-kube-config.js';
import { startKindWatch, type KindWatch, type KindWatchOptions } from './watch-kind.js';

export type WatchCacheOptions = Omit<KindWatchOptions, 'namespace' | 'acquireList'> & {
  /** How often discovery is read again (default 5 min; tests shorten it). */
  discoveryRefreshMs?: number;
  /**
   * List slots shared by every cache of the process (createWatchCaches): a worker that takes over
   * hundreds of clusters at once lists a bounded number of kinds at a time instead of 4 per cluster.
   */
  acquireList?: () => Promise<() => void>;
};

/**
 * Lists in flight at once per cache, as in a list scan (collect-snapshot.ts): a relisting cache never floods the API
 * server.
 */
const LIST_CONCURRENCY = 4;

/** How often a cache re-reads discovery by default (once per cache start, then this often). */
const DISCOVERY_REFRESH_MS = 5 * 60_000;

/** The watched kinds of one configured cluster (workload, and management when it is a separate cluster). */
export interface WatchCache {
  readonly cluster: string;
  /** The watch of a kind on one side, once discovery has succeeded. */
  find(role: KubeTarget['role'], spec: KindSpec): KindWatch | undefined;
  /** Every kind watch started so far. */
  all(): KindWatch[];
  /** Wait until discovery and every first list have finished (or `timeoutMs` passed). */
  ready(timeoutMs: number): Promise<void>;
  /** Last time a scan read it (epoch ms), for idle expiry. */
  lastUsed: number;
  stop(): void;
}

/**
 * Start watching one cluster: load its kubeconfig(s), discover the served versions (retried with
 * backoff while the API server is away), then one KindWatch per kind and side, exactly the kinds
 * and namespaces a list scan reads (collectSnapshot). Discovery is done once per cache, not per scan.
 */
export function createWatchCache(cluster: ClusterConfig, opts: WatchCacheOptions): WatchCache {
  const watches = new Map<string, KindWatch>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  let started!: () => void;
  const discovered = new Promise<void>((resolve) => (started = resolve));
  const { distinct, sides } = clusterSides(cluster);
  const capiNamespace = cluster.management?.namespace;
  const key = (role: KubeTarget['role'], spec: KindSpec) => `${role}/${spec.group}/${spec.plural}`;
  const acquireList = opts.acquireList ?? createSlots(LIST_CONCURRENCY);

  /** One attempt to start a side: kubeconfig, discovery, then its kind watches. */
  const startSide = async (role: KubeTarget['role']): Promise<void> => {
    const kc = loadKubeConfig((role === 'workload' ? cluster.workload : cluster.management) ?? {});
    const target: KubeTarget = { role, kc, served: await collectServedVersions(kc, opts.timeoutMs) };
    // Discovery again every few minutes (a list scan does it every scan): a CRD installed later, or a
    // version no longer served, is seen by the kind watches at their next list. A failure keeps the last.
    const refresh = setInterval(() => {
      collectServedVersions(kc, opts.timeoutMs).then(
        (served) => (target.served = served),
        () => undefined,
      );
    }, opts.discoveryRefreshMs ?? DISCOVERY_REFRESH_MS);
    refresh.unref();
    timers.push(refresh);
    for (const spec of KINDS) {
      if (!sidesOfKind(spec, distinct).includes(role) || stopped) continue;
      watches.set(
        key(role, spec),
        startKindWatch(target, spec, { ...opts, namespace: namespaceOfKind(spec, role, capiNamespace), acquireList }),
      );
    }
  };
  /** Start a side, retrying with backoff while it is unreachable (scans list as usual meanwhile). */
  const keepStarting = async (role: KubeTarget['role'], afterFirstAttempt: () => void): Promise<void> => {
    for (let failures = 0; !stopped; failures++) {
      try {
        await startSide(role);
        return;
      } catch (err) {
        opts.log?.warn({ cluster: cluster.name, side: role, err }, 'watch cache cannot start; retrying');
      } finally {
        afterFirstAttempt();
      }
      const wait = Math.min(opts.maxBackoffMs, opts.minBackoffMs * 2 ** failures);
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, wait);
        timer.unref();
      });
    }
  };
  let pending = sides.length;
  for (const role of sides) {
    let first = true;
    void keepStarting(role, () => {
      if (first && --pending === 0) started();
      first = false;
    });
  }

  return {
    cluster: cluster.name,
    find: (role, spec) => watches.get(key(role, spec)),
    all: () => [...watches.values()],
    lastUsed: Date.now(),
    async ready(timeoutMs) {
      let timeout: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, timeoutMs);
        timeout.unref();
      });
      await Promise.race([discovered.then(() => Promise.all([...watches.values()].map((w) => w.settled))), deadline]);
      clearTimeout(timeout);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const t of timers) clearInterval(t);
      for (const w of watches.values()) w.stop();
      started();
    },
  };
}

/** A counting semaphore: `acquire()` resolves with its release function once one of `size` slots is free. */
export function createSlots(size: number): () => Promise<() => void> {
  let free = size;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return () =>
    new Promise<() => void>((resolve) => {
      const grant = () => {
        let done = false;
        resolve(() => {
          if (!done) ((done = true), release());
        });
      };
      if (free > 0) {
        free -= 1;
        grant();
      } else waiting.push(grant);
    });
}
