import type { webApi } from '@slack/bolt';
import type { ClusterConfig } from '../config/config-schema.js';
import type { ActionContext } from '../remediate/action-context.js';
import type { PlanSigner } from '../remediate/plan-signer.js';
import type { ApprovalBackups } from '../store/approval-backups.js';
import type { ApprovalStore } from '../store/approval-store.js';
import type { AuditLog } from '../store/audit-log.js';
import type { CheckApproverAccount } from './check-approver-account.js';

/** What the approval listeners need besides SlackDeps (built by cli/run-serve.ts or a test). */
export interface ApprovalDeps {
  approvals: ApprovalStore;
  audit: AuditLog;
  backups: ApprovalBackups;
  /** K8S_HEALTH_PLAN_SECRET: signs each request and seals each vote; not ready = nothing is proposed or approved. */
  signer: PlanSigner;
  /** Live access to a cluster, for the plan and its dry run. */
  createContext: (cluster: ClusterConfig) => Promise<ActionContext>;
  /** Enqueue the remediate job of a request that just became approved (job id = request id). */
  enqueue: (requestId: string) => Promise<void>;
  /** Is this Slack user an approver of this cluster (user id or member of an approver group)? */
  isAuthorized: (client: webApi.WebClient, cluster: ClusterConfig, userId: string) => Promise<boolean>;
  /** users.info at vote time for an authorized user: deactivated, guest, other-workspace accounts do not count. */
  checkApprover: CheckApproverAccount;
}
