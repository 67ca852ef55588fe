import { K8sHealthError } from '../../errors/k8s-health-error.js';

/** Thrown for a patch kube-apiserver would reject (bad JSON, failed `test` op, unsupported type). */
export class PatchError extends K8sHealthError {
  override readonly name = 'PatchError';
  declare readonly code: 'E_PATCH';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super('E_PATCH', message);
  }
}

/**
 * Apply a PATCH body to an object, returning a new object.
 * merge-patch and strategic-merge-patch are both applied as RFC 7386 JSON merge patch (enough for
 * the bot's writes: taints, annotations, replicas); json-patch (RFC 6902, client-node's default
 * content type) supports add/remove/replace/test.
 */
export function applyPatch(target: unknown, contentType: string, body: unknown): unknown {
  const type = contentType.split(';')[0]!.trim();
  if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
    return mergePatch(target, body);
  }
  if (type === 'application/json-patch+json') {
    if (!Array.isArray(body)) throw new PatchError('json-patch body must be an array of operations', 400);
    return body.reduce(
      (doc: unknown, op: unknown) => applyJsonPatchOp(doc, op as JsonPatchOp),
      structuredClone(target),
    );
  }
  throw new PatchError(
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got "${type}")`,
    415,
  );
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

interface JsonPatchOp {
  op: string;
  path: string;
  value?: unknown;
}

function applyJsonPatchOp(doc: unknown, op: JsonPatchOp): unknown {
  const parts = String(op.path ?? '')
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts.length === 0) {
    if (op.op === 'replace' || op.op === 'add') return structuredClone(op.value);
    throw new PatchError(`unsupported json-patch op "${op.op}" on the root`, 422);
  }
  let parent: unknown = doc;
  for (const p of parts.slice(0, -1)) {
    parent = (parent as Record<string, unknown> | undefined)?.[p];
    if (parent === null || typeof parent !== 'object')
      throw new PatchError(`json-patch path "${op.path}" does not exist`, 422);
  }
  const last = parts[parts.length - 1]!;
  const container = parent as Record<string, unknown>;
  switch (op.op) {
    case 'add':
      if (Array.isArray(container))
        (container as unknown[]).splice(last === '-' ? container.length : Number(last), 0, structuredClone(op.value));
      else container[last] = structuredClone(op.value);
      return doc;
    case 'replace':
      if (!(last in container)) throw new PatchError(`json-patch replace: "${op.path}" does not exist`, 422);
      container[last] = structuredClone(op.value);
      return doc;
    case 'remove':
      if (!(last in container)) throw new PatchError(`json-patch remove: "${op.path}" does not exist`, 422);
      if (Array.isArray(container)) (container as unknown[]).splice(Number(last), 1);
      else delete container[last];
      return doc;
    case 'test':
      if (JSON.stringify(container[last]) !== JSON.stringify(op.value)) {
        throw new PatchError(`json-patch test failed at "${op.path}"`, 422);
      }
      return doc;
    default:
      throw new PatchError(`unsupported json-patch op "${op.op}"`, 422);
  }
}
