import type { PodProjection } from '../../cluster/snapshot.js';

/**
 * Container states that mean the pod is not working whatever its phase says (issue 13 defect class
 * 10): a Running pod whose container is in CrashLoopBackOff, or a Pending one that cannot pull its image.
 */
export const FAILING_WAITING_REASONS: ReadonlySet<string> = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

/**
 * Why a pod is not healthy: its first container (init containers first) waiting in a failing state, or
 * the pod itself Pending because the scheduler found no node for it (reason "Unschedulable", no container).
 */
export interface PodTrouble {
  /** The waiting reason, e.g. "CrashLoopBackOff", or "Unschedulable". */
  reason: string;
  /** The failing container; absent when the pod itself is the trouble (Unschedulable). */
  container?: string;
  restarts: number;
  message?: string;
  /** Unschedulable: since when (the PodScheduled condition's lastTransitionTime). */
  since?: string;
}

/**
 * The pod's trouble, or undefined when no container waits in a failing state and the scheduler did
 * not refuse it (a Terminating pod is not judged here). Unschedulable is the scheduler's own verdict
 * (PodScheduled False, reason Unschedulable: it tried every node and none fits), not a pod merely
 * waiting its turn: the sonobuoy capture's four coredns pods, Pending for a day on a NotReady taint,
 * were counted as plain "Pending" on a green workloads line.
 */
export function findPodTrouble(pod: PodProjection): PodTrouble | undefined {
  if (pod.deletionTimestamp) return undefined;
  // A pod bound to a node (nodeName set) is past the scheduler, whatever a stale condition says.
  if (pod.phase === 'Pending' && !pod.nodeName) {
    const scheduled = pod.conditions.find((c) => c.type === 'PodScheduled');
    if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
      const trouble: PodTrouble = { reason: 'Unschedulable', restarts: 0 };
      if (scheduled.message) trouble.message = scheduled.message;
      if (scheduled.lastTransitionTime) trouble.since = scheduled.lastTransitionTime;
      return trouble;
    }
  }
  for (const c of pod.containers) {
    const reason = c.waiting?.reason;
    if (typeof reason !== 'string' || !FAILING_WAITING_REASONS.has(reason)) continue;
    const trouble: PodTrouble = { reason, container: c.name, restarts: c.restartCount };
    if (typeof c.waiting?.message === 'string' && c.waiting.message) trouble.message = c.waiting.message;
    return trouble;
  }
  return undefined;
}

/**
 * "velero/velero-6996dd565b-xl44t: container velero CrashLoopBackOff (3 restarts)";
 * "default/web-1: Unschedulable since 2025-09-11T20:50:19Z (0/1 nodes are available: 1 Insufficient cpu)".
 */
export function describePodTrouble(pod: PodProjection, t: PodTrouble): string {
  if (t.container === undefined) {
    const why = t.message ? firstSentence(t.message) : '';
    return `${pod.namespace}/${pod.name}: ${t.reason}${t.since ? ` since ${t.since}` : ''}${why ? ` (${why})` : ''}`;
  }
  return `${pod.namespace}/${pod.name}: container ${t.container} ${t.reason}${t.restarts ? ` (${t.restarts} restart${t.restarts === 1 ? '' : 's'})` : ''}`;
}

/** The scheduler's verdict without its preemption part: "0/3 nodes are available: 3 Insufficient cpu". */
function firstSentence(message: string): string {
  const head = message.split(/\.\s+preemption:/)[0]?.trim() ?? message;
  const cut = head.replace(/\.$/, '');
  return cut.length > 160 ? `${cut.slice(0, 157)}...` : cut;
}
