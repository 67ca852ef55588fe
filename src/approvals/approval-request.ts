import type { RemediationPlan } from './remediation-plan.js';

/**
 * Where a request is. pending → approved → executing → succeeded | failed | aborted | interrupted;
 * pending → rejected | cancelled (the proposer withdrew it) | expired. Every state but pending,
 * approved and executing is final.
 */
export type ApprovalStatus =
  | 'pending'
  | 'approved'
  | 'executing'
  | 'succeeded'
  | 'failed'
  | 'aborted'
  | 'interrupted'
  | 'rejected'
  | 'cancelled'
  | 'expired';

/** An approval request, stored whole in Redis and changed only by compare-and-set. */
export interface ApprovalRequest {
  /** Opaque id (`r_…`): the Approve/Reject button value and the remediate job id. */
  id: string;
  cluster: string;
  /** The frozen plan approvers see; executed exactly as frozen. */
  plan: RemediationPlan;
  /** hashPlan(plan) when proposed; re-checked before executing. */
  hash: string;
  /** Slack user id from the verified payload of the click that proposed it. */
  proposer: string;
  createdAt: string;
  expiresAt: string;
  /** approvals.required when proposed. */
  required: number;
  /**
   * Who may approve, as the cluster's `approvers` config said when proposed: shown in the
   * request message only. Display, not policy: every vote is authorized against the config at vote
   * time. Absent on requests stored by older versions.
   */
  approvers?: { users: string[]; groups: string[] };
  status: ApprovalStatus;
  /** Distinct approvers in order (never the proposer), each vote sealed (see {@link ApprovalVote}). */
  approvals: ApprovalVote[];
  /** Who rejected / cancelled, when. */
  decidedBy?: { user: string; at: string };
  /** The dry-run line shown to approvers. */
  dryRun: string;
  /**
   * The server-side dry run (or etcd read-only check) passed. A request whose dry run failed shows the
   * failure and no Approve button, and every approve vote on it is refused (apply-vote.ts); signed.
   * Absent on requests stored by versions that did not sign requests (they never run).
   */
  dryRunOk?: boolean;
  /**
   * HMAC-SHA256 (K8S_HEALTH_PLAN_SECRET) of the request's signed envelope (sign-request.ts): action,
   * params, preconditions, hash, cluster, id, proposer, times, required count, dry-run outcome, and
   * what approvers are shown (label, API calls, risk, dry-run line, approvers, thread). The
   * executor refuses a request whose signature does not verify. Absent on requests from versions that did not sign
   * them.
   */
  signature?: string;
  /**
   * The fix this request is for (request/fix-key.ts: cluster, action and the proposal's parameters):
   * its pending claim, and once it ran, which fix buttons disappear. Signed; absent on older requests.
   */
  fixKey?: string;
  /** The thread the request lives in, and its own message (updated on every vote). */
  thread: {
    channel: string;
    threadTs: string;
    messageTs?: string;
    /** MAC over request id, channel and messageTs, made when the message is posted (sign-message-placement.ts). */
    messageMac?: string;
  };
  /** Final outcome line (executed, aborted: why, interrupted…). */
  result?: string;
  /** Each status change, in order. */
  transitions: { status: ApprovalStatus; at: string }[];
}

/**
 * One approve vote. `sig` is the HMAC (K8S_HEALTH_PLAN_SECRET) of request id + plan signature + user +
 * time + confirmation (sign-vote.ts), added by the process that verified the click: a vote written into
 * Redis by anyone else does not verify, so it never counts at execution time.
 */
export interface ApprovalVote {
  user: string;
  at: string;
  /** The voter typed the cluster name in the confirmation modal (approvals.confirmByTyping). */
  confirmed?: boolean;
  sig?: string;
}

/** The statuses that ignore every further click. */
export const FINAL_STATUSES: readonly ApprovalStatus[] = [
  'succeeded',
  'failed',
  'aborted',
  'interrupted',
  'rejected',
  'cancelled',
  'expired',
];
