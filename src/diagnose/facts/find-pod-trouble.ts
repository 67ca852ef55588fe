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

/** Why a pod is not healthy: its first container (init containers first) waiting in a failing state. */
export interface PodTrouble {
  /** The waiting reason, e.g. "CrashLoopBackOff". */
  reason: string;
  container: string;
  restarts: number;
  message?: string;
}

/** The pod's trouble, or undefined when no container waits in a failing state (a Terminating pod is not judged here). */
export function findPodTrouble(pod: PodProjection): PodTrouble | undefined {
  if (pod.deletionTimestamp) return undefined;
  for (const c of pod.containers) {
    const reason = c.waiting?.reason;
    if (typeof reason !== 'string' || !FAILING_WAITING_REASONS.has(reason)) continue;
    const trouble: PodTrouble = { reason, container: c.name, restarts: c.restartCount };
    if (typeof c.waiting?.message === 'string' && c.waiting.message) trouble.message = c.waiting.message;
    return trouble;
  }
  return undefined;
}

/** "velero/velero-6996dd565b-xl44t: container velero CrashLoopBackOff (3 restarts)". */
export function describePodTrouble(pod: PodProjection, t: PodTrouble): string {
  return `${pod.namespace}/${pod.name}: container ${t.container} ${t.reason}${t.restarts ? ` (${t.restarts} restart${t.restarts === 1 ? '' : 's'})` : ''}`;
}
