import { stat } from 'node:fs/promises';
import path from 'node:path';
import { addToSnapshot } from './add-to-snapshot.js';
import { findKind } from './kinds.js';
import { compareDecimal } from './compare-decimal.js';
import { readDumpObjects, type DumpObjects } from './read-dump-objects.js';
import { sortEtcdErrors } from './sort-etcd-errors.js';
import { sortSnapshot } from './sort-snapshot.js';
import { createEmptySnapshot, type KubeObject, type PartialEntry, type Snapshot } from './snapshot.js';

/**
 * A dump directory as a Snapshot (DESIGN.md "Dump format"). Objects of DIR/management/ go in with
 * origin 'management', all others 'workload'. Cluster name: `opts.cluster`, else meta.json
 * `cluster`, else the directory's basename; collectedAt: meta.json `collectedAt`, else the
 * directory's mtime. Every array is sorted (namespace, name, then content) so two reads of the
 * same data are deep-equal whatever the file order. Throws DumpError when the dump is unusable.
 */
export async function loadDump(dir: string, opts: { cluster?: string } = {}): Promise<Snapshot> {
  const dump = await readDumpObjects(dir);
  const cluster = opts.cluster ?? dump.meta.cluster ?? path.basename(path.resolve(dir));
  const collectedAt = dump.meta.collectedAt ?? (await stat(dir)).mtime.toISOString();
  return snapshotFromDumpObjects(dump, { cluster, collectedAt });
}

/**
 * The objects of a dump as a Snapshot: each placed by its kind (pods and events projected, metadata
 * sanitized), every array sorted, etcd and API server state attached, partial entries of `dump`
 * first. Pure: loadDump reads the directory, this builds (fuzz tests feed it mutated objects).
 */
export function snapshotFromDumpObjects(dump: DumpObjects, opts: { cluster: string; collectedAt: string }): Snapshot {
  const snapshot = createEmptySnapshot(opts.cluster, opts.collectedAt, 'dump');
  const add = (objects: KubeObject[], origin: 'workload' | 'management') => {
    for (const obj of objects) {
      // Objects of readDumpObjects always carry a kind we read; events.k8s.io Events map to Event.
      // A dump may hold any JSON type in apiVersion (issue 9 fuzzing): only a string narrows the kind.
      const spec = findKind(obj.kind, typeof obj.apiVersion === 'string' ? obj.apiVersion : undefined) ?? findKind(obj.kind);
      if (spec) addToSnapshot(snapshot, spec, obj, origin);
    }
  };
  add(dump.workload, 'workload');
  add(dump.management ?? [], 'management');
  sortSnapshot(snapshot);
  if (dump.etcd) {
    snapshot.etcd = {
      ...dump.etcd,
      members: [...dump.etcd.members].sort((a, b) => cmp(a.name, b.name) || compareDecimal(a.id, b.id)),
      endpoints: [...dump.etcd.endpoints].sort((a, b) => cmp(a.endpoint, b.endpoint)),
      health: [...dump.etcd.health].sort((a, b) => cmp(a.endpoint, b.endpoint)),
    };
    if (dump.etcd.errors?.length) snapshot.etcd.errors = sortEtcdErrors(dump.etcd.errors);
  }
  if (dump.apiserver) snapshot.apiserver = dump.apiserver;
  if (dump.controlPlaneLogs?.length) {
    snapshot.controlPlaneLogs = [...dump.controlPlaneLogs].sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.pod, b.pod));
  }
  // Entries recorded by `dump` first, then files of this dump that could not be read.
  snapshot.partial = dedupePartial([...(dump.meta.partial ?? []), ...dump.partial]);
  return snapshot;
}

/** Plain code-unit order: locale-independent, so every machine sorts the same. */
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function dedupePartial(entries: PartialEntry[]): PartialEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const k = `${e.source}\u0000${e.error}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
