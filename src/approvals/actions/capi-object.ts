import { checkTargetCluster } from './check-target-cluster.js';
import { replacedMessage } from './pin-object.js';
import type { KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../execute/action-context.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { isNotFound, sendKube, type KubeCall } from '../execute/send-kube.js';

/** A namespaced Cluster API object on the management cluster that an action annotates. */
export interface CapiTarget {
  kind: 'Machine' | 'MachineHealthCheck';
  /** Plural in `cluster.x-k8s.io`. */
  plural: 'machines' | 'machinehealthchecks';
  namespace: string;
  name: string;
  /** "Machine ns/name". */
  what: string;
}

/** Versions tried in order: v1beta2 is the storage version since Cluster API v1.11, v1beta1 before. */
const CAPI_VERSIONS = ['v1beta2', 'v1beta1'];
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Validate `namespace` and `name` params (a bad one is refused before any call). */
export function capiTarget(kind: CapiTarget['kind'], params: PlanParams): CapiTarget {
  const namespace = String(params.namespace ?? '');
  const name = String(params.name ?? '');
  if (!DNS_SUBDOMAIN.test(namespace) || namespace.length > 63)
    throw new RemediateError('E_REMEDIATE_PARAMS', `"${namespace}" is not a namespace`);
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253)
    throw new RemediateError('E_REMEDIATE_PARAMS', `"${name}" is not a ${kind} name`);
  return {
    kind,
    plural: kind === 'Machine' ? 'machines' : 'machinehealthchecks',
    namespace,
    name,
    what: `${kind} ${namespace}/${name}`,
  };
}

/** The object and the path it answered at (the first served version), or undefined when it does not exist. */
export async function readCapiObject(
  ctx: ActionContext,
  t: CapiTarget,
): Promise<{ obj: KubeObject; path: string } | undefined> {
  for (const v of CAPI_VERSIONS) {
    const path = `/apis/cluster.x-k8s.io/${v}/namespaces/${encodeURIComponent(t.namespace)}/${t.plural}/${encodeURIComponent(t.name)}`;
    try {
      return { obj: await sendKube(ctx.management, { method: 'GET', path }), path };
    } catch (err) {
      // 404 is both "this version is not served" and "no such object": try the next version.
      if (!isNotFound(err)) throw err;
    }
  }
  return undefined;
}

/** The object or a RemediateError naming it (planning and execution need it to exist). */
export async function requireCapiObject(ctx: ActionContext, t: CapiTarget): Promise<{ obj: KubeObject; path: string }> {
  const found = await readCapiObject(ctx, t);
  if (!found) throw new RemediateError('E_REMEDIATE_NO_TARGET', `${t.what} does not exist`);
  if (!found.obj.metadata?.uid)
    throw new RemediateError('E_REMEDIATE_NO_TARGET', `${t.what} has no uid: it cannot be pinned`);
  await checkTargetCluster(ctx, found.obj, t.what);
  return found;
}

/**
 * The object a plan was pinned to, read again for its preconditions: the object, or the one reason it
 * does not hold any more (gone, or replaced by another object of the same name).
 */
export async function readPinnedCapiObject(
  ctx: ActionContext,
  t: CapiTarget,
  uid: string,
): Promise<{ obj: KubeObject; problem?: undefined } | { problem: string }> {
  const found = await readCapiObject(ctx, t);
  if (!found) return { problem: `${t.what} no longer exists` };
  if (found.obj.metadata?.uid !== uid) return { problem: replacedMessage(t.what, uid, found.obj.metadata?.uid) };
  try {
    await checkTargetCluster(ctx, found.obj, t.what);
  } catch (err) {
    if (err instanceof RemediateError) return { problem: err.message };
    throw err;
  }
  return { obj: found.obj };
}

/** RFC 6901 JSON pointer of an annotation key ("a/b" → "/metadata/annotations/a~1b"). */
export function annotationPointer(key: string): string {
  return `/metadata/annotations/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * Add one annotation, pinned: the json-patch first `test`s metadata.uid (recorded at proposal time) and
 * the resourceVersion just read, so a recreated or meanwhile changed object makes kube-apiserver refuse
 * the whole patch (422) instead of annotating something the approvers never saw.
 */
export function addAnnotationCall(path: string, read: KubeObject, uid: string, key: string, value: string): KubeCall {
  const ops: unknown[] = [
    { op: 'test', path: '/metadata/uid', value: uid },
    { op: 'test', path: '/metadata/resourceVersion', value: read.metadata?.resourceVersion },
  ];
  if (read.metadata?.annotations && typeof read.metadata.annotations === 'object')
    ops.push({ op: 'add', path: annotationPointer(key), value });
  else ops.push({ op: 'add', path: '/metadata/annotations', value: { [key]: value } });
  return { method: 'PATCH', path, contentType: 'application/json-patch+json', body: ops };
}

/**
 * Remove one annotation, pinned to the object (uid) and to the exact value its own write recorded: an
 * annotation someone else set or changed meanwhile fails the `test` and is never removed.
 */
export function removeAnnotationCall(path: string, uid: string, key: string, value: string): KubeCall {
  return {
    method: 'PATCH',
    path,
    contentType: 'application/json-patch+json',
    body: [
      { op: 'test', path: '/metadata/uid', value: uid },
      { op: 'test', path: annotationPointer(key), value },
      { op: 'remove', path: annotationPointer(key) },
    ],
  };
}
