import { mkdir, readdir, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DumpError } from './dump-error.js';
import { eventFromProjection } from './event-from-projection.js';
import { formatEtcdctlJson } from './format-etcdctl-json.js';
import { KINDS, type KindSpec } from '../kinds.js';
import { podFromProjection } from './pod-from-projection.js';
import type { KubeObject, Snapshot } from '../snapshot.js';

const ETCD_FILES = [
  ...['member-list', 'endpoint-status', 'endpoint-health', 'alarm-list'].flatMap((c) => [`${c}.json`, `${c}.err`]),
];
const CLUSTER_DIRS = ['workload', 'management'] as const;

/**
 * Write a Snapshot in the dump format (README.md "Dump format") so that `loadDump(dir)` returns it
 * again: DIR/workload/<plural>.json and DIR/management/<plural>.json as `List`s (every kind, empty
 * lists too, so a reader can tell "none" from "not collected"), pods and events rebuilt from their
 * projections, CAPI objects and management-origin events under management/, DIR/etcd/*.json in
 * etcdctl's format, DIR/meta.json with cluster, collectedAt, apiserver and partial.
 *
 * Only `origin` (always 'dump' when read back) and `etcd.source` (always 'etcdctl') reflect where
 * the data is read from. Pod logs (`controlPlaneLogs`, read from a `kubectl cluster-info dump`
 * tree) are not written: a live read never has them. Writes into a new or empty directory, or over a previous dump
 * (only files this writer creates); anything else is refused, and user files are never deleted.
 */
export async function writeDump(snapshot: Snapshot, dir: string): Promise<void> {
  await assertWritable(dir);
  await mkdir(dir, { recursive: true });
  const files = new Map<string, string>();
  for (const origin of CLUSTER_DIRS) {
    for (const spec of kindsIn(origin)) {
      files.set(`${origin}/${spec.plural}.json`, printList(objectsOf(snapshot, spec, origin)));
    }
  }
  if (snapshot.etcd)
    for (const [name, text] of Object.entries(formatEtcdctlJson(snapshot.etcd))) files.set(`etcd/${name}`, text);
  const meta: Record<string, unknown> = { cluster: snapshot.cluster };
  // An unknown capture time stays unknown when read back (never replaced by the dump's own time).
  if (snapshot.collectedAt) meta.collectedAt = snapshot.collectedAt;
  if (snapshot.collectedAtFrom && snapshot.collectedAtFrom !== 'recorded')
    meta.collectedAtFrom = snapshot.collectedAtFrom;
  if (snapshot.apiserver) meta.apiserver = snapshot.apiserver;
  meta.partial = snapshot.partial;
  // Every kind is written, failed ones as empty lists: only this record tells "none" from "not read".
  if (snapshot.coverage) meta.coverage = snapshot.coverage;
  // meta.json last: a dump interrupted half-way is not yet recognised as a previous dump.
  for (const [rel, text] of files) await writeAtomically(path.join(dir, rel), text);
  await removeStaleEtcdFiles(dir, files);
  await writeAtomically(path.join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
}

/** Kinds written under workload/ (everything but CAPI) or management/ (CAPI, plus its events). */
function kindsIn(origin: 'workload' | 'management'): KindSpec[] {
  const isCapi = (k: KindSpec) => k.target.startsWith('capi.');
  return KINDS.filter((k) => (origin === 'management' ? isCapi(k) || k.target === 'events' : !isCapi(k)));
}

function objectsOf(s: Snapshot, spec: KindSpec, origin: 'workload' | 'management'): KubeObject[] {
  switch (spec.target) {
    case 'pods':
      return s.pods.map(podFromProjection);
    case 'events':
      return s.events.filter((e) => e.origin === origin).map(eventFromProjection);
    default:
      if (spec.target.startsWith('capi.')) return s.capi[spec.target.slice('capi.'.length) as keyof Snapshot['capi']];
      return s[spec.target as Exclude<KindSpec['target'], `capi.${string}` | 'pods' | 'events'>];
  }
}

function printList(items: KubeObject[]): string {
  return `${JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: {}, items }, null, 2)}\n`;
}

/** The relative paths this writer may create: anything else in DIR makes it "not a previous dump". */
function isOwnFile(rel: string): boolean {
  const [top, name, ...rest] = rel.split('/');
  // A temp file left by an interrupted writeAtomically.
  if (name !== undefined && /^\..*\.tmp$/.test(name) && !rest.length) return true;
  if (rest.length) return false;
  if (top === 'etcd') return name !== undefined && ETCD_FILES.includes(name);
  const origin = CLUSTER_DIRS.find((o) => o === top);
  return origin !== undefined && name !== undefined && kindsIn(origin).some((k) => `${k.plural}.json` === name);
}

async function assertWritable(dir: string): Promise<void> {
  const st = await stat(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw new DumpError(`cannot write dump to ${dir}: ${e.message}`, { cause: e });
  });
  if (!st) return;
  if (!st.isDirectory()) throw new DumpError(`cannot write dump to ${dir}: it exists and is not a directory`);
  const entries = await readdir(dir);
  if (entries.length === 0) return;
  const refuse = (found: string) =>
    new DumpError(
      `refusing to write dump into ${dir}: it is not empty and not a previous dump (found ${found}); choose a new or empty directory`,
    );
  if (!entries.includes('meta.json')) throw refuse(`no meta.json`);
  for (const entry of entries) {
    if (entry === 'meta.json') continue;
    if (entry !== 'etcd' && !CLUSTER_DIRS.some((o) => o === entry)) throw refuse(entry);
    const sub = path.join(dir, entry);
    if (!(await stat(sub)).isDirectory()) throw refuse(entry);
    for (const name of await readdir(sub)) if (!isOwnFile(`${entry}/${name}`)) throw refuse(`${entry}/${name}`);
  }
}

/** etcd files of a previous dump that this snapshot does not have (they are ours: checked by assertWritable). */
async function removeStaleEtcdFiles(dir: string, written: Map<string, string>): Promise<void> {
  for (const name of ETCD_FILES) {
    if (written.has(`etcd/${name}`)) continue;
    await unlink(path.join(dir, 'etcd', name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
  // rmdir only removes an empty directory: never anything else.
  await rmdir(path.join(dir, 'etcd')).catch(() => undefined);
}

/** Write to a hidden temp file then rename, so a reader never sees half a file (hidden files are not read). */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, file);
}
