import type { EventProjection, PodProjection } from '../../cluster/snapshot.js';

/**
 * Container states that mean the pod is not working whatever its phase says (defect
 * class 10): a Running pod whose container is in CrashLoopBackOff, or a Pending one that cannot pull its image.
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
export function findPodTrouble(pod: PodProjection, seen?: PodTroubleContext): PodTrouble | undefined {
  if (pod.deletionTimestamp) return undefined;
  const creating = seen && findStuckCreating(pod, seen);
  if (creating) return creating;
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

/** What a capture says besides the pod: its time (ISO, '' when unknown) and its events. */
export interface PodTroubleContext {
  at: string;
  events: EventProjection[];
}

/** A pod still creating its containers this long after it was bound to a node is stuck, not starting. */
export const STUCK_CREATING_MINUTES = 10;

/** Kubelet warnings that say why a bound pod cannot start its containers. */
const CREATE_FAILURES = new Set(['FailedMount', 'FailedAttachVolume', 'FailedCreatePodSandBox']);

/**
 * A Pending pod bound to a node whose containers wait in ContainerCreating / PodInitializing, either
 * for longer than STUCK_CREATING_MINUTES since it was scheduled, or with a kubelet warning (FailedMount,
 * FailedAttachVolume, FailedCreatePodSandBox) about it in the events. The troubleshoot project's real
 * capture: a DaemonSet pod on minikube ContainerCreating for 5h50m, 178 FailedMount warnings ("hostPath
 * type check failed"), read "1 Pending" on a green workloads line. The most repeated warning says why.
 */
function findStuckCreating(pod: PodProjection, seen: PodTroubleContext): PodTrouble | undefined {
  if (pod.phase !== 'Pending' || !pod.nodeName) return undefined;
  const waiting = pod.containers.find(
    (c) => c.waiting?.reason === 'ContainerCreating' || c.waiting?.reason === 'PodInitializing',
  );
  if (!waiting) return undefined;
  const warnings = seen.events
    .filter(
      (e) =>
        e.type === 'Warning' &&
        CREATE_FAILURES.has(e.reason ?? '') &&
        e.involvedObject.kind === 'Pod' &&
        e.involvedObject.name === pod.name &&
        (e.involvedObject.namespace ?? pod.namespace) === pod.namespace,
    )
    .filter((e) => !pod.uid || !e.involvedObject.uid || e.involvedObject.uid === pod.uid)
    // The most repeated warning first (the kubelet's own error, not its "timed out waiting"), then the newest.
    .sort((a, b) => b.count - a.count || (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''));
  const since =
    pod.conditions.find((c) => c.type === 'PodScheduled' && c.status === 'True')?.lastTransitionTime ??
    pod.creationTimestamp;
  const minutes = since && seen.at ? (Date.parse(seen.at) - Date.parse(since)) / 60000 : NaN;
  if (!(minutes >= STUCK_CREATING_MINUTES) && !warnings.length) return undefined;
  const trouble: PodTrouble = {
    reason: waiting.waiting!.reason!,
    container: waiting.name,
    restarts: waiting.restartCount,
  };
  if (since) trouble.since = since;
  const top = warnings[0];
  if (top?.message) trouble.message = `${top.reason} x${top.count}: ${top.message}`;
  return trouble;
}

/**
 * "velero/velero-6996dd565b-xl44t: container velero CrashLoopBackOff (3 restarts)";
 * "default/web-1: Unschedulable since 2025-09-11T20:50:19Z (0/1 nodes are available: 1 Insufficient cpu)".
 */
export function describePodTrouble(pod: PodProjection, t: PodTrouble): string {
  // Unschedulable and stuck creating carry since when, and why: the scheduler's verdict (its preemption
  // part left out) or the kubelet's most repeated warning (its first line).
  const why = t.message
    ? clip(
        t.container === undefined
          ? t.message
              .split(/\.\s+preemption:/)[0]!
              .trim()
              .replace(/\.$/, '')
          : t.message.split('\n')[0]!,
      )
    : '';
  const since = t.since ? ` since ${t.since}${why ? ` (${why})` : ''}` : '';
  if (t.container === undefined) return `${pod.namespace}/${pod.name}: ${t.reason}${since || (why ? ` (${why})` : '')}`;
  const restarts = t.restarts ? ` (${t.restarts} restart${t.restarts === 1 ? '' : 's'})` : '';
  return `${pod.namespace}/${pod.name}: container ${t.container} ${t.reason}${restarts}${since}`;
}

/** At most 160 characters of a cluster-written reason. */
function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
