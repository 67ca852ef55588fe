import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';

/**
 * The Cluster API Machine backing a node: status.nodeRef.name (v1beta1 and v1beta2 both keep
 * nodeRef.name), else a Machine named like the node (vSphere/TKG name nodes after their Machine,
 * and a Machine that lost its nodeRef still points at it that way).
 */
export function findMachineForNode(snapshot: Snapshot, nodeName: string): KubeObject | undefined {
  const machines = snapshot.capi.machines;
  return (
    machines.find((m) => m.status?.nodeRef?.name === nodeName) ?? machines.find((m) => m.metadata?.name === nodeName)
  );
}
