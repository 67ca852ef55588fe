import type { EventProjection, KubeObject, PodProjection, Snapshot } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';

/** A ReadWriteOnce volume held by a dead node while a pod elsewhere waits for it (seed 004). */
export interface HeldVolume {
  /** PersistentVolume name (the name quoted by "Multi-Attach error for volume …"). */
  pvName: string;
  pvc?: { namespace: string; name: string };
  /** Node the volume is still attached to (VolumeAttachment spec.nodeName), when known. */
  node?: string;
  /** Why that node cannot release it: "Ready=Unknown (NodeStatusUnknown)", "not found". */
  nodeState?: string;
  attachment?: KubeObject;
  /** Pods elsewhere waiting for the volume (Pending / ContainerCreating). */
  waitingPods: PodProjection[];
  /** Pods still bound to it on the old node (usually Terminating). */
  holderPods: PodProjection[];
  /** FailedAttachVolume "Multi-Attach error" events. */
  events: EventProjection[];
  since?: string;
}

const MULTI_ATTACH = /Multi-Attach error for volume "([^"]+)"/;

/**
 * Volumes stuck on a dead node: FailedAttachVolume "Multi-Attach error for volume …" events, and/or
 * an attached VolumeAttachment on a NotReady/absent node whose PVC a pod on another node is
 * waiting for. Sorted by PV name.
 */
export function findHeldVolumes(snapshot: Snapshot): HeldVolume[] {
  const byPv = new Map<string, HeldVolume>();
  const entry = (pvName: string) => {
    let h = byPv.get(pvName);
    if (!h) byPv.set(pvName, (h = { pvName, waitingPods: [], holderPods: [], events: [] }));
    return h;
  };
  const pvcOfPv = (pv: string) => snapshot.persistentVolumeClaims.find((c) => c.spec?.volumeName === pv);
  const nodeState = (name: string): string | undefined => {
    const node = snapshot.nodes.find((n) => n.metadata?.name === name);
    if (!node) return snapshot.nodes.length > 0 ? 'not found' : undefined;
    const ready = findCondition(node, 'Ready');
    return ready && ready.status !== 'True'
      ? `Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}`
      : undefined;
  };
  const findPod = (ns?: string, name?: string) =>
    snapshot.pods.find((p) => p.name === name && (!ns || p.namespace === ns));

  for (const ev of snapshot.events) {
    if (ev.reason !== 'FailedAttachVolume') continue;
    const m = MULTI_ATTACH.exec(ev.message ?? '');
    if (!m?.[1]) continue;
    const h = entry(m[1]);
    h.events.push(ev);
    const pod =
      ev.involvedObject.kind === 'Pod'
        ? findPod(ev.involvedObject.namespace ?? ev.namespace, ev.involvedObject.name)
        : undefined;
    if (pod && !h.waitingPods.includes(pod) && pod.phase !== 'Running') h.waitingPods.push(pod);
  }

  for (const va of snapshot.volumeAttachments) {
    const pv = va.spec?.source?.persistentVolumeName;
    const nodeName = va.spec?.nodeName;
    if (typeof pv !== 'string' || typeof nodeName !== 'string' || va.status?.attached !== true) continue;
    const state = nodeState(nodeName);
    const known = byPv.get(pv);
    if (!state && !known) continue;
    const pvc = pvcOfPv(pv);
    const waiting = pvc
      ? snapshot.pods.filter(
          (p) =>
            p.namespace === pvc.metadata.namespace &&
            p.pvcNames.includes(pvc.metadata.name) &&
            p.nodeName !== nodeName &&
            p.phase !== 'Running' &&
            !p.deletionTimestamp,
        )
      : [];
    if (!known && !waiting.length) continue; // attached to a dead node but nobody waits for it: not (yet) a problem
    const h = entry(pv);
    h.attachment = va;
    h.node = nodeName;
    if (state) h.nodeState = state;
    for (const p of waiting) if (!h.waitingPods.includes(p)) h.waitingPods.push(p);
  }

  for (const h of byPv.values()) {
    const pvc = pvcOfPv(h.pvName);
    if (pvc) h.pvc = { namespace: pvc.metadata.namespace ?? 'default', name: pvc.metadata.name };
    if (!h.pvc) {
      const claims = [...new Set(h.waitingPods.flatMap((p) => p.pvcNames.map((c) => `${p.namespace}/${c}`)))];
      if (claims.length === 1) {
        const [namespace, name] = (claims[0] as string).split('/') as [string, string];
        h.pvc = { namespace, name };
      }
    }
    if (h.pvc) {
      const { namespace, name } = h.pvc;
      h.holderPods = snapshot.pods.filter(
        (p) =>
          p.namespace === namespace &&
          p.pvcNames.includes(name) &&
          (p.deletionTimestamp || (h.node && p.nodeName === h.node)),
      );
      if (!h.node) {
        const holder = h.holderPods.find((p) => p.nodeName && nodeState(p.nodeName));
        if (holder?.nodeName) {
          h.node = holder.nodeName;
          const s = nodeState(holder.nodeName);
          if (s) h.nodeState = s;
        }
      }
    }
    const times = [...h.events.map((e) => e.firstTimestamp), ...h.waitingPods.map((p) => p.creationTimestamp)]
      .filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)))
      .sort();
    if (times[0]) h.since = times[0];
  }
  return [...byPv.values()].sort((a, b) => a.pvName.localeCompare(b.pvName));
}
