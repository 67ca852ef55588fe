import type { ClusterConfig } from '../../config/config-schema.js';
import { collectEtcd } from '../etcd/collect-etcd.js';
import { collectKind, type KubeTarget } from './collect-kind.js';
import { collectReadyz } from './collect-readyz.js';
import { collectServedVersions } from './collect-served-versions.js';
import type { WatchCaches } from './create-watch-caches.js';
import { KINDS, type KindSpec } from '../kinds.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './request-kube.js';
import { isUnreachable, type KubeError } from './kube-error.js';
import { clusterSides } from './cluster-sides.js';
import { namespaceOfKind, sidesOfKind, type Side } from './kind-sides.js';
import { loadKubeConfig, type KubeContextRef } from './load-kube-config.js';
import { createEmptySnapshot, type KindCoverage, type PartialEntry, type Snapshot } from '../snapshot.js';
import { sortSnapshot } from '../sort-snapshot.js';
import { scopeSnapshot } from '../scope-snapshot.js';
import { describeError } from '../../errors/describe-error.js';

export interface CollectOptions {
  /** Clock, for collectedAt. */
  now?: () => Date;
  /** Page size for list calls (default 500). */
  pageSize?: number;
  /** Deadline of each API request (default 15 s). */
  requestTimeoutMs?: number;
  /**
   * Watch caches of this process (`scan.watch`): kinds whose watch is current are read from the
   * cache (no list request), the rest are listed as usual. Absent: every kind is listed.
   */
  watchCaches?: WatchCaches;
  /** How the kinds were read, for the scan log and tests. */
  onCollected?: (info: { cluster: string; cachedKinds: number; listedKinds: number }) => void;
}

/** Lists in flight at once per collection: quick on a healthy server, gentle on a struggling one. */
const CONCURRENCY = 4;

/**
 * Read a live cluster into a Snapshot: /readyz, discovery, then every KINDS entry listed with
 * `resourceVersion=0` in pages. CAPI kinds come from the management cluster (default: the workload
 * cluster itself, restricted to management.namespace when set); events from both when they differ.
 * Never throws for cluster trouble: unreadable parts become partial entries, an unreachable API
 * server becomes `apiserver.reachable: false` and the management cluster is still read (seed S1).
 */
export async function collectSnapshot(cluster: ClusterConfig, opts: CollectOptions = {}): Promise<Snapshot> {
  const now = opts.now ?? (() => new Date());
  const timeoutMs = opts.requestTimeoutMs;
  const pageSize = opts.pageSize ?? 500;
  const { distinct, workloadMissing } = clusterSides(cluster);
  const cache = opts.watchCaches?.get(cluster);
  // A new cache lists every kind once: wait for that instead of listing the same kinds twice.
  if (cache) await cache.ready(timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const covered = (role: Side, spec: KindSpec) => {
    const w = cache?.find(role, spec);
    return w !== undefined && (w.isCurrent() || w.state === 'absent');
  };
  // Discovery only when something must be listed (the cache discovered once, when it started).
  const needsList = (role: Side) => KINDS.some((k) => sidesOfKind(k, distinct).includes(role) && !covered(role, k));
  const snapshot = createEmptySnapshot(cluster.name, now().toISOString(), 'live');

  // A discovered cluster without workload credentials: the workload side is not read (and /readyz is not
  // recorded: unknown, not unreachable); its kinds are "not collected" with why (docs/fleet.md).
  const workload: Connection = workloadMissing
    ? { role: 'workload', error: workloadMissing }
    : await connect('workload', cluster.workload ?? {}, snapshot, timeoutMs, true, needsList('workload'));
  const management = distinct
    ? await connect('management', cluster.management ?? {}, snapshot, timeoutMs, false, needsList('management'))
    : workload;
  const capiNamespace = cluster.management?.namespace;

  const jobs: (() => Promise<void>)[] = [];
  const skipped: Record<'workload' | 'management', string[]> = { workload: [], management: [] };
  // Green means checked: every kind is read (listed, or from a watch that is open) or failed, with why.
  const coverage: Record<string, KindCoverage> = {};
  const fail = (spec: KindSpec, why: string) => {
    if (coverage[spec.kind]?.state !== 'failed') coverage[spec.kind] = { state: 'failed', why };
  };
  let cachedKinds = 0;
  for (const spec of KINDS) {
    coverage[spec.kind] = { state: 'read' };
    const targets = sidesOfKind(spec, distinct).map((side) => (side === 'workload' ? workload : management));
    for (const t of targets) {
      // From the watch cache when its watch is open, unless this scan found the API server unreachable
      // (then the kind is reported as not read, exactly as a list scan would). A watch that is not open
      // (relisting, backing off) is not used: its kind is listed now, so no stale cache is ever reported.
      const watched = t.error === undefined ? cache?.find(t.role, spec) : undefined;
      if (watched && covered(t.role, spec)) {
        watched.fill(snapshot);
        cachedKinds += 1;
        continue;
      }
      if (!t.target) {
        skipped[t.role].push(spec.plural);
        fail(spec, `${t.role} API server: ${t.error}`);
        continue;
      }
      const namespace = namespaceOfKind(spec, t.role, capiNamespace);
      const target = t.target;
      jobs.push(async () => {
        const error = await collectKind(target, spec, snapshot, { pageSize, timeoutMs, namespace });
        if (error !== undefined) fail(spec, error);
      });
    }
  }
  await runPool(jobs, CONCURRENCY);
  snapshot.coverage = coverage;
  opts.onCollected?.({ cluster: cluster.name, cachedKinds, listedKinds: jobs.length });
  for (const t of distinct ? [workload, management] : [workload]) {
    if (!t.target)
      snapshot.partial.push({
        source: `${t.role} API server`,
        error: `${t.error} — not read: ${skipped[t.role].join(', ')}`,
      });
  }

  if (cluster.fleet?.credentials === 'capi-admin-secret' && cluster.workload) {
    snapshot.partial.push({
      source: 'workload credentials',
      error:
        "read with Cluster API's admin kubeconfig Secret (fleet credentials: capi-admin-secret): for labs only — run `k8s-health enroll` for a read-only credential (docs/fleet.md)",
    });
  }
  if (cluster.etcd) {
    try {
      const r = await collectEtcd(cluster.etcd);
      if (r.etcd) snapshot.etcd = r.etcd;
      snapshot.partial.push(...r.partial);
    } catch (err) {
      snapshot.partial.push({ source: `etcd ${cluster.etcd.endpoints.join(',')}`, error: describeError(err) });
    }
  }
  // One namespace often holds several clusters: keep only this cluster's management objects.
  scopeSnapshot(snapshot, {
    configured: cluster.management?.clusterName,
    discovered: cluster.fleet?.clusterName,
    hints: [cluster.name],
    what: `cluster ${cluster.name}`,
    fix: 'set management.clusterName to the Cluster this cluster is (docs/fleet.md "Scoping")',
  });
  sortSnapshot(snapshot);
  return snapshot;
}

interface Connection {
  role: 'workload' | 'management';
  target?: KubeTarget;
  error?: string;
}

/**
 * Load the kubeconfig and check the API server answers (workload: /readyz?verbose, recorded as
 * snapshot.apiserver; both: discovery). An unreachable server yields no target and an error.
 */
async function connect(
  role: Connection['role'],
  ref: KubeContextRef,
  snapshot: Snapshot,
  timeoutMs: number | undefined,
  recordReadyz: boolean,
  discover = true,
): Promise<Connection> {
  let kc;
  try {
    kc = loadKubeConfig(ref);
  } catch (err) {
    const error = describeError(err);
    if (recordReadyz) snapshot.apiserver = { reachable: false, checks: [], error };
    return { role, error };
  }
  if (recordReadyz) {
    snapshot.apiserver = await collectReadyz(kc, timeoutMs);
    if (!snapshot.apiserver.reachable) return { role, error: snapshot.apiserver.error ?? 'unreachable' };
  }
  if (!discover) return { role, target: { role, kc } };
  try {
    return { role, target: { role, kc, served: await collectServedVersions(kc, timeoutMs) } };
  } catch (err) {
    if (isUnreachable(err)) return { role, error: (err as KubeError).message };
    // Discovery refused or garbled but the server answers: try each kind's versions in turn.
    const entry: PartialEntry = { source: `${role} API discovery`, error: describeError(err) };
    snapshot.partial.push(entry);
    return { role, target: { role, kc } };
  }
}

async function runPool(jobs: (() => Promise<void>)[], size: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(size, jobs.length) }, worker));
}
