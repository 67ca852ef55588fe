import type { KubeObject } from './snapshot.js';

/**
 * What the Snapshot keeps of a CustomResourceDefinition ("what changed": CRDs installed or
 * changed since the last healthy scan): its metadata (uid, resourceVersion, generation, times), group,
 * kind, scope and version names. Never the schemas: a cluster's CRDs can weigh tens of megabytes, and the
 * bot only needs to see that one appeared or changed (its generation moves on every spec change).
 */
export function projectCrd(obj: KubeObject): KubeObject {
  const spec = obj.spec && typeof obj.spec === 'object' ? obj.spec : {};
  const versions = Array.isArray(spec.versions)
    ? spec.versions
        .filter(
          (v: unknown): v is { name: string; served?: unknown; storage?: unknown } =>
            !!v && typeof (v as { name?: unknown }).name === 'string',
        )
        .map((v: { name: string; served?: unknown; storage?: unknown }) => ({
          name: v.name,
          served: v.served === true,
          storage: v.storage === true,
        }))
    : [];
  const out: KubeObject = {
    apiVersion: obj.apiVersion ?? 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: obj.metadata,
    spec: { versions },
  };
  if (typeof spec.group === 'string') out.spec.group = spec.group;
  if (typeof spec.scope === 'string') out.spec.scope = spec.scope;
  if (spec.names && typeof spec.names.kind === 'string')
    out.spec.names = {
      kind: spec.names.kind,
      ...(typeof spec.names.plural === 'string' ? { plural: spec.names.plural } : {}),
    };
  return out;
}
