import type { PodProjection } from '../../cluster/snapshot.js';

const COMPONENTS = new Set(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);

/**
 * A control-plane static pod (kubeadm: kube-system, labels component=<name> tier=control-plane, owned
 * by its Node as a mirror pod): the pods whose trouble the control-plane line names (defect class 10).
 */
export function isControlPlanePod(pod: PodProjection): boolean {
  if (pod.namespace !== 'kube-system') return false;
  const l = pod.labels ?? {};
  if (l['tier'] === 'control-plane' || COMPONENTS.has(l['component'] ?? '')) return true;
  const name = /^(etcd|kube-apiserver|kube-controller-manager|kube-scheduler)-/.exec(pod.name)?.[1];
  return !!name && !!pod.ownerReferences?.some((o) => o.kind === 'Node');
}
