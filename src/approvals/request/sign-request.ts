import type { ApprovalRequest } from '../approval-request.js';
import type { PlanSigner } from '../plan-signer.js';

/**
 * What the plan signature covers (canonical JSON, see plan-signer.ts): what runs (action, params,
 * preconditions and their hash), where (cluster), which request (id), and everything the executor's
 * policy re-check relies on (proposer, created/expiry times, required count, dry-run outcome) — and
 * what the approvers were shown about it: the label, the API call lines, the risk, the dry-run line,
 * who may approve and the thread it was posted in. The display text never changes what runs, but the
 * request message is re-rendered from Redis on every vote, so a Redis writer could otherwise make
 * approvers read "Scale shop/test to 1" or a one-object blast radius over a plan that does more; with
 * it signed, a request whose shown text was changed is refused like one whose params were.
 * (`thread.messageTs` is added after signing, once the message is posted; it only says which message
 * to edit.)
 */
function envelope(req: ApprovalRequest) {
  return {
    shown: {
      label: req.plan.label,
      apiCalls: req.plan.apiCalls,
      risk: req.plan.risk,
      dryRun: req.dryRun,
      approvers: req.approvers,
      thread: { channel: req.thread?.channel, threadTs: req.thread?.threadTs },
    },
    requestId: req.id,
    fixKey: req.fixKey,
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
