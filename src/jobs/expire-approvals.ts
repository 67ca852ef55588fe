import type { webApi } from '@slack/bolt';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import { expireApproval } from '../approvals/vote/expire-approval.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import { updateApprovalMessage } from '../slack/post/update-approval-message.js';
import type { ApprovalStore } from '../store/approval-store.js';
import type { AuditLog } from '../store/audit-log.js';
import type { Logger } from '../log/logger.js';

/** What {@link expireApprovals} needs (built by jobs/workers/expiry.ts or a test). */
export interface ExpireApprovalsDeps {
  approvals: ApprovalStore;
  audit: AuditLog;
  /**
   * Posts the re-rendered request messages; without one (no bot token) requests are still expired, and their messages
   * marked stale for a process that has one.
   */
  slack?: webApi.WebClient;
  /** Verifies which message a request may edit (its signed placement); without it no message is edited. */
  signer?: PlanSigner;
  now: () => Date;
  log: Logger;
  /** Most requests handled per sweep (default 500); the rest are due at the next tick. */
  limit?: number;
}

/** What one sweep did (ids), for the job's return value and tests. */
export interface ExpireApprovalsResult {
  /** Requests this sweep moved pending → expired (it won their compare-and-set). */
  expired: string[];
  /** Request messages re-rendered with chat.update (expired now, or left stale by an earlier failure). */
  updated: string[];
  /** Messages whose chat.update failed or was not tried (no token): marked stale, retried next sweep. */
  stale: string[];
}

/**
 * Slack errors after which a retry cannot succeed: the message or channel is gone, or the message
 * can no longer be edited. Such an update is logged and dropped; anything else (rate limit, 5xx,
 * timeout, token trouble) is retried at the next sweep.
 */
const PERMANENT = new Set([
  'message_not_found',
  'channel_not_found',
  'cant_update_message',
  'edit_window_closed',
  'is_archived',
]);

/**
 * The approval expiry sweep (job scheduler `approvals-expiry`, every 60 s): every pending request
 * past its expiresAt becomes `expired` without waiting for a click, so its message stops showing
 * live Approve / Reject buttons on a plan that can no longer run.
 *
 * 1. Due ids come from the store's pending index (expiresAt ≤ now).
 * 2. Each moves to `expired` through the store's compare-and-set with the click path's rule
 *    (apply-vote.ts: pending and now ≥ expiresAt) and the pure moveRequest. A request approved,
 *    rejected or cancelled meanwhile is left alone; of two sweeps (two worker processes) racing on
 *    one request exactly one wins the transition, and only the winner audits and posts.
 * 3. The winner writes the audit entry the click path writes for an expiry (event `expired`, no
 *    user, the tally as detail) and re-renders the request message with renderApproval, as a
 *    click-time expiry does: "Expired", no buttons.
 * 4. Slack failure: the state change stands. The id is marked stale in Redis and the next sweep
 *    re-renders it (SPOP hands each stale id to one sweep). Re-rendering is idempotent: it shows
 *    the request as stored, so a retry after a partial failure can only repeat the same content.
 *    Chosen over "log only" because a message left with live buttons is exactly what this sweep is
 *    for. Without a bot token the request is still expired and its message marked stale, so a
 *    process that has a token updates it.
 */
export async function expireApprovals(deps: ExpireApprovalsDeps): Promise<ExpireApprovalsResult> {
  const now = deps.now();
  const limit = deps.limit ?? 500;
  const result: ExpireApprovalsResult = { expired: [], updated: [], stale: [] };

  // Messages an earlier sweep could not update come first (they have waited longest).
  if (deps.slack) {
    for (const id of await deps.approvals.takeStaleMessages(limit)) {
      const req = await deps.approvals.get(id);
      if (req) await postRendered(req, deps, result);
    }
  }

  for (const id of await deps.approvals.pendingBefore(now.getTime(), limit)) {
    // The transition and its audit entry are the use case's; it returns the request only to the winner.
    const req = await expireApproval(id, { ...deps, now: () => now });
    if (!req) continue; // gone, decided meanwhile, or another sweep won
    result.expired.push(id);
    if (!req.thread.messageTs) continue;
    if (deps.slack) await postRendered(req, deps, result);
    else {
      await deps.approvals.markMessageStale(id);
      result.stale.push(id);
    }
  }
  if (result.expired.length || result.updated.length || result.stale.length) {
    deps.log.info(
      { expired: result.expired.length, updated: result.updated.length, stale: result.stale.length },
      'approval expiry sweep',
    );
  }
  return result;
}

/** chat.update the request message to its stored state; a retryable failure marks it stale again. */
async function postRendered(
  req: ApprovalRequest,
  deps: ExpireApprovalsDeps,
  result: ExpireApprovalsResult,
): Promise<void> {
  if (!deps.slack) return;
  try {
    if ((await updateApprovalMessage(deps.slack, req, deps.signer)) === 'none') return;
    result.updated.push(req.id);
  } catch (err) {
    const code = (err as { data?: { error?: string } }).data?.error;
    if (code && PERMANENT.has(code)) {
      deps.log.warn({ requestId: req.id, error: code }, 'approval message update dropped');
      return;
    }
    deps.log.warn({ requestId: req.id, err }, 'approval message update failed (retried next sweep)');
    await deps.approvals.markMessageStale(req.id);
    result.stale.push(req.id);
  }
}
