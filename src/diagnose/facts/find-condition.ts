import type { KubeObject } from '../../cluster/snapshot.js';

/** One status condition, in the shape shared by core, CAPI v1beta1 and CAPI v1beta2 objects. */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  /** CAPI v1beta1 only: Error | Warning | Info. */
  severity?: string;
  lastTransitionTime?: string;
}

/**
 * The condition `type` of an object, wherever its API version keeps it: status.conditions
 * (core objects, CAPI v1beta1 and v1beta2), else status.deprecated.v1beta1.conditions (CAPI
 * v1beta2 keeps the old ones there, e.g. a Machine's NodeHealthy next to v1beta2 NodeReady),
 * else status.v1beta2.conditions (CAPI v1beta1 objects served by a v1.9+ controller).
 * Missing status or malformed entries give undefined, never a throw.
 */
export function findCondition(obj: KubeObject | undefined, type: string): Condition | undefined {
  const status = obj?.status;
  if (!status || typeof status !== 'object') return undefined;
  const lists: unknown[] = [status.conditions, status.deprecated?.v1beta1?.conditions, status.v1beta2?.conditions];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const hit = list.find((c) => c && typeof c === 'object' && c.type === type);
    if (hit) return { ...hit, status: String(hit.status ?? 'Unknown') } as Condition;
  }
  return undefined;
}
