import type { Logger } from '../../log/logger.js';
import type { ApprovalRequest } from '../approval-request.js';
import type { ApprovalStore, AuditLog } from '../approval-stores.js';
import { moveRequest } from '../move-request.js';

/** What {@link expireApproval} needs. */
export interface ExpireApprovalDeps {
  approvals: ApprovalStore;
  audit: AuditLog;
  now: () => Date;
  log: Logger;
}

/**
 * Expire one request without a click, by the click path's rule (apply-vote.ts: pending and
 * now ≥ expiresAt) through the store's compare-and-set, and audit it as a click-time expiry is
 * audited (event `expired`, no user, the tally as detail). Returns the expired request when this call
 * won the transition; undefined when the request is gone, was decided meanwhile, is not due yet, or
 * another sweep won it — only the winner audits, and only the winner's caller re-renders the message.
 */
export async function expireApproval(id: string, deps: ExpireApprovalDeps): Promise<ApprovalRequest | undefined> {
  const now = deps.now();
  const res = await deps.approvals.update(id, (req) => ({ request: expireIfDue(req, now), extra: undefined }));
  if (!res?.changed) return undefined;
  const req = res.request;
  deps.log.info({ requestId: id, cluster: req.cluster, by: 'sweep' }, 'approval expired');
  await deps.audit.append({
    at: now.toISOString(),
    cluster: req.cluster,
    requestId: id,
    event: 'expired',
    action: req.plan.action,
    hash: req.hash,
    detail: `${req.approvals.length} of ${req.required} approvals`,
  });
  return req;
}

/** The click path's expiry rule (apply-vote.ts) without a vote: pending and now ≥ expiresAt, else no change. */
function expireIfDue(req: ApprovalRequest, now: Date): ApprovalRequest | undefined {
  if (req.status !== 'pending' || now.getTime() < Date.parse(req.expiresAt)) return undefined;
  return moveRequest(req, 'expired', now);
}
