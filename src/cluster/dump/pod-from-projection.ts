import type { KubeObject, PodProjection } from '../snapshot.js';

/**
 * Rebuild a minimal Pod from its projection, for the dump writer: `projectPod(podFromProjection(p))`
 * deep-equals `p` (proved by a property test). Only fields the projection keeps are restored;
 * the summed memory request goes on the first container.
 */
export function podFromProjection(p: PodProjection): KubeObject {
  const metadata: KubeObject['metadata'] = { name: p.name, namespace: p.namespace };
  if (p.uid !== undefined) metadata.uid = p.uid;
  if (p.creationTimestamp !== undefined) metadata.creationTimestamp = p.creationTimestamp;
  if (p.deletionTimestamp !== undefined) metadata.deletionTimestamp = p.deletionTimestamp;
  if (p.deletionGracePeriodSeconds !== undefined) metadata.deletionGracePeriodSeconds = p.deletionGracePeriodSeconds;
  if (p.labels !== undefined) metadata.labels = { ...p.labels };
  if (p.ownerReferences !== undefined) metadata.ownerReferences = p.ownerReferences.map((o) => ({ ...o }));

  const containers: Record<string, unknown>[] = p.containers.map((c) => ({ name: c.name }));
  if (p.memoryRequestBytes !== undefined) {
    if (containers.length === 0) containers.push({ name: 'main' });
    (containers[0] as Record<string, unknown>).resources = { requests: { memory: quantity(p.memoryRequestBytes) } };
  }
  const spec: Record<string, unknown> = { containers };
  if (p.nodeName !== undefined) spec.nodeName = p.nodeName;
  if (p.priorityClassName !== undefined) spec.priorityClassName = p.priorityClassName;
  if (p.pvcNames.length)
    spec.volumes = p.pvcNames.map((claimName, i) => ({ name: `pvc-${i}`, persistentVolumeClaim: { claimName } }));

  const status: Record<string, unknown> = {
    conditions: p.conditions.map((c) => ({ ...c })),
    // Init and regular container statuses were concatenated by projectPod: one list restores the order.
    containerStatuses: p.containers.map((c) => {
      const s: Record<string, unknown> = { name: c.name, ready: c.ready, restartCount: c.restartCount };
      const state: Record<string, unknown> = {};
      if (c.waiting) state.waiting = { ...c.waiting };
      if (c.terminated) state.terminated = { ...c.terminated };
      s.state = state;
      if (c.lastTerminated) s.lastState = { terminated: { ...c.lastTerminated } };
      return s;
    }),
  };
  if (p.phase !== undefined) status.phase = p.phase;
  if (p.reason !== undefined) status.reason = p.reason;
  if (p.message !== undefined) status.message = p.message;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status };
}

/** Bytes as a plain quantity string when it reads back exactly ("536870912"), else the number itself. */
function quantity(bytes: number): string | number {
  const s = String(bytes);
  return /^[0-9.]+$/.test(s) ? s : bytes;
}
