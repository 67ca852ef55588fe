import type { ActionContext, ExecuteIo } from '../execute/action-context.js';
import type { CatalogActionId, PlanParams, RemediationPlan, UndoProposal } from '../remediation-plan.js';

/** One Kubernetes RBAC permission an action uses: API group ('' = core), resource, verbs. */
export interface RbacNeed {
  group: string;
  resource: string;
  verbs: readonly ('get' | 'list' | 'create' | 'patch' | 'delete')[];
}

/** What one execution did: a summary line, and the undo to propose when there is one. */
export interface ExecuteResult {
  summary: string;
  undo?: UndoProposal;
}

/**
 * One catalog action (docs/design.md "Fix catalog"), one file each, listed in actions/index.ts.
 * Only these functions write to a cluster; execute() runs once, after approval and a live re-check.
 */
export interface RemediationAction {
  id: CatalogActionId;
  /**
   * Its undo, in words for the approval message (docs/design.md "Fix catalog", column "undo"). An undo
   * is never automatic: after the run, an undo button proposes it as a new request with its own approvals.
   */
  undoWords: string;
  /**
   * Every Kubernetes call any of its steps sends, as RBAC (reads included; etcd actions: none). The
   * Helm chart's remediation ClusterRole is tested against the union of these (test/helm/).
   */
  rbac: readonly RbacNeed[];
  /**
   * Freeze a plan. With a live context the preconditions record current values (resourceVersion,
   * replicas, leader); without one (dump-backed or disabled clusters) the plan only shows what it would do.
   */
  plan(cluster: string, params: PlanParams, live?: ActionContext): Promise<RemediationPlan>;
  /** Server-side `dryRun=All` of the same calls (Kubernetes), or a read-only check (etcd): one line. */
  dryRun(plan: RemediationPlan, ctx: ActionContext): Promise<string>;
  /** Every precondition that no longer holds, in words (empty: safe to execute). */
  checkPreconditions(plan: RemediationPlan, ctx: ActionContext): Promise<string[]>;
  execute(plan: RemediationPlan, ctx: ActionContext, io: ExecuteIo): Promise<ExecuteResult>;
  /** What does not hold after execution (empty: verified). */
  verify(plan: RemediationPlan, ctx: ActionContext): Promise<string[]>;
}
