import type { ClusterConfig, Config } from '../../config/config-schema.js';
import type { RemediationProposal } from '../../diagnose/finding.js';
import type { ApprovalBackups } from '../approval-stores.js';
import type { ApprovalStore } from '../approval-stores.js';
import type { AuditLog } from '../approval-stores.js';
import type { ActionContext } from '../execute/action-context.js';
import { findAction } from '../actions/index.js';
import type { ApprovalRequest } from '../approval-request.js';
import { createBackupLoader } from '../execute/create-backup-loader.js';
import { hashPlan } from '../hash-plan.js';
import type { PlanSigner } from '../plan-signer.js';
import type { RemediationPlan } from '../remediation-plan.js';
import { signMessagePlacement } from './sign-message-placement.js';
import { signRequest } from './sign-request.js';
import { fixKey } from './fix-key.js';
import { proposalClickKey, type ProposalClick } from './sign-proposal-click.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../log/logger.js';

/** What {@link proposeFix} needs (built by the remediation worker's composition, or a test). */
export interface ProposeFixDeps {
  /** The CURRENT config: the cluster's switches are read again here, not trusted from the click. */
  config: Config;
  approvals: ApprovalStore;
  audit: AuditLog;
  backups: ApprovalBackups;
  signer: PlanSigner;
  /** Live access to a cluster (createActionContext in production). */
  createContext: (cluster: ClusterConfig) => Promise<ActionContext>;
  /**
   * Show the request to the approvers (Slack: the message in the clicked thread) and return that
   * message's ts. Called before the request is stored: a request nobody can see is never stored.
   */
  publish: (request: ApprovalRequest) => Promise<string | undefined>;
  now: () => Date;
  log: Logger;
}

/** Why a click did not become a request (the adapter words it for the clicker). */
export type ProposeRefusal =
  /**
   * The cluster may not be remediated from this channel now (config changed since the click, dump-backed, disabled).
   */
  | { reason: 'not-allowed'; detail: string }
  /** K8S_HEALTH_PLAN_SECRET missing here: nothing can be signed. */
  | { reason: 'no-secret'; detail: string }
  /** The action could not freeze a plan (target gone, bad parameters, etcd without a leader…). */
  | { reason: 'plan-failed'; label: string; detail: string }
  /**
   * The fix (cluster, action, parameters) already has a pending request — this clicker's (`byClicker`)
   * or someone else's, from this message or another: the clicker is pointed to it.
   */
  | {
      reason: 'already-proposed';
      requestId: string;
      byClicker: boolean;
      proposer?: string;
      sameThread?: boolean;
      thread?: { channel: string; threadTs?: string; messageTs?: string };
    }
  /** Another click of the same fix is being planned right now: its request appears shortly. */
  | { reason: 'being-proposed' }
  /** The fix already ran (at `at`) after this button was offered: nothing to propose. */
  | { reason: 'already-ran'; label: string; at: string };

/** What one click came to: a stored, published request, or a refusal. */
export type ProposeOutcome =
  { outcome: 'proposed'; request: ApprovalRequest } | { outcome: 'refused'; refusal: ProposeRefusal };

/**
 * A verified fix-button click becomes a signed approval request (planned in the
 * remediation worker, because a server-side dry run is authorized exactly like the write
 * itself). Numbered flow:
 * 1. the cluster must (still) be live, remediation-enabled and queryable from the click's channel,
 *    and K8S_HEALTH_PLAN_SECRET usable — otherwise a refusal, nothing read from the cluster; a fix
 *    (cluster, action, parameters: fix-key.ts) with a pending request makes no other one, whoever
 *    clicks where — the clicker is pointed to that request — and a fix that ran since its button was
 *    offered is not proposed again from it;
 * 2. the catalog action freezes the plan against the live cluster (recorded values, uids, hash);
 * 3. the plan is dry-run server-side; a failed dry run is recorded and shown (the request then has no
 *    Approve button, and no approve vote counts);
 * 4. the request is signed (HMAC with K8S_HEALTH_PLAN_SECRET), published (its message ts recorded),
 *    stored, and audited `proposed` with the clicker as proposer.
 */
export async function proposeFix(
  click: ProposalClick,
  proposal: { cluster: string; proposal: RemediationProposal; createdAt?: string },
  deps: ProposeFixDeps,
): Promise<ProposeOutcome> {
  const refuse = (refusal: ProposeRefusal): ProposeOutcome => {
    deps.log.info(
      { user: click.user, cluster: proposal.cluster, action: proposal.proposal.action, reason: refusal.reason },
      'propose-fix refused',
    );
    return { outcome: 'refused', refusal };
  };
  const cluster = deps.config.clusters.find((c) => c.name === proposal.cluster);
  if (!cluster)
    return refuse({
      reason: 'not-allowed',
      detail: `cluster ${proposal.cluster} is not in the config of the remediation worker`,
    });
  if (cluster.dump || !cluster.workload)
    return refuse({
      reason: 'not-allowed',
      detail: `cluster ${cluster.name} is dump-backed (read-only): it can never be remediated`,
    });
  if (!cluster.remediation.enabled)
    return refuse({
      reason: 'not-allowed',
      detail: `remediation is not enabled for cluster ${cluster.name} (set remediation.enabled: true for it in the config)`,
    });
  if (cluster.slack.channels.length > 0 && !cluster.slack.channels.includes(click.channel)) {
    return refuse({ reason: 'not-allowed', detail: `cluster ${cluster.name} may not be used from this channel` });
  }
  if (!deps.signer.ready) return refuse({ reason: 'no-secret', detail: deps.signer.problem! });
  // Idempotent per click key: concurrent clicks share one job (the queue deduplicates them); a click
  // after that job finished finds its request here while it is pending.
  const clickKey = proposalClickKey(click);
  const earlier = await deps.approvals.requestOfClick(clickKey);
  const earlierRequest = earlier ? await deps.approvals.get(earlier) : undefined;
  if (isPending(earlierRequest, deps.now())) return refuse(pointTo(earlierRequest, click));
  // One request per fix, whoever clicks and wherever: the fix is claimed for the request made here
  // (short while planning, then for the request's lifetime); a claim whose request was decided or
  // expired is taken over.
  const key = fixKey(cluster.name, proposal.proposal);
  const ran = (await deps.approvals.fixesRan([key]))[key];
  if (ran && (!proposal.createdAt || Date.parse(ran) > Date.parse(proposal.createdAt)))
    return refuse({ reason: 'already-ran', label: proposal.proposal.label, at: ran });
  const id = deps.approvals.newId();
  let holder = await deps.approvals.claimFix(key, id, PLANNING_CLAIM_SECONDS);
  if (holder !== id) {
    const held = await deps.approvals.get(holder);
    if (isPending(held, deps.now())) return refuse(pointTo(held, click));
    // Being planned by another worker right now (no request stored yet, claim still fresh).
    if (!held) return refuse({ reason: 'being-proposed' });
    await deps.approvals.releaseFix(key, holder);
    holder = await deps.approvals.claimFix(key, id, PLANNING_CLAIM_SECONDS);
    if (holder !== id) return refuse({ reason: 'being-proposed' });
  }
  try {
    const out = await planAndPublish(id, key, click, cluster, proposal, deps);
    if (out.outcome === 'proposed') await deps.approvals.claimFix(key, id, deps.config.approvals.ttlMinutes * 60);
    else await deps.approvals.releaseFix(key, id);
    return out;
  } catch (err) {
    await deps.approvals.releaseFix(key, id);
    throw err;
  }
}

/** How long a fix stays claimed while its plan is being made (a crashed planner frees it after this). */
const PLANNING_CLAIM_SECONDS = 120;

function isPending(req: ApprovalRequest | undefined, now: Date): req is ApprovalRequest {
  return req?.status === 'pending' && now.getTime() < Date.parse(req.expiresAt);
}

function pointTo(req: ApprovalRequest, click: ProposalClick): ProposeRefusal {
  return {
    reason: 'already-proposed',
    requestId: req.id,
    byClicker: req.proposer === click.user,
    proposer: req.proposer,
    sameThread: req.thread?.channel === click.channel && req.thread?.threadTs === click.threadTs,
    thread: req.thread,
  };
}

/** Steps 2–4 for a claimed fix: plan, dry-run, sign, publish, store, audit. */
async function planAndPublish(
  id: string,
  key: string,
  click: ProposalClick,
  cluster: ClusterConfig,
  proposal: { cluster: string; proposal: RemediationProposal },
  deps: ProposeFixDeps,
): Promise<ProposeOutcome> {
  const refuse = (refusal: ProposeRefusal): ProposeOutcome => {
    deps.log.info(
      { user: click.user, cluster: proposal.cluster, action: proposal.proposal.action, reason: refusal.reason },
      'propose-fix refused',
    );
    return { outcome: 'refused', refusal };
  };
  const clickKey = proposalClickKey(click);

  const action = findAction(proposal.proposal.action);
  const ctx = await deps.createContext(cluster);
  ctx.loadBackup ??= createBackupLoader(deps.backups, deps.signer);
  let plan: RemediationPlan;
  try {
    plan = await action.plan(cluster.name, proposal.proposal.params, ctx);
  } catch (err) {
    return refuse({ reason: 'plan-failed', label: proposal.proposal.label, detail: describeError(err) });
  }
  let dryRun: string;
  let dryRunOk = true;
  try {
    dryRun = await action.dryRun(plan, ctx);
  } catch (err) {
    // Shown, and recorded: a plan whose dry run failed gets no Approve button and no approve vote counts.
    dryRunOk = false;
    dryRun = `:x: dry run failed: ${describeError(err)}`;
  }
  const now = deps.now();
  const request: ApprovalRequest = {
    id,
    fixKey: key,
    cluster: cluster.name,
    plan,
    hash: hashPlan(plan),
    proposer: click.user,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.config.approvals.ttlMinutes * 60_000).toISOString(),
    required: deps.config.approvals.required,
    approvers: { users: [...cluster.approvers.users], groups: [...cluster.approvers.groups] },
    status: 'pending',
    approvals: [],
    dryRun,
    dryRunOk,
    thread: { channel: click.channel, threadTs: click.threadTs },
    transitions: [{ status: 'pending', at: now.toISOString() }],
  };
  request.signature = signRequest(request, deps.signer);
  request.thread.messageTs = await deps.publish(request);
  request.thread.messageMac = signMessagePlacement(request, deps.signer);
  await deps.approvals.create(request);
  await deps.approvals.linkClick(clickKey, request.id, deps.config.approvals.ttlMinutes * 60);
  await deps.audit.append({
    at: now.toISOString(),
    cluster: cluster.name,
    requestId: request.id,
    event: 'proposed',
    action: plan.action,
    user: click.user,
    hash: request.hash,
    detail: `${plan.label}; ${dryRun}`,
  });
  return { outcome: 'proposed', request };
}
