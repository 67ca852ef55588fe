import type { ApprovalRequest, ApprovalVote } from '../approval-request.js';
import type { PlanSigner } from '../plan-signer.js';

/**
 * A vote is bound to its request id and to the request's plan signature (so to cluster, action,
 * params and preconditions), to the voter's Slack id, its time and its confirmation. Copying a vote
 * into another request, changing its user or time, or inventing one fails verification.
 */
function envelope(req: Pick<ApprovalRequest, 'id' | 'signature'>, vote: ApprovalVote) {
  return {
    requestId: req.id,
    plan: req.signature ?? '',
    user: vote.user,
    decision: 'approve',
    at: vote.at,
    confirmed: vote.confirmed === true,
  };
}

/** The vote with its seal (throws when the signer is not ready). */
export function signVote(
  req: Pick<ApprovalRequest, 'id' | 'signature'>,
  vote: ApprovalVote,
  signer: PlanSigner,
): ApprovalVote {
  return { ...vote, sig: signer.sign('vote', envelope(req, vote)) };
}

/** Does the vote's seal verify for this request (constant-time)? */
export function isVoteSignatureValid(
  req: Pick<ApprovalRequest, 'id' | 'signature'>,
  vote: ApprovalVote,
  signer: PlanSigner,
): boolean {
  return signer.verify('vote', envelope(req, vote), vote.sig);
}
