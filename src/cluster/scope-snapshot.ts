import {
  capiClustersOf,
  chooseCapiCluster,
  type CapiClusterRef,
  type CapiClusterRequest,
} from './choose-capi-cluster.js';
import { scopeToCluster } from './scope-to-cluster.js';
import type { Snapshot } from './snapshot.js';

/**
 * Narrow a freshly read snapshot's management side to the Cluster it stands for (chooseCapiCluster,
 * then scopeToCluster), in place; the Cluster chosen, or undefined when the management side holds
 * none (nothing to narrow). Every reader calls it — live scans (listed or from the watch cache) and
 * dumps — so no report, finding or proposal of one cluster is built from a neighbour's objects.
 */
export function scopeSnapshot(snapshot: Snapshot, req: CapiClusterRequest): CapiClusterRef | undefined {
  const ref = chooseCapiCluster(snapshot, req);
  if (!ref) return undefined;
  const known = capiClustersOf(snapshot);
  scopeToCluster(
    snapshot,
    ref,
    known.every((c) => c.name === ref.name),
  );
  return ref;
}
