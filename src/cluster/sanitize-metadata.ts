import type { ObjectMeta, OwnerReference } from './snapshot.js';

/**
 * Make `metadata` match its type at the boundary (dump files are hand-edited, fuzzed or corrupt):
 * labels/annotations become string maps, ownerReferences keep entries with a string kind and name,
 * timestamps and namespace must be strings. Analyzers then trust metadata; `spec`/`status` stay
 * loose and analyzers guard them.
 */
export function sanitizeMetadata(meta: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = { name: meta.name };
  for (const k of ['namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'] as const) {
    if (typeof meta[k] === 'string') out[k] = meta[k];
  }
  if (typeof meta.generation === 'number') out.generation = meta.generation;
  if (typeof meta.deletionGracePeriodSeconds === 'number')
    out.deletionGracePeriodSeconds = meta.deletionGracePeriodSeconds;
  const labels = stringMap(meta.labels);
  if (labels) out.labels = labels;
  const annotations = stringMap(meta.annotations);
  if (annotations) out.annotations = annotations;
  if (Array.isArray(meta.ownerReferences)) {
    const refs = meta.ownerReferences.filter(
      (r): r is OwnerReference =>
        !!r && typeof r === 'object' && typeof r.kind === 'string' && typeof r.name === 'string',
    );
    if (refs.length) out.ownerReferences = refs;
  }
  if (Array.isArray(meta.finalizers)) {
    const f = meta.finalizers.filter((x): x is string => typeof x === 'string');
    if (f.length) out.finalizers = f;
  }
  return out;
}

function stringMap(v: unknown): Record<string, string> | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}
