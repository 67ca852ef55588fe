import type { PodProjection } from '../../cluster/snapshot.js';

/**
 * The per-node agent DaemonSets of common CNIs: antrea and calico (seed 003, vSphere/Tanzu), and the
 * ones real captures show (the real-capture corpus): weave-net (kURL), kindnet (kind), flannel, cilium, canal.
 */
export const CNI_DAEMONSETS: ReadonlySet<string> = new Set([
  'antrea-agent',
  'calico-node',
  'weave-net',
  'kindnet',
  'kube-flannel-ds',
  'kube-flannel',
  'cilium',
  'canal',
]);

/** Labels the CNIs' manifests put on their agent pods. */
const CNI_LABELS: readonly [string, string][] = [
  ['component', 'antrea-agent'],
  ['k8s-app', 'calico-node'],
  ['name', 'weave-net'],
  ['app', 'kindnet'],
  ['k8s-app', 'kindnet'],
  ['app', 'flannel'],
  ['k8s-app', 'flannel'],
  ['k8s-app', 'cilium'],
  ['k8s-app', 'canal'],
];

const NAME = /^(antrea-agent|calico-node|weave-net|kindnet|kube-flannel-ds|cilium|canal)-[a-z0-9]{5}$/;

/**
 * A per-node CNI agent pod (antrea-agent, calico-node, …), by label, by its DaemonSet, or by the DaemonSet's pod-name
 * prefix.
 */
export function isCniAgentPod(pod: PodProjection): boolean {
  return cniDaemonSetOf(pod) !== undefined;
}

/** The CNI agent DaemonSet a pod belongs to ("calico-node"), or undefined when it is not a CNI agent. */
export function cniDaemonSetOf(pod: PodProjection): string | undefined {
  const owner = pod.ownerReferences?.find((o) => o.kind === 'DaemonSet');
  if (owner && CNI_DAEMONSETS.has(owner.name)) return owner.name;
  const l = pod.labels ?? {};
  const byLabel = CNI_LABELS.find(([k, v]) => l[k] === v);
  if (byLabel) return byLabel[1] === 'flannel' ? 'kube-flannel-ds' : byLabel[1];
  return NAME.exec(pod.name)?.[1];
}
