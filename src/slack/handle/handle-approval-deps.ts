import type { webApi } from '@slack/bolt';
import type { ClusterConfig } from '../../config/config-schema.js';
import type { PlanSigner } from '../../approvals/plan-signer.js';
import type { ProposalClick } from '../../approvals/request/sign-proposal-click.js';
import type { ApprovalStore } from '../../store/approval-store.js';
import type { AuditLog } from '../../store/audit-log.js';
import type { ApprovalBackups } from '../../approvals/approval-stores.js';
import type { CheckApproverAccount } from './check-approver-account.js';

/** What became of a click handed to the remediation worker (see {@link RequestProposal}). */
export type ProposalRequestResult =
  /** A worker took the click and finished it: it posted the request, or told the clicker why not. */
  | { status: 'finished' }
  /**
   * No worker finished it within `waitedMs`. `started`: one had taken it (it still posts when done);
   * otherwise it was withdrawn from the queue and nothing will be proposed.
   */
  | { status: 'timeout'; started: boolean; waitedMs: number };

/**
 * Hand a verified, sealed click to the remediation worker (queue `k8s-health-propose`) and wait for
 * it. A double click (same proposal, clicker and message) is one job. Rejects when the worker failed
 * on it (its reason is the error's message).
 */
export type RequestProposal = (job: { click: ProposalClick; sig: string }) => Promise<ProposalRequestResult>;

/** What the approval listeners need besides SlackDeps (built by cli/run-serve.ts or a test). */
export interface ApprovalDeps {
  approvals: ApprovalStore;
  audit: AuditLog;
  /** K8S_HEALTH_PLAN_SECRET: seals each click and each vote; not ready = nothing is proposed or approved. */
  signer: PlanSigner;
  /** Planning and its dry run happen in the remediation worker: this hands the click over. */
  requestProposal: RequestProposal;
  /** Enqueue the remediate job of a request that just became approved (job id = request id). */
  enqueue: (requestId: string) => Promise<void>;
  /** Is this Slack user an approver of this cluster (user id or member of an approver group)? */
  isAuthorized: (client: webApi.WebClient, cluster: ClusterConfig, userId: string) => Promise<boolean>;
  /** users.info at vote time for an authorized user: deactivated, guest, other-workspace accounts do not count. */
  checkApprover: CheckApproverAccount;
  /** Backups taken before a change: "Show backup" shows one to the clicker (handle-show-backup.ts). */
  backups?: Pick<ApprovalBackups, 'load'>;
  /** A vote changed a request: recent viewers' App Home shows the approvals waiting on them. */
  onApprovalsChanged?: (client: webApi.WebClient) => Promise<unknown>;
}
