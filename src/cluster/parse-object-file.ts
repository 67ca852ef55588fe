import { parseAllDocuments } from 'yaml';
import { findKind, KINDS, type KindSpec } from './kinds.js';
import type { KubeObject } from './snapshot.js';

/**
 * The Kubernetes objects of one dump file whose kind we read (kinds.ts), with `kind` (and
 * `apiVersion` when the list says it) filled in. Accepts a single object, a `List`/`*List` with
 * `items`, a JSON array, or multi-document YAML. Throws (one-line message) when the file cannot be parsed.
 *
 * Items of typed lists printed by `kubectl cluster-info dump` carry no kind/apiVersion (Go structs
 * with an empty TypeMeta): the kind comes from the list's kind (`NodeList` → Node) or, failing
 * that, from the file name (`pods.json` → Pod; realdata/cluster-info-dump-layout.md).
 */
export function parseObjectFile(text: string, fileName: string): KubeObject[] {
  const docs = /\.json$/i.test(fileName) ? [parseJson(text)] : parseYamlDocuments(text);
  const fromName = kindFromFileName(fileName);
  const out: KubeObject[] = [];
  for (const doc of docs) collect(doc, { spec: fromName }, out);
  return out;
}

interface Hint {
  /** Kind inferred from the enclosing typed list or the file name. */
  spec?: KindSpec;
  /** apiVersion of the enclosing typed list. */
  apiVersion?: string;
}

function collect(doc: unknown, hint: Hint, out: KubeObject[]): void {
  if (Array.isArray(doc)) {
    for (const d of doc) collect(d, hint, out);
    return;
  }
  if (!isRecord(doc)) return;
  const kind = typeof doc.kind === 'string' ? doc.kind : undefined;
  if (Array.isArray(doc.items) && (kind === undefined || kind.endsWith('List'))) {
    const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : undefined;
    // `List` (kubectl get a,b -o json) holds items of any kind; `NodeList` holds Nodes.
    const typed = kind && kind !== 'List' ? acceptKind(kind.slice(0, -'List'.length), apiVersion) : undefined;
    // A typed list of a kind we do not read (ReplicationControllerList) must not fall back to the file name.
    const itemHint: Hint = typed ? { spec: typed, apiVersion } : kind === undefined || kind === 'List' ? { spec: hint.spec } : {};
    for (const item of doc.items) collect(item, itemHint, out);
    return;
  }
  const meta = doc.metadata;
  if (!isRecord(meta) || typeof meta.name !== 'string') return;
  let spec: KindSpec | undefined;
  if (kind) spec = acceptKind(kind, typeof doc.apiVersion === 'string' ? doc.apiVersion : undefined);
  else spec = hint.spec;
  if (!spec) return; // a kind we do not read: ignored silently (DESIGN.md "Dump format")
  const obj = { ...doc } as KubeObject;
  if (!kind) obj.kind = spec.kind;
  if (obj.apiVersion === undefined && hint.apiVersion && hint.spec === spec) obj.apiVersion = hint.apiVersion;
  out.push(obj);
}

/** The KindSpec for a kind; events.k8s.io/v1 Events count as Events (projectEvent reads both shapes). */
function acceptKind(kind: string, apiVersion: string | undefined): KindSpec | undefined {
  const spec = findKind(kind, apiVersion);
  if (spec) return spec;
  if (kind === 'Event' && apiVersion?.startsWith('events.k8s.io/')) return findKind('Event');
  return undefined;
}

/** `pods.json`, `machines.cluster.x-k8s.io.yaml`, `replication-controllers.json` → the kind, if we read it. */
export function kindFromFileName(fileName: string): KindSpec | undefined {
  const base = (fileName.split(/[\\/]/).pop() ?? '').split('.')[0]?.toLowerCase() ?? '';
  return KINDS.find((k) => k.plural === base || k.kind.toLowerCase() === base);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`invalid JSON: ${firstLine(e)}`);
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
  if (depth > MAX_YAML_FLOW_DEPTH) throw new Error(`invalid YAML: nested deeper than ${MAX_YAML_FLOW_DEPTH} levels of [ and { (${depth}); not a Kubernetes object`);
  const docs = parseAllDocuments(text);
  // parseAllDocuments returns an EmptyStream (not an array) for an empty file.
  if (!Array.isArray(docs)) return [];
  return docs.map((d, i) => {
    const err = d.errors[0];
    if (err) throw new Error(`invalid YAML${docs.length > 1 ? ` (document ${i + 1})` : ''}: ${firstLine(err)}`);
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
  const msg = e instanceof Error ? e.message : String(e);
  return (msg.split('\n')[0] ?? msg).trim();
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
