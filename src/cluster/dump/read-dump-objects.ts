import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DumpError } from './dump-error.js';
import { isEtcdctlErrorText, parseEtcdctlErrors } from '../parse/parse-etcdctl-errors.js';
import {
  alarmsFromEndpoints,
  parseAlarmList,
  parseEndpointHealth,
  parseEndpointStatus,
  parseMemberList,
} from '../parse/parse-etcdctl-json.js';
import { kindFromPath } from './kind-from-path.js';
import { DUMP_LAYOUTS, RESERVED_ROOT_ENTRIES } from './layouts/index.js';
import { KINDS } from '../kinds.js';
import { parseObjectFile, readObjectFile, type ForeignObjects } from './parse-object-file.js';
import { parseReadyz } from '../parse/parse-readyz.js';
import { controlPlaneComponentOf, scanControlPlaneLog } from './scan-control-plane-log.js';
import type {
  ApiServerState,
  ControlPlaneLog,
  EtcdCommand,
  EtcdCommandError,
  EtcdState,
  KindCoverage,
  KubeObject,
  PartialEntry,
  ReadyzCheck,
} from '../snapshot.js';
import { describeError } from '../../errors/describe-error.js';
import { CaptureParseError } from '../parse/capture-parse-error.js';

/** Raw content of a dump directory, before it becomes a Snapshot (the fake API server serves these). */
export interface DumpObjects {
  /** Objects of the workload cluster (or of the single cluster when there is no workload/ + management/ split). */
  workload: KubeObject[];
  /** Objects of the management cluster, when DIR/management/ exists. */
  management?: KubeObject[];
  etcd?: EtcdState;
  apiserver?: ApiServerState;
  /** etcd / kube-apiserver pod logs found in the workload tree (`<ns>/<pod>/logs.txt`). */
  controlPlaneLogs?: ControlPlaneLog[];
  meta: {
    cluster?: string;
    collectedAt?: string;
    /** How `dump` knew collectedAt (write-dump.ts); absent: recorded. */
    collectedAtFrom?: 'recorded' | 'data' | 'unknown';
    partial?: PartialEntry[];
    /** Per-kind coverage recorded by `dump` (write-dump.ts): it writes every kind, failed ones as empty lists. */
    coverage?: Record<string, KindCoverage>;
  };
  /** Files that could not be read, with the reason; foreign and kind-less objects noted. */
  partial: PartialEntry[];
  /** Kinds (KindSpec.kind) the capture lists as a whole, even with no item: read, and "none" means none. */
  listed?: string[];
  /** Kinds whose collection the capture says failed (a support bundle's `pods-errors.json`), with the first error. */
  failed?: Record<string, string>;
  /**
   * Newest time the cluster wrote into any object of the capture, of any kind, read before managedFields
   * are dropped (ISO): the capture time of a dump without meta.json (defect class 8).
   */
  newestTime?: string;
}

/** Entries of the dump root that are not Kubernetes objects of the single/workload cluster (every layout's). */
const RESERVED = RESERVED_ROOT_ENTRIES;
const OBJECT_FILE = /\.(json|ya?ml)$/i;
/** A saved stdout of `kubectl cluster-info dump` may be a .txt; pod logs (logs.txt) never are objects. */
const TEXT_FILE = /\.txt$/i;
/** How much of a .txt is read to tell a kubectl cluster-info dump stdout from a log. */
const SNIFF_BYTES = 64 * 1024;
/** Times beyond this from the wall clock are not a capture time (a corrupt or hand-edited year 9999). */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;
/** Guards against symlink loops. */
const MAX_DEPTH = 16;
/** Only the end of a pod log is read: what it says last is what matters, and logs can be huge. */
const LOG_TAIL_BYTES = 4 * 1024 * 1024;

/**
 * Read every object of a dump directory (README.md "Dump format"). Unparseable files become
 * `partial` entries and reading goes on; a missing, non-directory or empty dump throws DumpError.
 *
 * Layout: DIR/workload/ and DIR/management/ hold the two clusters when either exists (without
 * workload/, the rest of DIR is the workload cluster, so a `kubectl cluster-info dump` with an added
 * management/ folder works); otherwise all of DIR is one cluster. DIR/etcd/ holds etcdctl output,
 * DIR/apiserver/readyz.txt a raw `/readyz?verbose` body, DIR/meta.json the collection metadata.
 */
export async function readDumpObjects(dir: string): Promise<DumpObjects> {
  await assertDirectory(dir);
  const partial: PartialEntry[] = [];
  const split = (await isDirectory(path.join(dir, 'workload'))) || (await isDirectory(path.join(dir, 'management')));
  const workloadRoot = split && (await isDirectory(path.join(dir, 'workload'))) ? path.join(dir, 'workload') : dir;
  if (workloadRoot !== dir) await reportIgnoredRootFiles(dir, partial);
  const logFiles: string[] = [];
  const found = newFound(Date.now() + FUTURE_SLACK_MS);
  const workload = await readTree(dir, workloadRoot, partial, found, logFiles);
  const management =
    split && (await isDirectory(path.join(dir, 'management')))
      ? await readTree(dir, path.join(dir, 'management'), partial, found)
      : undefined;
  const meta = await readMeta(dir, partial);
  let etcd = await readEtcd(dir, partial);
  const apiserver = meta.apiserver ?? (await readReadyzFile(dir, partial));
  const logs = await readControlPlaneLogs(dir, logFiles, partial);
  if (!found.holdsObjects && !etcd) {
    // etcdctl output saved at the top of the directory, or `--from` given the dump's etcd/ folder itself:
    // the files are etcdctl's, not Kubernetes objects; read them as DIR/etcd/ is read.
    const rootPartial: PartialEntry[] = [];
    const rootEtcd = await readEtcd(dir, rootPartial, '.');
    if (rootEtcd) {
      etcd = rootEtcd;
      const etcdFiles = new Set(ETCD_COMMANDS.flatMap((c) => [`${c.file}.json`, `${c.file}.txt`, `${c.file}.err`]));
      const kept = partial.filter((p) => !etcdFiles.has(p.source));
      partial.length = 0;
      partial.push(...kept, ...rootPartial);
    }
  }

  // A capture of Kubernetes objects none of which we read (only OpenShift Machines, say) is still a
  // capture: it is read, and the report says what was ignored and that nothing was checked (defect class 11).
  if (!found.holdsObjects && !etcd && !apiserver && logs.length === 0) {
    const unreadable = partial.length
      ? ` (${partial.length} file(s) could not be read; first: ${partial[0]?.source}: ${partial[0]?.error})`
      : '';
    throw new DumpError(`dump directory ${dir} contains no Kubernetes objects${unreadable}`);
  }
  partial.push(...foreignNotes(found.foreign));
  const out: DumpObjects = { workload, meta: meta.fields, partial, listed: [...found.listed].sort() };
  if (management) out.management = management;
  if (etcd) out.etcd = etcd;
  if (apiserver) out.apiserver = apiserver;
  if (logs.length) out.controlPlaneLogs = logs;
  if (Object.keys(found.failed).length) out.failed = found.failed;
  if (found.newestTime !== undefined) out.newestTime = new Date(found.newestTime).toISOString();
  return out;
}

async function assertDirectory(dir: string): Promise<void> {
  let st;
  try {
    st = await stat(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new DumpError(`dump directory ${dir} does not exist`, { cause: e });
    throw new DumpError(`dump directory ${dir} cannot be read: ${(e as Error).message}`, { cause: e });
  }
  if (!st.isDirectory()) throw new DumpError(`dump directory ${dir} is not a directory`);
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** What the files of a dump say beyond their objects (readObjectFile), summed over the dump. */
interface Found {
  listed: Set<string>;
  foreign: Map<string, ForeignObjects>;
  failed: Record<string, string>;
  holdsObjects: boolean;
  newestTime?: number;
  notAfterMs: number;
}

function newFound(notAfterMs: number): Found {
  return { listed: new Set(), foreign: new Map(), failed: {}, holdsObjects: false, notAfterMs };
}

/**
 * All objects below `root`, files in sorted path order, duplicates (same kind/namespace/name/uid)
 * once. `logs`, when given, collects the etcd / kube-apiserver pod logs met on the way.
 */
async function readTree(
  dumpDir: string,
  root: string,
  partial: PartialEntry[],
  found: Found = newFound(Number.POSITIVE_INFINITY),
  logs?: string[],
): Promise<KubeObject[]> {
  const files: string[] = [];
  await listFiles(root, root === dumpDir, 0, files, dumpDir, partial, logs);
  files.sort();
  const seen = new Set<string>();
  const objects: KubeObject[] = [];
  for (const file of files) {
    const rel = relative(dumpDir, file);
    let parsed: KubeObject[];
    try {
      if (TEXT_FILE.test(file) && !holdsObjects(await readHead(file))) continue; // a log, not objects
      const text = decodeText(await readFile(file));
      const errorsOf = errorsFileOf(rel);
      if (errorsOf !== undefined) {
        noteCollectionErrors(rel, errorsOf, text, partial, found);
        continue;
      }
      const read = readObjectFile(text, file, { notAfterMs: found.notAfterMs });
      parsed = read.objects;
      for (const spec of read.listed) found.listed.add(spec.kind);
      for (const f of read.foreign) {
        const key = `${f.kind}\u0000${f.apiVersion}`;
        const prev = found.foreign.get(key);
        found.foreign.set(key, { ...f, count: (prev?.count ?? 0) + f.count });
      }
      if (read.holdsObjects) found.holdsObjects = true;
      if (read.newestTime !== undefined && (found.newestTime === undefined || read.newestTime > found.newestTime))
        found.newestTime = read.newestTime;
      // Only files that hold Kubernetes data are worth a note (analysis.json, version.yaml are not).
      if (read.kindless)
        partial.push({
          source: rel,
          error: `${read.kindless} object(s) without a kind, and the file name does not say which: not read`,
        });
    } catch (e) {
      partial.push({ source: rel, error: oneLine(e) });
      continue;
    }
    for (const obj of parsed) {
      const key = [obj.kind, obj.metadata.namespace ?? '', obj.metadata.name, obj.metadata.uid ?? ''].join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      objects.push(obj);
    }
  }
  return objects;
}

/**
 * With DIR/workload/ present, object files loose in DIR are not read: say so rather than drop them
 * silently. Only files that really hold Kubernetes objects are reported; other JSON/YAML beside a
 * dump (notes, a scenario's expected.json) is not cluster data and stays quiet.
 */
async function reportIgnoredRootFiles(dir: string, partial: PartialEntry[]): Promise<void> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isFile() || !OBJECT_FILE.test(entry.name) || RESERVED.has(entry.name) || entry.name.startsWith('.'))
      continue;
    let holdsObjects = true;
    try {
      holdsObjects = parseObjectFile(decodeText(await readFile(path.join(dir, entry.name))), entry.name).length > 0;
    } catch {
      // Unparseable: we cannot tell, so report it.
    }
    if (holdsObjects)
      partial.push({
        source: entry.name,
        error: 'not read: DIR/workload/ exists, so only workload/ and management/ hold objects',
      });
  }
}

async function listFiles(
  dir: string,
  isDumpRoot: boolean,
  depth: number,
  out: string[],
  dumpDir: string,
  partial: PartialEntry[],
  logs?: string[],
): Promise<void> {
  if (depth > MAX_DEPTH) return;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    partial.push({ source: relative(dumpDir, dir) || '.', error: oneLine(e) });
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (isDumpRoot && RESERVED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const st = await stat(full).catch(() => undefined);
      isDir = st?.isDirectory() ?? false;
      isFile = st?.isFile() ?? false;
    }
    if (isDir) await listFiles(full, false, depth + 1, out, dumpDir, partial, logs);
    else if (isFile && (OBJECT_FILE.test(entry.name) || (TEXT_FILE.test(entry.name) && entry.name !== 'logs.txt')))
      out.push(full);
    else if (isFile && logs && entry.name === 'logs.txt' && controlPlaneComponentOf(path.basename(dir)))
      logs.push(full);
  }
}

/** A layout (a kubectl cluster-info dump stdout) tells objects in a .txt from a log by its first bytes. */
function holdsObjects(head: string): boolean {
  return DUMP_LAYOUTS.some((l) => l.holdsObjects?.(head));
}

/** A file of collection errors (a support bundle's `<kind>-errors.json`): the objects file it is about. */
function errorsFileOf(rel: string): string | undefined {
  for (const l of DUMP_LAYOUTS) {
    const of = l.errorsFileOf?.(rel);
    if (of !== undefined) return of;
  }
  return undefined;
}

/** The first bytes of a file, to tell a kubectl cluster-info dump stdout from a log without reading the log whole. */
async function readHead(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return decodeText(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/**
 * A support bundle's `cluster-resources/<kind>-errors.json` (troubleshoot): the errors its collector
 * met listing that kind, as a JSON array of strings or a map namespace → error. A non-empty one for
 * a kind we read makes that kind "failed" (its section is then unknown, never healthy).
 */
function noteCollectionErrors(
  rel: string,
  objectsFile: string,
  text: string,
  partial: PartialEntry[],
  found: Found,
): void {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return; // not an errors list after all: nothing to say about any kind
  }
  const errors = (
    Array.isArray(raw) ? raw : isRecord(raw) ? Object.entries(raw).map(([ns, e]) => `${ns}: ${String(e)}`) : []
  ).filter((e): e is string => typeof e === 'string' && e.length > 0);
  const spec = kindFromPath(objectsFile).spec;
  if (!errors.length || !spec) return;
  found.failed[spec.kind] ??= errors[0]!;
  partial.push({ source: rel, error: `${errors.length} collection error(s); first: ${errors[0]}` });
}

/** One note per foreign kind: "noted and ignored" (defect class 11). */
function foreignNotes(foreign: Map<string, ForeignObjects>): PartialEntry[] {
  return [...foreign.values()]
    .sort((a, b) => (a.kind !== b.kind ? (a.kind < b.kind ? -1 : 1) : a.apiVersion < b.apiVersion ? -1 : 1))
    .map((f) => {
      const ours = KINDS.find((k) => k.kind === f.kind);
      const group = ours?.group ? ours.group : 'core';
      return {
        source: `${f.count} ${f.kind} object(s) of ${f.apiVersion}`,
        error: `ignored: not the ${f.kind} this bot reads (${group}); ${f.apiVersion.startsWith('machine.openshift.io/') ? 'OpenShift machine-api objects are not Cluster API objects' : 'another API group'}`,
      };
    });
}

interface Meta {
  fields: DumpObjects['meta'];
  apiserver?: ApiServerState;
}

async function readMeta(dir: string, partial: PartialEntry[]): Promise<Meta> {
  let raw: unknown;
  try {
    const text = await readOptional(path.join(dir, 'meta.json'));
    if (text === undefined) return { fields: {} };
    raw = JSON.parse(text);
    if (!isRecord(raw)) throw new CaptureParseError('expected a JSON object');
  } catch (e) {
    partial.push({ source: 'meta.json', error: oneLine(e) });
    return { fields: {} };
  }
  const fields: DumpObjects['meta'] = {};
  if (typeof raw.cluster === 'string' && raw.cluster) fields.cluster = raw.cluster;
  if (typeof raw.collectedAt === 'string' && raw.collectedAt) fields.collectedAt = raw.collectedAt;
  if (raw.collectedAtFrom === 'recorded' || raw.collectedAtFrom === 'data' || raw.collectedAtFrom === 'unknown')
    fields.collectedAtFrom = raw.collectedAtFrom;
  if (isRecord(raw.coverage)) {
    const coverage: Record<string, KindCoverage> = {};
    for (const [kind, c] of Object.entries(raw.coverage)) {
      if (!isRecord(c) || (c.state !== 'read' && c.state !== 'failed' && c.state !== 'missing')) continue;
      coverage[kind] = typeof c.why === 'string' ? { state: c.state, why: c.why } : { state: c.state };
    }
    fields.coverage = coverage;
  }
  if (Array.isArray(raw.partial)) {
    fields.partial = raw.partial
      .filter((p): p is Record<string, unknown> => isRecord(p) && typeof p.source === 'string')
      .map((p) => ({
        source: p.source as string,
        error: typeof p.error === 'string' ? p.error : p.error == null ? '' : JSON.stringify(p.error),
      }));
  }
  const meta: Meta = { fields };
  if (isRecord(raw.apiserver)) meta.apiserver = normalizeApiServer(raw.apiserver);
  return meta;
}

/** meta.json `apiserver`: an ApiServerState written by `dump` (or by hand). */
function normalizeApiServer(raw: Record<string, unknown>): ApiServerState {
  const checks: ReadyzCheck[] = (Array.isArray(raw.checks) ? raw.checks : [])
    .filter((c): c is Record<string, unknown> => isRecord(c) && typeof c.name === 'string')
    .map((c) => {
      const check: ReadyzCheck = { name: c.name as string, ok: c.ok === true };
      if (typeof c.message === 'string') check.message = c.message;
      return check;
    });
  const state: ApiServerState = { reachable: raw.reachable === true, checks };
  if (typeof raw.ready === 'boolean') state.ready = raw.ready;
  if (typeof raw.error === 'string') state.error = raw.error;
  return state;
}

async function readReadyzFile(dir: string, partial: PartialEntry[]): Promise<ApiServerState | undefined> {
  try {
    const text = await readOptional(path.join(dir, 'apiserver', 'readyz.txt'));
    return text === undefined ? undefined : parseReadyz(text);
  } catch (e) {
    partial.push({ source: 'apiserver/readyz.txt', error: oneLine(e) });
    return undefined;
  }
}

/** Commands of DIR/etcd/, in the order their files are read (errors are kept in this order too). */
const ETCD_COMMANDS: { command: EtcdCommand; file: string }[] = [
  { command: 'member list', file: 'member-list' },
  { command: 'endpoint status', file: 'endpoint-status' },
  { command: 'endpoint health', file: 'endpoint-health' },
  { command: 'alarm list', file: 'alarm-list' },
];

/**
 * DIR/etcd/ as etcdctl printed it; etcd is present when at least one file was read. Per command
 * (`member-list`, `endpoint-status`, `endpoint-health`, `alarm-list`): `<command>.json` holds stdout of
 * `-w json` (`.txt` the simple output, read for endpoint health and alarm list), `<command>.err` its
 * stderr. A `.json` that holds etcdctl's error text instead of JSON (saved with `2>&1`) counts as
 * stderr. Unhealthy endpoints that only stderr names become health entries (the simple output prints
 * them there).
 */
async function readEtcd(dir: string, partial: PartialEntry[], sub = 'etcd'): Promise<EtcdState | undefined> {
  const etcd: EtcdState = { source: 'etcdctl', members: [], endpoints: [], health: [], alarms: [] };
  const errors: EtcdCommandError[] = [];
  let found = false;
  const read = async <T>(command: EtcdCommand, base: string, parse: (text: string) => T): Promise<T | undefined> => {
    let value: T | undefined;
    for (const file of [`${base}.json`, `${base}.txt`]) {
      let text: string | undefined;
      try {
        text = await readOptional(path.join(dir, sub, file));
        if (text === undefined) continue;
        found = true;
        value = parse(text);
        break;
      } catch (e) {
        if (text !== undefined && isEtcdctlErrorText(text)) errors.push(...parseEtcdctlErrors(text, command));
        else partial.push({ source: path.posix.join(sub, file), error: oneLine(e) });
        break;
      }
    }
    try {
      const err = await readOptional(path.join(dir, sub, `${base}.err`));
      if (err !== undefined) {
        found = true;
        errors.push(...parseEtcdctlErrors(err, command));
      }
    } catch (e) {
      partial.push({ source: path.posix.join(sub, `${base}.err`), error: oneLine(e) });
    }
    return value;
  };
  const [members, status, health, alarms] = ETCD_COMMANDS;
  etcd.members = (await read(members!.command, members!.file, parseMemberList)) ?? [];
  etcd.endpoints = (await read(status!.command, status!.file, parseEndpointStatus)) ?? [];
  etcd.health = (await read(health!.command, health!.file, parseEndpointHealth)) ?? [];
  const alarmList = await read(alarms!.command, alarms!.file, parseAlarmList);
  if (!found) return undefined;
  for (const e of errors) {
    if (e.command === 'endpoint health' && e.endpoint && !etcd.health.some((h) => h.endpoint === e.endpoint)) {
      etcd.health.push({ endpoint: e.endpoint, health: false, error: e.error });
    }
  }
  // `etcdctl alarm list` is authoritative when present; otherwise alarms come from status errors.
  etcd.alarms = alarmList ?? alarmsFromEndpoints(etcd.endpoints);
  if (errors.length) etcd.errors = errors;
  return etcd;
}

/** The etcd / kube-apiserver pod logs: what they say about etcd, one entry per pod that says anything. */
async function readControlPlaneLogs(
  dumpDir: string,
  files: string[],
  partial: PartialEntry[],
): Promise<ControlPlaneLog[]> {
  const out: ControlPlaneLog[] = [];
  for (const file of [...files].sort()) {
    const podDir = path.dirname(file);
    const pod = path.basename(podDir);
    const component = controlPlaneComponentOf(pod);
    if (!component) continue;
    try {
      const signals = scanControlPlaneLog(await readTail(file, LOG_TAIL_BYTES), component);
      // A pod whose log says nothing about etcd adds nothing: a healthy cluster's logs stay quiet.
      if (signals.length) out.push({ namespace: path.basename(path.dirname(podDir)), pod, component, signals });
    } catch (e) {
      partial.push({ source: relative(dumpDir, file), error: oneLine(e) });
    }
  }
  return out;
}

/** The last `max` bytes of a file (from the start of a line), decoded like every dump file. */
async function readTail(file: string, max: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - max);
    const buf = Buffer.alloc(size - start);
    await handle.read(buf, 0, buf.length, start);
    const text = decodeText(buf);
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return decodeText(await readFile(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Files of customer dumps are often saved on Windows: PowerShell 5's `>` writes UTF-16LE with a
 * BOM, editors add a UTF-8 BOM. Both would make JSON.parse fail.
 */
function decodeText(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  const text = buf.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function relative(dumpDir: string, file: string): string {
  return path.relative(dumpDir, file).split(path.sep).join('/');
}

function oneLine(e: unknown): string {
  const msg = describeError(e);
  return (msg.split('\n')[0] ?? msg).trim();
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
