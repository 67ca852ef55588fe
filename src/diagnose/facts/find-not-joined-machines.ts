import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { isControlPlaneNode } from './is-control-plane-node.js';
import { machineInfo } from './machine-info.js';

/** A control-plane Machine that runs but whose Node never became a control-plane member (seed S2). */
export interface NotJoinedMachine {
  machine: KubeObject;
  node: KubeObject;
  reasons: string[];
}

/**
 * Control-plane Machines Running with a nodeRef whose Node lacks the control-plane role label, or
 * has no etcd-<node> static pod in kube-system while other control-plane nodes have one (stacked
 * etcd). Nodes absent from the snapshot are not judged (no workload data).
 */
export function findNotJoinedMachines(snapshot: Snapshot): NotJoinedMachine[] {
  const etcdPods = new Set(
    snapshot.pods.filter((p) => p.namespace === 'kube-system' && p.name.startsWith('etcd-')).map((p) => p.name),
  );
  const out: NotJoinedMachine[] = [];
  for (const m of snapshot.capi.machines) {
    const i = machineInfo(m);
    if (!i.controlPlane || i.deleting || i.phase !== 'Running' || !i.nodeName) continue;
    const node = snapshot.nodes.find((n) => n.metadata.name === i.nodeName);
    if (!node) continue;
    const reasons: string[] = [];
    if (!isControlPlaneNode(node))
      reasons.push(`Node ${i.nodeName} has no node-role.kubernetes.io/control-plane label (ROLES <none>)`);
    if (etcdPods.size > 0 && !etcdPods.has(`etcd-${i.nodeName}`))
      reasons.push(`no pod kube-system/etcd-${i.nodeName} (other control-plane nodes run one)`);
    if (reasons.length) out.push({ machine: m, node, reasons });
  }
  return out;
}
