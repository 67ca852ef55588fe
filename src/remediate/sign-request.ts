import type { ApprovalRequest } from './approval-request.js';
import type { PlanSigner } from './plan-signer.js';

/**
 * What the plan signature covers (canonical JSON, see plan-signer.ts): what runs (action, params,
 * preconditions and their hash), where (cluster), which request (id), and everything the executor's
 * policy re-check relies on (proposer, created/expiry times, required count, dry-run outcome). Display
 * text (label, API call lines, risk) is left out: it never changes what runs.
 */
function envelope(req: ApprovalRequest) {
  return {
    requestId: req.id,
    cluster: req.cluster,
    action: req.plan.action,
    params: req.plan.params,
    preconditions: req.plan.preconditions,
    hash: req.hash,
    planCluster: req.plan.cluster,
    proposer: req.proposer,
    createdAt: req.createdAt,
    expiresAt: req.expiresAt,
    required: req.required,
    dryRunOk: req.dryRunOk === true,
  };
}

/** The request's signature, made once when it is proposed (throws when the signer is not ready). */
export function signRequest(req: ApprovalRequest, signer: PlanSigner): string {
  return signer.sign('plan', envelope(req));
}

/** Does the stored signature match the stored request (constant-time)? */
export function isRequestSignatureValid(req: ApprovalRequest, signer: PlanSigner): boolean {
  return signer.verify('plan', envelope(req), req.signature);
}
