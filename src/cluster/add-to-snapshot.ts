import type { KindSpec } from './kinds.js';
import { projectEvent } from './project-event.js';
import { projectPod } from './project-pod.js';
import { sanitizeMetadata } from './sanitize-metadata.js';
import type { KubeObject, Snapshot } from './snapshot.js';

/**
 * Put one object read from a dump or the API into its place in a (mutable, under construction)
 * Snapshot. Metadata is made to match its type; pods and events are projected; managedFields and
 * any other metadata field the bot does not use are dropped.
 * `origin` says which cluster it came from (events keep it; CAPI objects may come from either).
 */
export function addToSnapshot(snapshot: Snapshot, spec: KindSpec, obj: KubeObject, origin: 'workload' | 'management'): void {
  if (!obj || typeof obj !== 'object' || !obj.metadata || typeof obj.metadata.name !== 'string') return;
  obj = { ...obj, metadata: sanitizeMetadata(obj.metadata) };
  switch (spec.target) {
    case 'pods':
      snapshot.pods.push(projectPod(obj));
      return;
    case 'events':
      snapshot.events.push(projectEvent(obj, origin));
      return;
    default: {
      const clean = stripManagedFields(obj);
      if (!clean.kind) clean.kind = spec.kind;
      if (spec.target.startsWith('capi.')) {
        const key = spec.target.slice('capi.'.length) as keyof Snapshot['capi'];
        snapshot.capi[key].push(clean);
      } else {
        (snapshot[spec.target as Exclude<typeof spec.target, `capi.${string}` | 'pods' | 'events'>] as KubeObject[]).push(clean);
      }
    }
  }
}

function stripManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return { ...obj };
  const { managedFields: _dropped, ...metadata } = obj.metadata as KubeObject['metadata'] & { managedFields?: unknown };
  return { ...obj, metadata };
}
