import { createRequire } from 'node:module';
import type * as JsYaml from 'js-yaml';
import type * as Yaml from 'yaml';
import { parseKubectlYaml, UnsupportedYaml } from './parse-kubectl-yaml.js';
import { findNewestTime } from './find-newest-time.js';
import { kindFromPath } from './kind-from-path.js';
import { findKind, type KindSpec } from '../kinds.js';
import type { KubeObject } from '../snapshot.js';
import { splitJsonDocuments } from './split-json-documents.js';
import { describeError } from '../../errors/describe-error.js';
import { CaptureParseError } from '../parse/capture-parse-error.js';

/** Objects of a kind we read, but of another API group (OpenShift machine.openshift.io Machines): noted, never read. */
export interface ForeignObjects {
  kind: string;
  apiVersion: string;
  count: number;
}

/** What one dump file holds (readObjectFile). */
export interface ObjectFile {
  /** Objects of the kinds we read (kinds.ts), with `kind` (and `apiVersion` when the list says it) filled in. */
  objects: KubeObject[];
  /**
   * Kinds this file lists as a whole, even with no item: a typed list (`NodeList`), or a `List` /
   * JSON array whose file name says the kind. A listed kind was read, so "none" means none.
   */
  listed: KindSpec[];
  foreign: ForeignObjects[];
  /** Objects that look like Kubernetes objects but whose kind neither they, their list nor the path say. */
  kindless: number;
  /** Newest time the cluster wrote into any object of the file, of any kind (ms since epoch). */
  newestTime?: number;
  /** Whether the file holds Kubernetes objects at all, of any kind (else it is not cluster data). */
  holdsObjects: boolean;
}

/**
 * The Kubernetes objects of one dump file whose kind we read. Accepts a single object, a
 * `List`/`*List` with `items`, a JSON array, multi-document YAML, and the run-together JSON documents
 * of a saved `kubectl cluster-info dump` stdout (split-json-documents.ts). Throws (one-line message)
 * when the file cannot be parsed.
 *
 * Items of typed lists printed by `kubectl cluster-info dump` (and troubleshoot support bundles)
 * carry no kind/apiVersion (Go structs with an empty TypeMeta): the kind comes from the list's kind
 * (`NodeList` → Node) or, failing that, from the path (kind-from-path.ts: `pods.json`,
 * `core_v1_pods.json`, `cluster-resources/pods/<ns>.json`).
 */
export function parseObjectFile(text: string, fileName: string): KubeObject[] {
  return readObjectFile(text, fileName).objects;
}

/** parseObjectFile, plus what else the file says: kinds it lists, foreign and kind-less objects, its newest time. */
export function readObjectFile(text: string, fileName: string, opts: { notAfterMs?: number } = {}): ObjectFile {
  const docs = /\.json$/i.test(fileName)
    ? parseJsonDocuments(text)
    : /\.txt$/i.test(fileName)
      ? splitJsonDocuments(text)
      : parseYamlDocuments(text);
  const fromPath = kindFromPath(fileName);
  const acc: Acc = {
    objects: [],
    listed: new Map(),
    foreign: new Map(),
    kindless: 0,
    holdsObjects: false,
    notAfterMs: opts.notAfterMs ?? Number.POSITIVE_INFINITY,
  };
  for (const doc of docs) collect(doc, { spec: fromPath.spec, unread: fromPath.unread }, acc, true);
  const out: ObjectFile = {
    objects: acc.objects,
    listed: [...acc.listed.values()],
    foreign: [...acc.foreign.values()],
    kindless: acc.kindless,
    holdsObjects: acc.holdsObjects,
  };
  if (acc.newestTime !== undefined) out.newestTime = acc.newestTime;
  return out;
}

interface Acc {
  objects: KubeObject[];
  listed: Map<string, KindSpec>;
  foreign: Map<string, ForeignObjects>;
  kindless: number;
  holdsObjects: boolean;
  newestTime?: number;
  notAfterMs: number;
}

interface Hint {
  /** Kind inferred from the enclosing typed list or the path. */
  spec?: KindSpec;
  /** apiVersion of the enclosing typed list. */
  apiVersion?: string;
  /** The enclosing typed list is of a kind we read but of another group: its kind-less items are foreign. */
  foreign?: { kind: string; apiVersion: string };
  /** The path names a kind we do not read. */
  unread?: boolean;
}

function collect(doc: unknown, hint: Hint, acc: Acc, top = false): void {
  if (Array.isArray(doc)) {
    // A bare JSON array (older troubleshoot bundles write `[…]` for a list) lists the path's kind.
    if (top && hint.spec) acc.listed.set(hint.spec.kind, hint.spec);
    for (const d of doc) collect(d, hint, acc);
    return;
  }
  if (!isRecord(doc)) return;
  const kind = typeof doc.kind === 'string' ? doc.kind : undefined;
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : undefined;
  if (Array.isArray(doc.items) && (kind === undefined || kind.endsWith('List'))) {
    // `List` (kubectl get a,b -o json) holds items of any kind; `NodeList` holds Nodes.
    const itemKind = kind && kind !== 'List' ? kind.slice(0, -'List'.length) : undefined;
    const typed = itemKind ? acceptKind(itemKind, apiVersion) : undefined;
    let itemHint: Hint;
    if (typed) {
      acc.listed.set(typed.kind, typed);
      itemHint = { spec: typed, apiVersion };
    } else if (itemKind) {
      // A typed list of a kind we do not read (ReplicationControllerList) must not fall back to the path;
      // one of a kind we read in another group (machine.openshift.io MachineList) holds foreign objects.
      itemHint = findKind(itemKind) && apiVersion ? { foreign: { kind: itemKind, apiVersion } } : { unread: true };
    } else {
      if (hint.spec) acc.listed.set(hint.spec.kind, hint.spec);
      itemHint = { spec: hint.spec, unread: hint.unread };
    }
    for (const item of doc.items) collect(item, itemHint, acc);
    return;
  }
  const meta = doc.metadata;
  if (!isRecord(meta) || typeof meta.name !== 'string') return;
  // Inside a typed list (or a file named after a kind) an item with a name is an object of that kind;
  // elsewhere it must look like one to count (analysis.json, version.yaml are not cluster data).
  const looksLikeObject =
    kind !== undefined ||
    apiVersion !== undefined ||
    !!hint.spec ||
    !!hint.foreign ||
    isRecord(doc.spec) ||
    isRecord(doc.status) ||
    isRecord(doc.involvedObject);
  if (!looksLikeObject) return;
  acc.holdsObjects = true;
  const t = findNewestTime(doc, acc.notAfterMs);
  if (t !== undefined && (acc.newestTime === undefined || t > acc.newestTime)) acc.newestTime = t;
  let spec: KindSpec | undefined;
  if (kind) {
    spec = acceptKind(kind, apiVersion);
    if (!spec && findKind(kind) && apiVersion) noteForeign(acc, kind, apiVersion);
  } else if (hint.spec) spec = hint.spec;
  else if (hint.foreign) noteForeign(acc, hint.foreign.kind, hint.foreign.apiVersion);
  else if (!hint.unread) acc.kindless++;
  if (!spec) return; // a kind we do not read: ignored silently (README.md "Dump format")
  const obj = { ...doc } as KubeObject;
  if (!kind) obj.kind = spec.kind;
  if (obj.apiVersion === undefined && hint.apiVersion && hint.spec === spec) obj.apiVersion = hint.apiVersion;
  acc.objects.push(obj);
}

function noteForeign(acc: Acc, kind: string, apiVersion: string): void {
  const key = `${kind}\u0000${apiVersion}`;
  const seen = acc.foreign.get(key);
  if (seen) seen.count++;
  else acc.foreign.set(key, { kind, apiVersion, count: 1 });
}

/** The KindSpec for a kind; events.k8s.io/v1 Events count as Events (projectEvent reads both shapes). */
function acceptKind(kind: string, apiVersion: string | undefined): KindSpec | undefined {
  const spec = findKind(kind, apiVersion);
  if (spec) return spec;
  if (kind === 'Event' && apiVersion?.startsWith('events.k8s.io/')) return findKind('Event');
  return undefined;
}

/** A .json file: one JSON value, else the run-together documents of a saved `kubectl cluster-info dump`. */
function parseJsonDocuments(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch (e) {
    try {
      return splitJsonDocuments(text);
    } catch {
      throw new CaptureParseError(`invalid JSON: ${firstLine(e)}`);
    }
  }
}

/**
 * Deepest `[`/`{` nesting a YAML file may have. Kubernetes objects nest a few dozen levels; the
 * yaml parser recurses per level, and near the stack limit V8 can die in its RegExp compiler
 * ("RegExpCompiler Allocation failed", a fatal OOM, not a catchable error) — found by the dump
 * fuzzer with `[` × 5000. So deeper flow nesting is refused before parsing.
 */
const MAX_YAML_FLOW_DEPTH = 256;

function parseYamlDocuments(text: string): unknown[] {
  const depth = flowDepth(text);
  if (depth > MAX_YAML_FLOW_DEPTH)
    throw new CaptureParseError(
      `invalid YAML: nested deeper than ${MAX_YAML_FLOW_DEPTH} levels of [ and { (${depth}); not a Kubernetes object`,
    );
  // What `kubectl get -o yaml` writes is read at about the speed of JSON.parse (parse-kubectl-yaml.ts); the
  // full YAML library took 100× longer on a 281 KB dump. Anything else goes to js-yaml, which refuses
  // aliases here (Kubernetes output has none, and a shared node walked by every reader after it is the
  // billion-laughs trap), and what js-yaml refuses to the YAML library behind config files, which expands
  // aliases up to a limit and words the error. Both are loaded only when needed.
  try {
    return parseKubectlYaml(text);
  } catch (e) {
    if (!(e instanceof UnsupportedYaml)) throw e;
  }
  try {
    const { CORE_SCHEMA, loadAll } = require('js-yaml') as typeof JsYaml;
    return loadAll(text, { schema: CORE_SCHEMA, maxAliases: 0 });
  } catch {
    return parseYamlDocumentsSlowly(text);
  }
}

/** Loads the YAML parsers of the rare path synchronously (dump files are parsed in a sync loop). */
const require = createRequire(import.meta.url);

/** The YAML library behind config files, for the dump files the faster parsers refuse. */
function parseYamlDocumentsSlowly(text: string): unknown[] {
  const { parseAllDocuments } = require('yaml') as typeof Yaml;
  const docs = parseAllDocuments(text);
  // parseAllDocuments returns an EmptyStream (not an array) for an empty file.
  if (!Array.isArray(docs)) return [];
  return docs.map((d, i) => {
    const err = d.errors[0];
    if (err)
      throw new CaptureParseError(`invalid YAML${docs.length > 1 ? ` (document ${i + 1})` : ''}: ${firstLine(err)}`);
    return d.toJS({ maxAliasCount: 1000 });
  });
}

/** Deepest nesting of `[` and `{`, outside quoted strings and comments (an upper bound is enough: it only refuses). */
function flowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#') {
      const eol = text.indexOf('\n', i);
      if (eol < 0) break;
      i = eol;
    } else if (c === '[' || c === '{') {
      if (++depth > max) max = depth;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return max;
}

function firstLine(e: unknown): string {
  const msg = describeError(e);
  return (msg.split('\n')[0] ?? msg).trim();
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
