import type { Snapshot } from '../../cluster/snapshot.js';

/**
 * Was this kind read for this snapshot (listed, even empty, or present in the capture)? With per-kind
 * coverage the snapshot says so; snapshots built by hand (tests) have none, and then only objects of the
 * kind prove it was read. An unread kind is missing evidence, never "there are none".
 */
export function isKindRead(snapshot: Snapshot, kind: string, present: readonly unknown[]): boolean {
  const c = snapshot.coverage?.[kind];
  if (c) return c.state === 'read';
  return present.length > 0;
}
