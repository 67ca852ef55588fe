import type { Snapshot } from '../../cluster/snapshot.js';
import { isControlPlaneNode } from './is-control-plane-node.js';
import { isSystemNamespace } from './is-system-namespace.js';
import { machineInfo } from './machine-info.js';

/** A customer Deployment's memory requests on control-plane nodes. */
export interface MemoryHog {
  namespace: string;
  deployment: string;
  bytes: number;
  nodes: string[];
  replicas?: number;
}

/**
 * Customer Deployments ranked by memory requested on control-plane nodes (seed S2: scale them down
 * so the next control-plane node can join etcd in time). System namespaces are never offered.
 */
export function findControlPlaneMemoryHogs(snapshot: Snapshot): MemoryHog[] {
  const cpNodes = new Set<string>(snapshot.nodes.filter(isControlPlaneNode).map((n) => n.metadata.name));
  for (const m of snapshot.capi.machines) {
    const i = machineInfo(m);
    if (i.controlPlane && i.nodeName) cpNodes.add(i.nodeName);
  }
  const byKey = new Map<string, MemoryHog>();
  for (const p of snapshot.pods) {
    if (!p.nodeName || !cpNodes.has(p.nodeName) || !p.memoryRequestBytes || isSystemNamespace(p.namespace)) continue;
    const rsName = p.ownerReferences?.find((o) => o.kind === 'ReplicaSet')?.name;
    if (!rsName) continue;
    const rs = snapshot.replicaSets.find((r) => r.metadata.namespace === p.namespace && r.metadata.name === rsName);
    const deployment =
      rs?.metadata.ownerReferences?.find((o) => o.kind === 'Deployment')?.name ??
      rsName.replace(/-[a-z0-9]{5,10}$/, '');
    const key = `${p.namespace}/${deployment}`;
    const hog = byKey.get(key) ?? { namespace: p.namespace, deployment, bytes: 0, nodes: [] };
    hog.bytes += p.memoryRequestBytes;
    if (!hog.nodes.includes(p.nodeName)) hog.nodes.push(p.nodeName);
    byKey.set(key, hog);
  }
  for (const hog of byKey.values()) {
    const d = snapshot.deployments.find(
      (x) => x.metadata.namespace === hog.namespace && x.metadata.name === hog.deployment,
    );
    if (typeof d?.spec?.replicas === 'number') hog.replicas = d.spec.replicas;
  }
  return [...byKey.values()].sort(
    (a, b) => b.bytes - a.bytes || `${a.namespace}/${a.deployment}`.localeCompare(`${b.namespace}/${b.deployment}`),
  );
}
