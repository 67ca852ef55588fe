import type { ApprovalRequest, ApprovalStatus } from './approval-request.js';

/** Allowed transitions; anything else is a bug or a lost race, never applied. */
const NEXT: Record<ApprovalStatus, readonly ApprovalStatus[]> = {
  pending: ['approved', 'rejected', 'cancelled', 'expired'],
  approved: ['executing'],
  executing: ['succeeded', 'failed', 'aborted', 'interrupted'],
  succeeded: [],
  failed: [],
  aborted: [],
  interrupted: [],
  rejected: [],
  cancelled: [],
  expired: [],
};

/**
 * The request moved to `to` at `now` (pure), or undefined when that transition is not allowed from
 * its current status: the caller lost a race (another click, another worker) and must do nothing.
 */
export function moveRequest(
  req: ApprovalRequest,
  to: ApprovalStatus,
  now: Date,
  result?: string,
): ApprovalRequest | undefined {
  if (!NEXT[req.status].includes(to)) return undefined;
  return {
    ...req,
    status: to,
    ...(result !== undefined ? { result } : {}),
    transitions: [...req.transitions, { status: to, at: now.toISOString() }],
  };
}
