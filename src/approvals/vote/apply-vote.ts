import type { ApprovalRequest } from '../approval-request.js';
import { moveRequest } from '../move-request.js';

/** One click on Approve or Reject; `user` comes from the verified payload, `authorized` from config + Slack groups. */
export interface Vote {
  user: string;
  kind: 'approve' | 'reject';
  authorized: boolean;
  /** The final approver typed the cluster name in the confirmation modal. */
  confirmed?: boolean;
  /**
   * The clicker's Slack account as users.info showed it at this vote (slack/handle/check-approver-account.ts;
   * castVote always sets it for an authorized user): an ineligible or unverified account does not count.
   */
  account?: 'ok' | 'ineligible' | 'unverified';
}

/**
 * What a vote did. `counted`: one more approval, not yet enough. `approved`: the decisive approval
 * (enqueue the job). `needs-confirmation`: it would be decisive, but config wants the cluster name typed.
 * The rest change nothing but `expired` (the request is now expired) and `rejected` / `cancelled`.
 * `dry-run-failed`: an approve on a plan whose server-side dry run failed: never counted.
 */
export type VoteOutcome =
  | 'counted'
  | 'approved'
  | 'needs-confirmation'
  | 'rejected'
  | 'cancelled'
  | 'expired'
  | 'closed'
  | 'self-approval'
  | 'duplicate'
  | 'unauthorized'
  /** Listed as an approver, but the account cannot approve now (deactivated, guest, other workspace). */
  | 'ineligible'
  /** Listed as an approver, but Slack could not confirm the account: not counted (fail closed). */
  | 'unverified'
  /** An approve on a plan whose server-side dry run failed: never counted. */
  | 'dry-run-failed';

/**
 * The two-person approval policy (docs/design.md), pure with an injected clock: distinct authorized
 * approvers; the proposer never counts (but may withdraw); any authorized Reject cancels; a request
 * past its expiry, or already decided, ignores every click; an authorized user whose Slack account
 * is not confirmed eligible at vote time counts as neither approval nor rejection. Returns
 * the request to store (unchanged when nothing changed) and the outcome to tell the clicker. A plan
 * whose dry run failed cannot be approved by anyone (its message has no Approve button; this refuses
 * a forged or stale click too), but it can still be rejected or withdrawn. `ctx.required` is
 * approvals.required of the current config: a vote is decisive only once both it and the request's own
 * count are reached, as the executor will check.
 */
export function applyVote(
  req: ApprovalRequest,
  vote: Vote,
  ctx: { now: Date; confirmByTyping: boolean; required?: number },
): { request: ApprovalRequest; outcome: VoteOutcome } {
  const now = ctx.now;
  if (req.status !== 'pending') return { request: req, outcome: 'closed' };
  if (now.getTime() >= Date.parse(req.expiresAt))
    return { request: moveRequest(req, 'expired', now)!, outcome: 'expired' };
  const at = now.toISOString();
  if (vote.kind === 'reject') {
    if (vote.user === req.proposer)
      return {
        request: { ...moveRequest(req, 'cancelled', now)!, decidedBy: { user: vote.user, at } },
        outcome: 'cancelled',
      };
    if (!vote.authorized) return { request: req, outcome: 'unauthorized' };
    if (vote.account && vote.account !== 'ok') return { request: req, outcome: vote.account };
    return {
      request: { ...moveRequest(req, 'rejected', now)!, decidedBy: { user: vote.user, at } },
      outcome: 'rejected',
    };
  }
  if (req.dryRunOk === false) return { request: req, outcome: 'dry-run-failed' };
  if (vote.user === req.proposer) return { request: req, outcome: 'self-approval' };
  if (!vote.authorized) return { request: req, outcome: 'unauthorized' };
  if (vote.account && vote.account !== 'ok') return { request: req, outcome: vote.account };
  if (req.approvals.some((a) => a.user === vote.user)) return { request: req, outcome: 'duplicate' };
  const approvals = [...req.approvals, { user: vote.user, at, ...(vote.confirmed ? { confirmed: true } : {}) }];
  // As many approvals as the executor will count (verify-approval.ts): max(required when proposed,
  // approvals.required now). `required` is read back from Redis: one that is no number (written there by
  // someone else) counts as nothing, so it can never make a single vote decisive.
  const proposedWith = typeof req.required === 'number' && Number.isFinite(req.required) ? req.required : 0;
  if (approvals.length < Math.max(proposedWith, ctx.required ?? 1, 1))
    return { request: { ...req, approvals }, outcome: 'counted' };
  if (ctx.confirmByTyping && !vote.confirmed) return { request: req, outcome: 'needs-confirmation' };
  return { request: { ...moveRequest(req, 'approved', now)!, approvals }, outcome: 'approved' };
}
