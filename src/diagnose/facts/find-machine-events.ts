import type { EventProjection, Snapshot } from '../../cluster/snapshot.js';

/** Events about one Machine (e.g. DetectedUnhealthy from machinehealthcheck-controller), newest first. */
export function findMachineEvents(snapshot: Snapshot, namespace: string, name: string): EventProjection[] {
  return snapshot.events
    .filter(
      (e) =>
        e.involvedObject.kind === 'Machine' &&
        e.involvedObject.name === name &&
        (e.involvedObject.namespace ?? e.namespace) === namespace,
    )
    .sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''));
}
