import type { PodProjection, Snapshot } from '../../cluster/snapshot.js';

/**
 * The pods behind a Service: its namespace, and every key of `spec.selector` (a plain map, unlike
 * label selectors) equal on the pod. A Service without a selector (manual Endpoints) has none we can tell.
 */
export function findServiceBackends(snapshot: Snapshot, svc: { namespace: string; name: string }): PodProjection[] {
  const service = snapshot.services.find(
    (s) => s.metadata?.namespace === svc.namespace && s.metadata?.name === svc.name,
  );
  const selector = service?.spec?.selector;
  if (!selector || typeof selector !== 'object' || Array.isArray(selector)) return [];
  const entries = Object.entries(selector as Record<string, unknown>);
  if (!entries.length) return [];
  return snapshot.pods.filter(
    (p) => p.namespace === svc.namespace && entries.every(([k, v]) => p.labels?.[k] === String(v)),
  );
}
