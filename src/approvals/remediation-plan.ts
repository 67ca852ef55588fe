import type { ActionId } from '../diagnose/finding.js';

/**
 * Every catalog action: the docs/design.md actions plus node.remove-out-of-service, the undo of
 * node.out-of-service (its own approval-gated proposal), and the Cluster API annotation actions
 * with their undos; all are in the contract's ACTION_IDS.
 */
export type CatalogActionId = ActionId;

/** Parameters of a plan: uint64 etcd ids stay decimal strings (docs/design.md "Where state lives"). */
export type PlanParams = Record<string, string | number>;

/** One fact the plan relies on; re-checked against the live cluster right before executing. */
export interface Precondition {
  /** Stable id, e.g. "member-in-sync". */
  id: string;
  /** What must still hold, in words an approver understands. */
  text: string;
  /** The live value recorded when the plan was made (e.g. a resourceVersion or replica count). */
  recorded?: string | number;
}

/** A frozen plan: what approvers approve. Its hash covers action + params + preconditions. */
export interface RemediationPlan {
  action: CatalogActionId;
  cluster: string;
  params: PlanParams;
  /** Short description, e.g. "Suspend webhook kyverno-resource-validating-webhook-cfg". */
  label: string;
  /** Exact calls in order, e.g. "DELETE /apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/x". */
  apiCalls: string[];
  preconditions: Precondition[];
  /** One line: what can go wrong. */
  risk: string;
}

/** The outcome of an execution that can be undone: the undo is proposed, never run automatically. */
export interface UndoProposal {
  action: CatalogActionId;
  params: PlanParams;
  label: string;
  risk: string;
}
