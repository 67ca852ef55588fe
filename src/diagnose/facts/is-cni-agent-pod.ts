import type { PodProjection } from '../../cluster/snapshot.js';

/**
 * The per-node CNI agent pods of the supported CNIs (seed 003: antrea or calico): antrea-agent and
 * calico-node DaemonSet pods, by label or by the DaemonSet's pod-name prefix.
 */
export function isCniAgentPod(pod: PodProjection): boolean {
  const l = pod.labels ?? {};
  if (l['component'] === 'antrea-agent' || l['k8s-app'] === 'calico-node') return true;
  const owner = pod.ownerReferences?.find((o) => o.kind === 'DaemonSet');
  if (owner && (owner.name === 'antrea-agent' || owner.name === 'calico-node')) return true;
  return /^(antrea-agent|calico-node)-[a-z0-9]{5}$/.test(pod.name);
}
