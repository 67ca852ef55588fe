import type { PodProjection, Snapshot } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';

/** A pod Terminating past its grace period plus the threshold, on an unreachable node. */
export interface StuckTerminatingPod {
  pod: PodProjection;
  /** deletionTimestamp + deletionGracePeriodSeconds (ms since epoch). */
  overdueSinceMs: number;
  /** Minutes past overdueSince. */
  overdueMinutes: number;
  /** Why the node cannot finish the deletion: "Node x Ready=Unknown", "Node x not found", "reason NodeLost". */
  nodeState: string;
}

/**
 * Seed 004: pods on a powered-off node are marked for deletion ~5 min after it goes NotReady and
 * then stay Terminating forever (reason NodeLost on older clusters, plain Terminating on newer ones).
 * A pod counts when now > deletionTimestamp + deletionGracePeriodSeconds + `graceMinutes` AND its
 * node is NotReady/Unknown, absent, or the pod says NodeLost. Terminating within grace is benign.
 */
export function findStuckTerminatingPods(
  snapshot: Snapshot,
  opts: { graceMinutes: number; now: Date },
): StuckTerminatingPod[] {
  const out: StuckTerminatingPod[] = [];
  for (const pod of snapshot.pods) {
    if (!pod.deletionTimestamp) continue;
    const deletion = Date.parse(pod.deletionTimestamp);
    if (Number.isNaN(deletion)) continue;
    const grace =
      typeof pod.deletionGracePeriodSeconds === 'number' && Number.isFinite(pod.deletionGracePeriodSeconds)
        ? pod.deletionGracePeriodSeconds
        : 0;
    const overdueSinceMs = deletion + grace * 1000;
    // Beyond what a Date can hold (a grace of 1e13 s): never overdue, and not a crash.
    if (!(Math.abs(overdueSinceMs) <= 8.64e15)) continue;
    const overdueMinutes = Math.max(0, opts.now.getTime() - overdueSinceMs) / 60000;
    if (overdueMinutes <= opts.graceMinutes) continue;
    const node = pod.nodeName ? snapshot.nodes.find((n) => n.metadata?.name === pod.nodeName) : undefined;
    const ready = node ? findCondition(node, 'Ready') : undefined;
    let nodeState: string | undefined;
    if (pod.reason === 'NodeLost') nodeState = `pod status.reason=NodeLost${pod.message ? ` "${pod.message}"` : ''}`;
    else if (node && ready && ready.status !== 'True')
      nodeState = `Node ${pod.nodeName} Ready=${ready.status}${ready.reason ? ` (${ready.reason})` : ''}`;
    else if (pod.nodeName && !node && snapshot.nodes.length > 0) nodeState = `Node ${pod.nodeName} not found`;
    if (!nodeState) continue;
    out.push({ pod, overdueSinceMs, overdueMinutes, nodeState });
  }
  return out.sort((a, b) => `${a.pod.namespace}/${a.pod.name}`.localeCompare(`${b.pod.namespace}/${b.pod.name}`));
}
