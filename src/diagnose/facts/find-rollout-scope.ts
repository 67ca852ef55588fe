import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { machineInfo } from './machine-info.js';
import { readRolloutStatus } from './read-rollout-status.js';

export type RolloutKind = 'KubeadmControlPlane' | 'MachineDeployment';

/**
 * The Machines a KubeadmControlPlane or MachineDeployment owns (KCP owner/label, MD deployment-name label), same
 * namespace.
 */
export function findOwnedMachines(snapshot: Snapshot, kind: RolloutKind, obj: KubeObject): KubeObject[] {
  const ns = obj.metadata.namespace ?? 'default';
  return snapshot.capi.machines.filter((m) => {
    const i = machineInfo(m);
    return (
      i.namespace === ns &&
      (kind === 'KubeadmControlPlane' ? i.kcpName === obj.metadata.name : i.deploymentName === obj.metadata.name)
    );
  });
}

/**
 * Is a rollout under way or owed: fewer up-to-date replicas than desired (v1beta2 upToDateReplicas,
 * v1beta1 updatedReplicas) or Machines, not being deleted, at another version than the spec. The same
 * test upgrade.stuck starts from.
 */
export function isRolloutPending(snapshot: Snapshot, kind: RolloutKind, obj: KubeObject): boolean {
  const st = readRolloutStatus(obj);
  const behind = st.replicas !== undefined && st.updatedReplicas !== undefined && st.updatedReplicas < st.replicas;
  if (behind) return true;
  return findOwnedMachines(snapshot, kind, obj).some((m) => {
    const i = machineInfo(m);
    return !i.deleting && !!st.version && !!i.version && i.version !== st.version;
  });
}

/**
 * The Cluster an object belongs to (spec.clusterName, the cluster-name label, or a Cluster owner reference), same
 * namespace.
 */
export function findClusterOf(snapshot: Snapshot, obj: KubeObject): KubeObject | undefined {
  const ns = obj.metadata.namespace ?? 'default';
  const name =
    (typeof obj.spec?.clusterName === 'string' ? obj.spec.clusterName : undefined) ??
    obj.metadata.labels?.['cluster.x-k8s.io/cluster-name'] ??
    obj.metadata.ownerReferences?.find((r) => r.kind === 'Cluster')?.name;
  if (!name) return undefined;
  return snapshot.capi.clusters.find((c) => c.metadata.name === name && (c.metadata.namespace ?? 'default') === ns);
}
