import type { ClusterConfig, Config } from '../../config/config-schema.js';
import type { ApprovalRequest } from '../approval-request.js';
import { hashPlan } from '../hash-plan.js';
import type { PlanSigner } from '../plan-signer.js';
import { isRequestSignatureValid } from '../request/sign-request.js';
import { isVoteSignatureValid } from '../vote/sign-vote.js';

/** What the executor's re-verification needs: the CURRENT config and approvers, the secret, a clock. */
export interface VerifyApprovalContext {
  config: Config;
  signer: PlanSigner;
  now: Date;
  /** Is this Slack user an approver of this cluster NOW (approvers.users, or a member of approvers.groups)? */
  isAuthorized: (cluster: ClusterConfig, user: string) => Promise<boolean>;
}

/**
 * Re-derive "this request may run" from what cannot be forged through Redis (docs/design.md
 * "Signed plans"), instead of trusting its `status`. Returns every reason it may not, one short
 * sentence each (empty: it may run). Checked, in this order:
 *
 * 1. the secret is usable; the cluster is configured, live, and has remediation enabled NOW;
 * 2. the request's signature (HMAC of action, params, preconditions, hash, cluster, id, proposer,
 *    times, required count, dry-run outcome, and the text approvers were shown) verifies, and the
 *    plan still hashes to its hash;
 * 3. the dry run passed;
 * 4. every approve vote carries a seal that verifies (a vote written into Redis by anyone but a bot
 *    process holding the secret never does), the approvers are distinct, never the proposer, each
 *    voted between creation and expiry, and each is an approver under the CURRENT config (a person
 *    removed from approvers.users or from an approver group since voting no longer counts); there
 *    are at least max(required when proposed, approvals.required now) of them; with
 *    approvals.confirmByTyping the decisive vote was confirmed in the modal;
 * 5. execution starts within approvals.executionDeadlineMinutes of the decisive (last) vote.
 *
 * "Not executed before" is not decided here: it is the executed marker the executor sets with SET NX
 * right before running (store/approval-store.ts markExecuted), after this check passed.
 */
export async function verifyApproval(req: ApprovalRequest, ctx: VerifyApprovalContext): Promise<string[]> {
  const { config, signer, now } = ctx;
  if (!signer.ready) return [signer.problem!];
  const problems: string[] = [];
  const cluster = config.clusters.find((c) => c.name === req.cluster);
  if (!cluster || cluster.dump || !cluster.workload)
    problems.push(`cluster ${req.cluster} is not a live cluster in the current config`);
  else if (!cluster.remediation.enabled)
    problems.push(`remediation is not enabled for cluster ${req.cluster} in the current config`);
  if (req.plan.cluster !== req.cluster)
    problems.push(`the plan names cluster ${req.plan.cluster}, the request ${req.cluster}`);

  if (!req.signature)
    problems.push(
      'the request carries no plan signature (stored before plans were signed, or stripped): propose it again',
    );
  else if (!isRequestSignatureValid(req, signer))
    problems.push(
      'the plan signature does not verify: the stored request (plan, params, cluster, proposer, times, dry run, or the text approvers were shown) was changed after it was proposed, or K8S_HEALTH_PLAN_SECRET changed since',
    );
  if (hashPlan(req.plan) !== req.hash) problems.push('the stored plan does not match the hash that was approved');
  if (req.dryRunOk !== true) problems.push('the dry run of this plan did not pass: it cannot be approved');

  const created = Date.parse(req.createdAt);
  const expires = Date.parse(req.expiresAt);
  const seen = new Set<string>();
  let valid = 0;
  for (const v of req.approvals) {
    const at = Date.parse(v.at);
    if (!isVoteSignatureValid(req, v, signer)) {
      problems.push(`the vote of ${v.user} has no valid seal (not recorded by a bot process holding the secret)`);
      continue;
    }
    if (seen.has(v.user)) problems.push(`${v.user} voted twice: approvers must be distinct`);
    else if (v.user === req.proposer)
      problems.push(`${v.user} proposed this fix: the proposer's approval never counts`);
    else if (!(at >= created && at < expires))
      problems.push(
        `the vote of ${v.user} (${v.at}) is outside the request's lifetime ${req.createdAt} – ${req.expiresAt}`,
      );
    else if (!cluster || !(await ctx.isAuthorized(cluster, v.user)))
      problems.push(`${v.user} is not an approver of cluster ${req.cluster} in the current config`);
    else valid += 1;
    seen.add(v.user);
  }
  const required = Math.max(req.required, config.approvals.required);
  if (valid < required) problems.push(`${valid} valid approval(s), ${required} required`);

  const last = req.approvals[req.approvals.length - 1];
  if (config.approvals.confirmByTyping && last && !last.confirmed)
    problems.push(
      `the decisive vote (${last.user}) was not confirmed by typing the cluster name (approvals.confirmByTyping)`,
    );
  const approvedAt = Math.max(
    ...req.approvals.map((v) => Date.parse(v.at)).filter(Number.isFinite),
    Number.NEGATIVE_INFINITY,
  );
  const deadline = approvedAt + config.approvals.executionDeadlineMinutes * 60_000;
  if (Number.isFinite(approvedAt) && now.getTime() > deadline) {
    problems.push(
      `the execution deadline passed: approved at ${new Date(approvedAt).toISOString()}, it had to start by ${new Date(deadline).toISOString()} (approvals.executionDeadlineMinutes ${config.approvals.executionDeadlineMinutes})`,
    );
  }
  return problems;
}
