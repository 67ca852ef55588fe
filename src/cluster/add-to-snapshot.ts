import type { KindSpec } from './kinds.js';
import { projectCrd } from './project-crd.js';
import { projectEvent } from './project-event.js';
import { projectPod } from './project-pod.js';
import { sanitizeMetadata } from './sanitize-metadata.js';
import type { EventProjection, KubeObject, PodProjection, Snapshot } from './snapshot.js';

/**
 * What the Snapshot keeps of one object: a compact projection for pods, events and CRDs, else the object without
 * managedFields.
 */
export type ProjectedObject = KubeObject | PodProjection | EventProjection;

/**
 * Put one object read from a dump or the API into its place in a (mutable, under construction)
 * Snapshot. Metadata is made to match its type; pods and events are projected; managedFields and
 * any other metadata field the bot does not use are dropped.
 * `origin` says which cluster it came from (events keep it; CAPI objects may come from either).
 */
export function addToSnapshot(
  snapshot: Snapshot,
  spec: KindSpec,
  obj: KubeObject,
  origin: 'workload' | 'management',
): void {
  const projected = projectObject(spec, obj, origin);
  if (projected) placeInSnapshot(snapshot, spec, projected);
}

/**
 * The form an object is kept in (see addToSnapshot); undefined for something that is not an
 * object with a name. The watch cache keeps exactly these, so a cached scan equals a listed one.
 */
export function projectObject(
  spec: KindSpec,
  obj: KubeObject,
  origin: 'workload' | 'management',
): ProjectedObject | undefined {
  if (!obj || typeof obj !== 'object' || !obj.metadata || typeof obj.metadata.name !== 'string') return undefined;
  obj = { ...obj, metadata: sanitizeMetadata(obj.metadata) };
  switch (spec.target) {
    case 'pods':
      return projectPod(obj);
    case 'events':
      return projectEvent(obj, origin);
    case 'customResourceDefinitions':
      return projectCrd(obj);
    default: {
      const clean = stripManagedFields(obj);
      if (!clean.kind) clean.kind = spec.kind;
      return clean;
    }
  }
}

/** Append a projected object to the Snapshot array of its kind. */
export function placeInSnapshot(snapshot: Snapshot, spec: KindSpec, projected: ProjectedObject): void {
  switch (spec.target) {
    case 'pods':
      snapshot.pods.push(projected as PodProjection);
      return;
    case 'events':
      snapshot.events.push(projected as EventProjection);
      return;
    default:
      if (spec.target.startsWith('capi.')) {
        const key = spec.target.slice('capi.'.length) as keyof Snapshot['capi'];
        snapshot.capi[key].push(projected as KubeObject);
      } else {
        (
          snapshot[spec.target as Exclude<typeof spec.target, `capi.${string}` | 'pods' | 'events'>] as KubeObject[]
        ).push(projected as KubeObject);
      }
  }
}

function stripManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return { ...obj };
  const { managedFields: _dropped, ...metadata } = obj.metadata as KubeObject['metadata'] & { managedFields?: unknown };
  return { ...obj, metadata };
}
