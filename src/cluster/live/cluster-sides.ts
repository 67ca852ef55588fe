import type { ClusterConfig } from '../../config/config-schema.js';
import { isDistinctManagement } from './is-distinct-management.js';
import type { Side } from './kind-sides.js';

/** Which API servers of a cluster the bot reads, and why the workload one is not read when it is not. */
export interface ClusterSides {
  /** A separate management cluster holds the Cluster API objects. */
  distinct: boolean;
  /** The sides to connect to. */
  sides: Side[];
  /** Set when the workload cluster is not read at all (a discovered cluster without workload credentials). */
  workloadMissing?: string;
}

/**
 * A configured cluster: the workload cluster, plus the management cluster when a separate one is named.
 * A discovered one (fleet mode, docs/fleet.md): always the fleet's management cluster, and the
 * workload cluster only through its enrolled credentials; without them the workload view is missing
 * (its kinds are "not collected", never healthy) and nothing falls back to the default kubeconfig.
 */
export function clusterSides(cluster: ClusterConfig): ClusterSides {
  if (!cluster.fleet) {
    const distinct = isDistinctManagement(cluster);
    return { distinct, sides: distinct ? ['workload', 'management'] : ['workload'] };
  }
  if (cluster.workload) return { distinct: true, sides: ['workload', 'management'] };
  return {
    distinct: true,
    sides: ['management'],
    workloadMissing: `workload view missing: no workload credentials for ${cluster.name} (run \`k8s-health enroll ${cluster.name}\`; docs/fleet.md)`,
  };
}
