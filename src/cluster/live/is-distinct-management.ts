import type { ClusterConfig } from '../../config/config-schema.js';

/** A separate management cluster is configured when it names its own kubeconfig or context. */
export function isDistinctManagement(cluster: ClusterConfig): boolean {
  const m = cluster.management;
  if (!m || (!m.kubeconfig && !m.context)) return false;
  const w = cluster.workload ?? {};
  return (m.kubeconfig ?? '') !== (w.kubeconfig ?? '') || (m.context ?? '') !== (w.context ?? '');
}
