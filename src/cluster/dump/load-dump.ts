import { realpath } from 'node:fs/promises';
import { addToSnapshot } from '../add-to-snapshot.js';
import { findKind, KINDS, type KindSpec } from '../kinds.js';
import { compareDecimal } from '../parse/compare-decimal.js';
import { deriveClusterName } from './derive-cluster-name.js';
import { readDumpObjects, type DumpObjects } from './read-dump-objects.js';
import { sortEtcdErrors } from '../parse/sort-etcd-errors.js';
import { sortSnapshot } from '../sort-snapshot.js';
import { scopeSnapshot } from '../scope-snapshot.js';
import {
  createEmptySnapshot,
  type KindCoverage,
  type KubeObject,
  type PartialEntry,
  type Snapshot,
} from '../snapshot.js';

/**
 * A dump directory as a Snapshot (README.md "Dump format"). Objects of DIR/management/ go in with
 * origin 'management', all others 'workload'. Cluster name: `opts.cluster`, else deriveClusterName
 * (meta.json `cluster`, the one Cluster API Cluster's name, the directory's name skipping `dump`). collectedAt (defect
 * class 8): meta.json `collectedAt`, else the newest time the cluster wrote into the capture (events, conditions,
 * managedFields: the capture was taken at or after it), else unknown — never the directory's mtime (a copy, an unpacked
 * archive or a git checkout all reset it) nor the clock. Every array is sorted (namespace, name, then content) so two
 * reads of the same data are deep-equal whatever the file order. Throws DumpError when the dump is unusable.
 */
export async function loadDump(
  dir: string,
  opts: { cluster?: string; nameDir?: string; capiCluster?: string } = {},
): Promise<Snapshot> {
  // Read through the directory the path points at now: a `dump:` cluster whose path is a symlink
  // re-pointed to a newer capture between scans is then read as one capture, never half the old one
  // (every file is opened by path, and a re-point in the middle of a scan mixed two captures).
  const dump = await readDumpObjects(await realpath(dir).catch(() => dir));
  const snapshot = snapshotFromDumpObjects(dump, { cluster: opts.cluster ?? '', ...captureTime(dump) });
  // A snapshot of a series (t00/, t01/) is named after the series' directory, never after "t00".
  if (!opts.cluster)
    snapshot.cluster = deriveClusterName(opts.nameDir ?? dir, dump.meta.cluster, snapshot.capi.clusters);
  // A capture of a management namespace holds every cluster of it: keep the one this dump is of
  // (`--cluster`, meta.json's `cluster`, the name it is read under; docs/fleet.md "Scoping").
  const hints = [opts.cluster, dump.meta.cluster, snapshot.cluster].filter(
    (h): h is string => typeof h === 'string' && h !== '',
  );
  scopeSnapshot(snapshot, {
    configured: opts.capiCluster,
    hints,
    what: `dump ${dir}`,
    fix: 'name it with --cluster NAME, meta.json "cluster", or management.clusterName of a dump cluster',
  });
  return snapshot;
}

/** When the capture was taken, and how that is known (Snapshot.collectedAtFrom). */
export function captureTime(dump: DumpObjects): {
  collectedAt: string;
  collectedAtFrom: NonNullable<Snapshot['collectedAtFrom']>;
} {
  if (dump.meta.collectedAt)
    return { collectedAt: dump.meta.collectedAt, collectedAtFrom: dump.meta.collectedAtFrom ?? 'recorded' };
  if (dump.newestTime) return { collectedAt: dump.newestTime, collectedAtFrom: 'data' };
  return { collectedAt: '', collectedAtFrom: 'unknown' };
}

/**
 * The objects of a dump as a Snapshot: each placed by its kind (pods and events projected, metadata
 * sanitized), every array sorted, etcd and API server state attached, partial entries of `dump`
 * first. Pure: loadDump reads the directory, this builds (fuzz tests feed it mutated objects).
 */
export function snapshotFromDumpObjects(
  dump: DumpObjects,
  opts: { cluster: string; collectedAt: string; collectedAtFrom?: Snapshot['collectedAtFrom'] },
): Snapshot {
  const snapshot = createEmptySnapshot(opts.cluster, opts.collectedAt, 'dump');
  if (opts.collectedAtFrom && opts.collectedAtFrom !== 'recorded') snapshot.collectedAtFrom = opts.collectedAtFrom;
  const add = (objects: KubeObject[], origin: 'workload' | 'management') => {
    for (const obj of objects) {
      // Objects of readDumpObjects always carry a kind we read; events.k8s.io Events map to Event.
      // A dump may hold any JSON type in apiVersion (fuzzed input): only a string narrows the kind.
      const spec =
        findKind(obj.kind, typeof obj.apiVersion === 'string' ? obj.apiVersion : undefined) ?? findKind(obj.kind);
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
    snapshot.controlPlaneLogs = [...dump.controlPlaneLogs].sort(
      (a, b) => cmp(a.namespace, b.namespace) || cmp(a.pod, b.pod),
    );
  }
  // Entries recorded by `dump` first, then files of this dump that could not be read.
  snapshot.partial = dedupePartial([...(dump.meta.partial ?? []), ...dump.partial]);
  snapshot.coverage = coverageOfDump(dump, snapshot);
  return snapshot;
}

/**
 * Which kinds the dump stands for (defect class 9). `dump` records it in meta.json (it writes
 * failed kinds as empty lists, so only its record tells them apart); otherwise a kind is failed when a
 * support bundle's errors file or one of our own partial entries says so, read when the capture lists
 * it (even empty) or holds objects of it, and missing when the capture does not hold it at all.
 */
function coverageOfDump(dump: DumpObjects, snapshot: Snapshot): Record<string, KindCoverage> {
  const out: Record<string, KindCoverage> = {};
  const listed = new Set(dump.listed ?? []);
  const partial = dump.meta.partial ?? [];
  for (const spec of KINDS) {
    const recorded = dump.meta.coverage?.[spec.kind];
    const failed = dump.failed?.[spec.kind] ?? failureOf(spec, partial);
    if (recorded) out[spec.kind] = recorded;
    else if (failed) out[spec.kind] = { state: 'failed', why: failed };
    else if (listed.has(spec.kind) || countOf(snapshot, spec) > 0) out[spec.kind] = { state: 'read' };
    else out[spec.kind] = { state: 'missing', why: 'not in the capture' };
  }
  return out;
}

/**
 * A failure of `spec` among partial entries written by the collector (collect-kind.ts "list
 * machines.cluster.x-k8s.io …", collect-snapshot.ts "workload API server" "… — not read: nodes, pods").
 */
function failureOf(spec: KindSpec, partial: PartialEntry[]): string | undefined {
  const resource = spec.group ? `${spec.plural}.${spec.group}` : spec.plural;
  for (const p of partial) {
    if (p.source === `list ${resource}` || p.source.startsWith(`list ${resource} `)) return p.error;
    const notRead = / — not read: (.*)$/.exec(p.error);
    if (p.source.endsWith(' API server') && notRead?.[1]?.split(', ').includes(spec.plural))
      return `${p.source}: ${p.error.slice(0, notRead.index)}`;
  }
  return undefined;
}

function countOf(s: Snapshot, spec: KindSpec): number {
  switch (spec.target) {
    case 'pods':
      return s.pods.length;
    case 'events':
      return s.events.length;
    default:
      if (spec.target.startsWith('capi.'))
        return s.capi[spec.target.slice('capi.'.length) as keyof Snapshot['capi']].length;
      return (s[spec.target as Exclude<KindSpec['target'], `capi.${string}` | 'pods' | 'events'>] as KubeObject[])
        .length;
  }
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
