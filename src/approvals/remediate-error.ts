import { K8sHealthError } from '../errors/k8s-health-error.js';

/** Why a remediation step could not run; `message` is one line a user can act on. */
export type RemediateErrorCode =
  | 'E_REMEDIATE_NOT_ALLOWED'
  | 'E_REMEDIATE_NO_TARGET'
  /** The target belongs to another Cluster API cluster than the one the fix was proposed for. */
  | 'E_REMEDIATE_OTHER_CLUSTER'
  | 'E_REMEDIATE_PARAMS'
  | 'E_REMEDIATE_ETCD'
  | 'E_REMEDIATE_KUBE'
  | 'E_REMEDIATE_UNKNOWN_ACTION'
  /** K8S_HEALTH_PLAN_SECRET missing or too short: nothing may be proposed, approved or executed. */
  | 'E_REMEDIATE_NO_SECRET'
  /** A backup whose seal does not verify, or that is not the object the plan relies on. */
  | 'E_REMEDIATE_BACKUP'
  /** A server-side dry run, or an etcd read-only check, that did not pass. */
  | 'E_REMEDIATE_DRY_RUN'
  /** `k8s-health enroll`: the token controller filled no token in time (docs/fleet.md). */
  | 'E_ENROLL_NO_TOKEN'
  /** `k8s-health enroll`: the read-only credential it built does not work. */
  | 'E_ENROLL_CHECK'
  /** `k8s-health enroll`: an object of that name exists and is not the reader's (fails unless --replace). */
  | 'E_ENROLL_MISMATCH'
  /** `k8s-health enroll`: the credential's self reviews show a permission beyond reading. */
  | 'E_ENROLL_NOT_READ_ONLY';

/** A failed plan / dry run / execution, translated at the remediate boundary (docs/development.md, "Errors"). */
export class RemediateError extends K8sHealthError {
  override readonly name: string = 'RemediateError';
  declare readonly code: RemediateErrorCode;
  constructor(code: RemediateErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
