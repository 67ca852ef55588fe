import type { ClusterConfig, Config } from '../../config/config-schema.js';
import type { Logger } from '../../log/logger.js';
import type { ApprovalRequest } from '../approval-request.js';
import type { ApprovalStore, AuditLog } from '../approval-stores.js';
import type { PlanSigner } from '../plan-signer.js';
import { isRequestSignatureValid } from '../request/sign-request.js';
import { applyVote, type Vote, type VoteOutcome } from './apply-vote.js';
import { signVote } from './sign-vote.js';
import { K8sHealthError } from '../../errors/k8s-health-error.js';
import { RemediateError } from '../remediate-error.js';

/** The clicker's Slack account as the approver check read it: anything but `ok` does not count. */
export type VoterAccount = { status: 'ok' } | { status: 'ineligible' | 'unverified'; reason: string };

/** What {@link castVote} needs: the stores, the secret, the approver checks and the queue, all passed in. */
export interface CastVoteDeps {
  config: Pick<Config, 'clusters' | 'approvals'>;
  approvals: ApprovalStore;
  audit: AuditLog;
  /** K8S_HEALTH_PLAN_SECRET: checks the request's seal and seals the vote. */
  signer: PlanSigner;
  /** Is this user an approver of this cluster (user id or member of an approver group)? */
  isAuthorized: (cluster: ClusterConfig, user: string) => Promise<boolean>;
  /** The account of an authorized voter who is not the proposer (deactivated, guest, other workspace: not counted). */
  checkApprover: (user: string) => Promise<VoterAccount>;
  /** Enqueue the remediate job of a request that just became approved (job id = request id). */
  enqueue: (requestId: string) => Promise<void>;
  now: () => Date;
  log: Logger;
}

/**
 * What a vote did: the outcome, the request as stored after it, whether it changed, and why an account did not count.
 */
export interface CastVoteResult {
  outcome: VoteOutcome;
  request: ApprovalRequest;
  /** The stored request changed (the message showing it must be re-rendered). */
  changed: boolean;
  why?: string;
}

/**
 * Apply one vote atomically (compare-and-set over the pure policy), audit it, and on the decisive
 * approval enqueue the remediate job. An authorized user other than the proposer has their account
 * checked first; `why` says what was wrong with it when it did not count. Showing the result (the
 * clicker's reply, the request message) is the caller's.
 */
export async function castVote(
  id: string,
  v: Omit<Vote, 'authorized' | 'account'>,
  deps: CastVoteDeps,
): Promise<CastVoteResult> {
  const stored = await deps.approvals.get(id);
  if (!stored) throw new K8sHealthError('E_APPROVAL_GONE', 'approval request vanished');
  // Votes are sealed with K8S_HEALTH_PLAN_SECRET; without it none can be recorded (the executor would refuse them).
  const signer = deps.signer;
  if (!signer.ready)
    throw new RemediateError('E_REMEDIATE_NO_SECRET', signer.problem ?? 'K8S_HEALTH_PLAN_SECRET is not set');
  // A request changed in Redis after it was proposed (plan, shown text, required count, dry-run outcome)
  // gets no vote and no re-render: the executor would refuse it anyway, and Slack must not show it approved.
  if (!isRequestSignatureValid(stored, signer)) {
    await deps.audit.append({
      at: deps.now().toISOString(),
      cluster: stored.cluster,
      requestId: id,
      event: 'refused',
      action: stored.plan.action,
      user: v.user,
      detail: 'tampered: the request does not match its signature',
    });
    throw new K8sHealthError(
      'E_APPROVAL_TAMPERED',
      'this request does not match its signature (it was changed after it was proposed); nothing was recorded, propose the fix again',
    );
  }
  const cluster = deps.config.clusters.find((c) => c.name === stored.cluster);
  const authorized = !!cluster && (await deps.isAuthorized(cluster, v.user));
  // The proposer's clicks never count (a Reject withdraws): no need to ask Slack about them.
  const account = authorized && v.user !== stored.proposer ? await deps.checkApprover(v.user) : undefined;
  const why = account && account.status !== 'ok' ? account.reason : undefined;
  const now = deps.now();
  const res = await deps.approvals.update(id, (req) => {
    const r = applyVote(
      req,
      { ...v, authorized, ...(account ? { account: account.status } : {}) },
      { now, confirmByTyping: deps.config.approvals.confirmByTyping, required: deps.config.approvals.required },
    );
    // Seal the vote this click added (the policy is pure; sealing needs the secret): only votes sealed
    // by a process that verified the click count when the executor re-checks the request.
    if (r.request === req || r.request.approvals.length === req.approvals.length)
      return { request: r.request, extra: r.outcome };
    return {
      request: {
        ...r.request,
        approvals: r.request.approvals.map((a, i) => (i < req.approvals.length ? a : signVote(req, a, signer))),
      },
      extra: r.outcome,
    };
  });
  if (!res) throw new K8sHealthError('E_APPROVAL_GONE', 'approval request vanished');
  const { request, extra: outcome } = res;
  deps.log.info({ requestId: id, user: v.user, kind: v.kind, outcome }, 'approval vote');
  if (res.changed) {
    const event =
      outcome === 'counted' || outcome === 'approved' ? 'approved' : (outcome as 'rejected' | 'cancelled' | 'expired');
    await deps.audit.append({
      at: now.toISOString(),
      cluster: request.cluster,
      requestId: id,
      event,
      action: request.plan.action,
      hash: request.hash,
      ...(outcome === 'expired' ? {} : { user: v.user }),
      detail: `${request.approvals.length} of ${request.required} approvals${outcome === 'approved' ? ' (decisive)' : ''}`,
    });
    if (outcome === 'approved') await deps.enqueue(id);
  } else if (outcome !== 'closed') {
    const detail = (outcome === 'ineligible' || outcome === 'unverified') && why ? `${outcome}: ${why}` : outcome;
    await deps.audit.append({
      at: now.toISOString(),
      cluster: request.cluster,
      requestId: id,
      event: 'refused',
      action: request.plan.action,
      user: v.user,
      detail,
    });
  }
  return { outcome, request, changed: res.changed, ...(why ? { why } : {}) };
}
