import type { RemediationPlan } from './remediation-plan.js';

/**
 * Where a request is. pending → approved → executing → succeeded | failed | aborted | interrupted;
 * pending → rejected | cancelled (the proposer withdrew it) | expired. Every state but pending,
 * approved and executing is final.
 */
export type ApprovalStatus = 'pending' | 'approved' | 'executing' | 'succeeded' | 'failed' | 'aborted' | 'interrupted' | 'rejected' | 'cancelled' | 'expired';

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
  status: ApprovalStatus;
  /** Distinct approvers in order (never the proposer). */
  approvals: { user: string; at: string }[];
  /** Who rejected / cancelled, when. */
  decidedBy?: { user: string; at: string };
  /** The dry-run line shown to approvers. */
  dryRun: string;
  /** The thread the request lives in, and its own message (updated on every vote). */
  thread: { channel: string; threadTs: string; messageTs?: string };
  /** Final outcome line (executed, aborted: why, interrupted…). */
  result?: string;
  /** Each status change, in order. */
  transitions: { status: ApprovalStatus; at: string }[];
}

/** The statuses that ignore every further click. */
export const FINAL_STATUSES: readonly ApprovalStatus[] = ['succeeded', 'failed', 'aborted', 'interrupted', 'rejected', 'cancelled', 'expired'];
