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
 * The condition `type` of an object, wherever its API version keeps it, v1beta2 shapes first
 * (v1beta2 is the storage version since CAPI v1.11, v1beta1 the fallback):
 * - an object served as CAPI v1beta1 (apiVersion `…/v1beta1`) by a v1.9+ controller keeps the new
 *   conditions in status.v1beta2.conditions: read those first, then its own status.conditions;
 * - any other object (core objects, CAPI v1beta2, hand-made dumps without apiVersion): status.conditions,
 *   then status.deprecated.v1beta1.conditions (where v1beta2 keeps the old ones, e.g. a Machine's
 *   NodeHealthy next to v1beta2 NodeReady), then status.v1beta2.conditions.
 * Same-named types differ between versions (a v1beta2 Machine `Ready` also covers deletion and
 * readiness gates), which is why the order matters. Missing status or malformed entries give
 * undefined, never a throw.
 */
export function findCondition(obj: KubeObject | undefined, type: string): Condition | undefined {
  const status = obj?.status;
  if (!status || typeof status !== 'object') return undefined;
  const servedAsV1beta1 = typeof obj?.apiVersion === 'string' && obj.apiVersion.endsWith('/v1beta1');
  const lists: unknown[] = servedAsV1beta1
    ? [status.v1beta2?.conditions, status.conditions]
    : [status.conditions, status.deprecated?.v1beta1?.conditions, status.v1beta2?.conditions];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    const hit = list.find((c) => c && typeof c === 'object' && c.type === type);
    if (hit) return { ...hit, status: String(hit.status ?? 'Unknown') } as Condition;
  }
  return undefined;
}
