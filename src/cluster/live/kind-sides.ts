import type { KindSpec } from '../kinds.js';

/** The two API servers a configured cluster may have. */
export type Side = 'workload' | 'management';

/**
 * The sides a kind is read from: workload kinds from the workload cluster; Cluster API kinds from
 * the management cluster when a separate one is configured (else the workload cluster holds them);
 * events from both. One rule for the list scan (collect-snapshot.ts) and the watch cache.
 */
export function sidesOfKind(spec: KindSpec, distinct: boolean): Side[] {
  if (spec.cluster === 'workload' || !distinct) return ['workload'];
  return spec.cluster === 'management' ? ['management'] : ['workload', 'management'];
}

/**
 * Where a kind is listed on a side: `management.namespace` for CAPI kinds and management events, else every namespace.
 */
export function namespaceOfKind(spec: KindSpec, side: Side, capiNamespace: string | undefined): string | undefined {
  return (side === 'management' || spec.cluster === 'management') && capiNamespace ? capiNamespace : undefined;
}
