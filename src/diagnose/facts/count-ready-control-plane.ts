import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';
import { isControlPlaneNode } from './is-control-plane-node.js';
import { isNodeReady } from './is-node-ready.js';
import { machineInfo } from './machine-info.js';

/** Ready control-plane members of one KubeadmControlPlane, and how that was judged. */
export interface ControlPlaneReadiness {
  ready: number;
  /** Where the count came from: Node conditions, Machine conditions, or KCP status. */
  source: 'nodes' | 'machines' | 'kcp-status';
  notReady: string[];
}

/**
 * Count Ready control-plane nodes of a KCP: its Machines' Nodes when the snapshot holds them (the
 * truth; Ready and carrying the control-plane role), else the machines' NodeHealthy/NodeReady conditions, else KCP status.readyReplicas.
 */
export function countReadyControlPlane(snapshot: Snapshot, kcp: KubeObject): ControlPlaneReadiness {
  const ns = kcp.metadata.namespace ?? 'default';
  const machines = snapshot.capi.machines.map(machineInfo).filter((i) => i.namespace === ns && i.kcpName === kcp.metadata.name && !i.deleting);
  const nodes = machines.map((i) => (i.nodeName ? snapshot.nodes.find((n) => n.metadata.name === i.nodeName) : undefined));
  if (snapshot.nodes.length > 0 && machines.length > 0) {
    // Seed S2: a Ready node without the control-plane role never joined: it does not count.
    const joined = (n: KubeObject | undefined) => !!n && isNodeReady(n) && isControlPlaneNode(n);
    const notReady = machines.filter((_, k) => !joined(nodes[k])).map((i) => i.nodeName ?? `${i.name} (no Node)`);
    return { ready: machines.length - notReady.length, source: 'nodes', notReady };
  }
  if (machines.length > 0) {
    const raw = snapshot.capi.machines.filter((m) => machines.some((i) => i.name === m.metadata.name && i.namespace === (m.metadata.namespace ?? 'default')));
    const ok = raw.filter((m) => (findCondition(m, 'NodeHealthy') ?? findCondition(m, 'NodeReady'))?.status === 'True');
    return { ready: ok.length, source: 'machines', notReady: raw.filter((m) => !ok.includes(m)).map((m) => m.metadata.name) };
  }
  const r = kcp.status?.readyReplicas ?? kcp.status?.deprecated?.v1beta1?.readyReplicas;
  return { ready: typeof r === 'number' ? r : 0, source: 'kcp-status', notReady: [] };
}
