import type { KubeObject } from '../../cluster/snapshot.js';

/** A Node with the control-plane role label (or the pre-1.24 `master` one). */
export function isControlPlaneNode(node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {};
  return 'node-role.kubernetes.io/control-plane' in labels || 'node-role.kubernetes.io/master' in labels;
}
