import type { ClusterConfig } from '../config/config-schema.js';
import { collectEtcd } from './collect-etcd.js';
import { collectKind, type KubeTarget } from './collect-kind.js';
import { collectReadyz } from './collect-readyz.js';
import { collectServedVersions } from './collect-served-versions.js';
import { KINDS } from './kinds.js';
import { isUnreachable, KubeError } from './kube-error.js';
import { loadKubeConfig, type KubeContextRef } from './load-kube-config.js';
import { createEmptySnapshot, type PartialEntry, type Snapshot } from './snapshot.js';
import { sortSnapshot } from './sort-snapshot.js';

export interface CollectOptions {
  /** Clock, for collectedAt. */
  now?: () => Date;
  /** Page size for list calls (default 500). */
  pageSize?: number;
  /** Deadline of each API request (default 15 s). */
  requestTimeoutMs?: number;
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
  const snapshot = createEmptySnapshot(cluster.name, now().toISOString(), 'live');
  const timeoutMs = opts.requestTimeoutMs;
  const pageSize = opts.pageSize ?? 500;

  const workload = await connect('workload', cluster.workload ?? {}, snapshot, timeoutMs, true);
  const distinct = isDistinctManagement(cluster);
  const management = distinct ? await connect('management', cluster.management ?? {}, snapshot, timeoutMs, false) : workload;
  const capiNamespace = cluster.management?.namespace;

  const jobs: (() => Promise<void>)[] = [];
  const skipped: Record<'workload' | 'management', string[]> = { workload: [], management: [] };
  for (const spec of KINDS) {
    const targets = spec.cluster === 'workload' ? [workload] : spec.cluster === 'management' ? [management] : distinct ? [workload, management] : [workload];
    for (const t of targets) {
      if (!t.target) {
        skipped[t.role].push(spec.plural);
        continue;
      }
      const onManagement = t.role === 'management' || spec.cluster === 'management';
      const namespace = onManagement && capiNamespace ? capiNamespace : undefined;
      const target = t.target;
      jobs.push(() => collectKind(target, spec, snapshot, { pageSize, timeoutMs, namespace }));
    }
  }
  await runPool(jobs, CONCURRENCY);
  for (const t of distinct ? [workload, management] : [workload]) {
    if (!t.target) snapshot.partial.push({ source: `${t.role} API server`, error: `${t.error} — not read: ${skipped[t.role].join(', ')}` });
  }

  if (cluster.etcd) {
    try {
      const r = await collectEtcd(cluster.etcd);
      if (r.etcd) snapshot.etcd = r.etcd;
      snapshot.partial.push(...r.partial);
    } catch (err) {
      snapshot.partial.push({ source: `etcd ${cluster.etcd.endpoints.join(',')}`, error: err instanceof Error ? err.message : String(err) });
    }
  }
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
async function connect(role: Connection['role'], ref: KubeContextRef, snapshot: Snapshot, timeoutMs: number | undefined, recordReadyz: boolean): Promise<Connection> {
  let kc;
  try {
    kc = loadKubeConfig(ref);
  } catch (err) {
    const error = (err as Error).message;
    if (recordReadyz) snapshot.apiserver = { reachable: false, checks: [], error };
    return { role, error };
  }
  if (recordReadyz) {
    snapshot.apiserver = await collectReadyz(kc, timeoutMs);
    if (!snapshot.apiserver.reachable) return { role, error: snapshot.apiserver.error ?? 'unreachable' };
  }
  try {
    return { role, target: { role, kc, served: await collectServedVersions(kc, timeoutMs) } };
  } catch (err) {
    if (isUnreachable(err)) return { role, error: (err as KubeError).message };
    // Discovery refused or garbled but the server answers: try each kind's versions in turn.
    const entry: PartialEntry = { source: `${role} API discovery`, error: err instanceof Error ? err.message : String(err) };
    snapshot.partial.push(entry);
    return { role, target: { role, kc } };
  }
}

/** A separate management cluster is configured when it names its own kubeconfig or context. */
function isDistinctManagement(cluster: ClusterConfig): boolean {
  const m = cluster.management;
  if (!m || (!m.kubeconfig && !m.context)) return false;
  const w = cluster.workload ?? {};
  return (m.kubeconfig ?? '') !== (w.kubeconfig ?? '') || (m.context ?? '') !== (w.context ?? '');
}

async function runPool(jobs: (() => Promise<void>)[], size: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(size, jobs.length) }, worker));
}
