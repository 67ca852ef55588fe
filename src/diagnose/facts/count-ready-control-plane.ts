import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { isControlPlaneNode } from './is-control-plane-node.js';
import { isNodeReady } from './is-node-ready.js';
import { machineInfo } from './machine-info.js';
import { readCapiStatus } from './read-capi-status.js';
import { readMachineHealth } from './read-machine-health.js';

/** Ready control-plane members of one KubeadmControlPlane, and how that was judged. */
export interface ControlPlaneReadiness {
  /** Ready members; undefined when nothing in the snapshot says (never guessed as 0). */
  ready?: number;
  /** Where the count came from: Node conditions, Machine conditions, KCP status, or nowhere. */
  source: 'nodes' | 'machines' | 'kcp-status' | 'unknown';
  notReady: string[];
  /** What the count could not see, one short line each. */
  missing: string[];
}

/**
 * Count Ready control-plane members of a KCP, from the best evidence the snapshot holds:
 * 1. its Machines' Nodes, when the snapshot holds them (the truth: Ready and carrying the
 *    control-plane role — seed S2: a Ready node without the role never joined);
 * 2. else its Machines' own conditions (v1beta2 NodeReady/NodeHealthy/Ready, v1beta1 fallback),
 *    when every Machine reports one;
 * 3. else the KCP's status counter (v1beta2 readyReplicas, v1beta1 readyReplicas as fallback);
 * 4. else unknown. A management-cluster capture without the workload Nodes (the CAPD
 *    quickstart) must never read "0 of 3 Ready".
 */
export function countReadyControlPlane(snapshot: Snapshot, kcp: KubeObject): ControlPlaneReadiness {
  const ns = kcp.metadata.namespace ?? 'default';
  const own = snapshot.capi.machines.filter((m) => {
    const i = machineInfo(m);
    return i.namespace === ns && i.kcpName === kcp.metadata.name && !i.deleting;
  });
  const nodeOf = (m: KubeObject) => {
    const name = machineInfo(m).nodeName;
    return name ? snapshot.nodes.find((n) => n.metadata.name === name) : undefined;
  };
  // Nodes only count as evidence when they are this cluster's: at least one of the KCP's Machines
  // has its Node in the snapshot (a management cluster's own nodes say nothing of a workload KCP).
  // Nor when the workload API server did not answer: Nodes in a capture are then its last known state.
  const nodesCurrent = snapshot.apiserver?.reachable !== false;
  if (nodesCurrent && own.length > 0 && own.some((m) => nodeOf(m))) {
    const joined = (n: KubeObject | undefined) => !!n && isNodeReady(n) && isControlPlaneNode(n);
    const notReady = own
      .filter((m) => !joined(nodeOf(m)))
      .map((m) => machineInfo(m).nodeName ?? `${m.metadata.name} (no Node)`);
    return { ready: own.length - notReady.length, source: 'nodes', notReady, missing: [] };
  }
  const counters = readCapiStatus(kcp).replicas;
  if (own.length > 0) {
    const health = own.map((m) => ({ m, h: readMachineHealth(m) }));
    if (health.every(({ h }) => h.status !== undefined)) {
      const notReady = health.filter(({ h }) => h.status !== 'True').map(({ m }) => m.metadata.name);
      const missing = !nodesCurrent
        ? ['workload API server unreachable, its Nodes are not current: judged from Machine conditions']
        : snapshot.nodes.length
          ? []
          : ['control-plane Nodes not read: judged from Machine conditions'];
      return { ready: own.length - notReady.length, source: 'machines', notReady, missing };
    }
    if (counters.ready !== undefined) {
      const silent = health.filter(({ h }) => h.status === undefined).map(({ m }) => m.metadata.name);
      return {
        ready: counters.ready,
        source: 'kcp-status',
        notReady: [],
        missing: [
          `no Node and no readiness condition for Machine ${silent.join(', ')}: count from KubeadmControlPlane status`,
        ],
      };
    }
    return {
      source: 'unknown',
      notReady: [],
      missing: ['control-plane Nodes not read and Machines report no readiness condition'],
    };
  }
  if (counters.ready !== undefined)
    return {
      ready: counters.ready,
      source: 'kcp-status',
      notReady: [],
      missing: ['control-plane Machines not read: count from KubeadmControlPlane status'],
    };
  return {
    source: 'unknown',
    notReady: [],
    missing: ['control-plane Machines and Nodes not read, and the KubeadmControlPlane reports no readyReplicas'],
  };
}
