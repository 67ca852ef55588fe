import type { ApprovalRequest } from '../../approvals/approval-request.js';
import { neutralizeMrkdwn as md, neutralizeMrkdwnNumber as count } from '../../text/neutralize-mrkdwn.js';

/**
 * What the proposer alone is told once their request is posted: exactly how many approvals it needs
 * from other people (the proposer's own never counts), so the confirm dialog's count is never read
 * as "yours included".
 */
export function renderProposed(req: ApprovalRequest): string {
  const n = Math.max(0, req.required - req.approvals.length);
  const approvals = `${count(n)} approval${n === 1 ? '' : 's'}`;
  return req.dryRunOk === false
    ? `Your request for *${md(req.plan.label, { max: 200 })}* is posted below, but its dry run failed: it cannot be approved.`
    : `Your request for *${md(req.plan.label, { max: 200 })}* is posted below. It needs ${approvals} from other authorized people; yours does not count, and you may withdraw it with Reject.`;
}
