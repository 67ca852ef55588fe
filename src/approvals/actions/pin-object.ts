import type { Precondition, RemediationPlan } from '../remediation-plan.js';
import { RemediateError } from '../remediate-error.js';
import type { KubeCall } from '../execute/send-kube.js';

/** Id of the precondition that records the uid of the object a plan was made for. */
export const SAME_OBJECT = 'same-object';

/** "`what` is the same object as at proposal time", recording its uid (a live plan always has one). */
export function sameObjectPrecondition(what: string, uid: string | undefined): Precondition {
  return {
    id: SAME_OBJECT,
    text: `${what} is the same object as at proposal time (same uid; a replacement with the same name is never touched)`,
    ...(uid ? { recorded: uid } : {}),
  };
}

/**
 * The uid the plan was made for. A plan without one (made without a live cluster) is never
 * executed: it fails closed instead of acting on whatever now carries the name.
 */
export function pinnedUid(plan: RemediationPlan, what: string): string {
  const uid = plan.preconditions.find((p) => p.id === SAME_OBJECT)?.recorded;
  if (uid === undefined || uid === '')
    throw new RemediateError(
      'E_REMEDIATE_PARAMS',
      `the plan recorded no uid for ${what}: propose it again against the live cluster`,
    );
  return String(uid);
}

/** The object now under the name is not the one the plan was made for, in words. */
export function replacedMessage(what: string, pinned: string, live: string | undefined): string {
  return `${what} was replaced since the proposal (uid ${pinned} → ${live ?? '<none>'}): the plan never acts on a replacement`;
}

/**
 * A DELETE pinned to one object version: `DeleteOptions.preconditions` with its uid and
 * resourceVersion. kube-apiserver refuses it with 409 Conflict ("the UID in the precondition (…)
 * does not match the UID in record (…). The object might have been deleted and then recreated", or
 * the same for the ResourceVersion) when the object under that name is another one or has changed,
 * dry runs included (k8s.io/apiserver registry/rest/delete.go BeforeDelete, and the storage layer's
 * Preconditions.Check).
 */
export function pinnedDelete(
  path: string,
  pin: { uid: string; resourceVersion: string },
  query?: Record<string, string>,
): KubeCall {
  return {
    method: 'DELETE',
    path,
    ...(query ? { query } : {}),
    body: {
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: { uid: pin.uid, resourceVersion: pin.resourceVersion },
    },
  };
}
