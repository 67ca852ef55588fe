import type { KubeObject, PodProjection, Snapshot } from '../../cluster/snapshot.js';
import { matchesLabelSelector } from './matches-label-selector.js';

/** A PodDisruptionBudget that allows no disruption of pods on a node: a drain of that node waits on it. */
export interface BlockingPdb {
  pdb: KubeObject;
  namespace: string;
  name: string;
  /** status.disruptionsAllowed (0 here), currentHealthy, desiredHealthy, expectedPods as the budget reports them. */
  disruptionsAllowed: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  expectedPods?: number;
  /** spec.minAvailable / spec.maxUnavailable as written ("1", "50%"). */
  minAvailable?: string;
  maxUnavailable?: string;
  /** The pods on the node it covers, "namespace/name". */
  pods: string[];
}

/**
 * Pods a drain of `nodeName` must evict (Cluster API's drain skips DaemonSet pods, mirror pods and pods
 * already being deleted, CAPI book "Node drain"), and the PodDisruptionBudgets in their namespace whose
 * selector matches them with `status.disruptionsAllowed: 0`: every eviction of those pods is refused
 * with "Cannot evict pod as it would violate the pod's disruption budget". A budget whose status was
 * never computed (no `disruptionsAllowed`) proves nothing and is left out. Sorted by namespace/name.
 */
export function findBlockingPdbs(snapshot: Snapshot, nodeName: string): BlockingPdb[] {
  const pods = snapshot.pods.filter((p) => p.nodeName === nodeName && isEvictable(p));
  const out: BlockingPdb[] = [];
  for (const pdb of snapshot.podDisruptionBudgets) {
    const allowed = pdb.status?.disruptionsAllowed;
    if (typeof allowed !== 'number' || allowed > 0) continue;
    const ns = pdb.metadata.namespace ?? 'default';
    // An empty selector selects every pod of the namespace in policy/v1; an absent one selects none.
    if (!pdb.spec || !pdb.spec.selector || typeof pdb.spec.selector !== 'object') continue;
    const covered = pods.filter((p) => p.namespace === ns && matchesLabelSelector(pdb.spec.selector, p.labels));
    if (!covered.length) continue;
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    const str = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? String(v) : undefined);
    const b: BlockingPdb = {
      pdb,
      namespace: ns,
      name: pdb.metadata.name,
      disruptionsAllowed: allowed,
      pods: covered.map((p) => `${p.namespace}/${p.name}`).sort(),
    };
    const set = <K extends keyof BlockingPdb>(k: K, v: BlockingPdb[K] | undefined) => {
      if (v !== undefined) b[k] = v;
    };
    set('currentHealthy', num(pdb.status?.currentHealthy));
    set('desiredHealthy', num(pdb.status?.desiredHealthy));
    set('expectedPods', num(pdb.status?.expectedPods));
    set('minAvailable', str(pdb.spec.minAvailable));
    set('maxUnavailable', str(pdb.spec.maxUnavailable));
    out.push(b);
  }
  return out.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

/**
 * A pod a drain evicts: not owned by a DaemonSet, not a mirror pod (owned by its Node), not already terminating or
 * finished.
 */
export function isEvictable(p: PodProjection): boolean {
  if (p.deletionTimestamp) return false;
  if (p.phase === 'Succeeded' || p.phase === 'Failed') return false;
  return !(p.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet' || o.kind === 'Node');
}

/**
 * One evidence line for a budget: `PodDisruptionBudget shop/db: minAvailable=2, disruptionsAllowed=0 (currentHealthy 2,
 * desiredHealthy 2, expectedPods 2), covers shop/db-0 on the node`.
 */
export function describeBlockingPdb(b: BlockingPdb, nodeName: string): string {
  const spec = [
    b.minAvailable !== undefined ? `minAvailable=${b.minAvailable}` : '',
    b.maxUnavailable !== undefined ? `maxUnavailable=${b.maxUnavailable}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const counts = [
    b.currentHealthy !== undefined ? `currentHealthy ${b.currentHealthy}` : '',
    b.desiredHealthy !== undefined ? `desiredHealthy ${b.desiredHealthy}` : '',
    b.expectedPods !== undefined ? `expectedPods ${b.expectedPods}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `PodDisruptionBudget ${b.namespace}/${b.name}: ${spec ? `${spec}, ` : ''}status.disruptionsAllowed=${b.disruptionsAllowed}${counts ? ` (${counts})` : ''}; covers ${b.pods.join(', ')} on node ${nodeName}`;
}
