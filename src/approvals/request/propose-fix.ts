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
import {
  isProposalClickSignatureValid,
  proposalClickKey,
  signProposalClick,
  type ProposalClick,
} from './sign-proposal-click.js';
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
  /**
   * Tell the clicks of the same fix made while this one was planned what became of it, each in its
   * own words (a link to the request, or why none was made). The Slack side posts each ephemerally.
   */
  tellWaiting?: (waiting: { click: ProposalClick; refusal: ProposeRefusal }[]) => Promise<void>;
  /** Seconds a fix stays claimed while its plan is made (default {@link PLANNING_CLAIM_SECONDS}). */
  planningClaimSeconds?: number;
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
  /**
   * Another click of the same fix (by `planner`, when known) is being planned right now: this click
   * is told the request's link once it is stored, and may press again after `retrySeconds` without one
   * (a planner that died leaves its claim to expire).
   */
  | { reason: 'being-proposed'; planner?: string; byClicker: boolean; retrySeconds: number }
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
 *    clicks where — the clicker is pointed to that request; a fix being planned for another click
 *    makes none either — the clicker is told who plans it and, once that request is stored, its link
 *    (a planner that died leaves its claim to expire, and a later click plans anew) — and a fix that
 *    ran since its button was offered is not proposed again from it;
 * 2. the catalog action freezes the plan against the live cluster (recorded values, uids, hash);
 * 3. the plan is dry-run server-side; a failed dry run is recorded and shown (the request then has no
 *    Approve button, and no approve vote counts);
 * 4. the claim is renewed (planning may have outlasted it: another click's request then stands and
 *    nothing is posted), the request is signed (HMAC with K8S_HEALTH_PLAN_SECRET), published (its
 *    message ts recorded), stored, and audited `proposed` with the clicker as proposer.
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
  // expired is taken over, and a click made while another is planned waits for that one's link.
  const key = fixKey(cluster.name, proposal.proposal);
  const ran = (await deps.approvals.fixesRan([key]))[key];
  if (ran && (!proposal.createdAt || Date.parse(ran) > Date.parse(proposal.createdAt)))
    return refuse({ reason: 'already-ran', label: proposal.proposal.label, at: ran });
  const id = deps.approvals.newId();
  const claimed = await claimOrWait(key, id, click, deps);
  if (claimed !== true) return refuse(claimed);
  try {
    const out = await planAndPublish(id, key, click, cluster, proposal, deps);
    if (out.outcome === 'proposed') await deps.approvals.claimFix(key, id, deps.config.approvals.ttlMinutes * 60);
    else await deps.approvals.releaseFix(key, id);
    await tellWaiting(id, out.outcome === 'proposed' ? out.request : out.refusal, deps);
    return out;
  } catch (err) {
    await deps.approvals.releaseFix(key, id);
    await tellWaiting(id, { reason: 'plan-failed', label: proposal.proposal.label, detail: describeError(err) }, deps);
    throw err;
  }
}

/** How long a fix stays claimed while its plan is made (a crashed planner frees it after this). */
const PLANNING_CLAIM_SECONDS = 120;

/**
 * Claim the fix `key` for request `id` (or renew this request's claim), else say why not: the fix's
 * pending request (pointed to), or another click's planning — this click then waits for it (sealed in
 * its waiting list) and is told that request's link once it is stored. A claim whose request was
 * decided or expired is released and claimed again.
 */
async function claimOrWait(
  key: string,
  id: string,
  click: ProposalClick,
  deps: ProposeFixDeps,
): Promise<true | ProposeRefusal> {
  const planning = deps.planningClaimSeconds ?? PLANNING_CLAIM_SECONDS;
  // Three rounds: each lost one means another click claimed, or gave up, in between.
  for (let round = 0; round < 3; round++) {
    const holder = await deps.approvals.claimFix(key, id, planning, click.user);
    if (holder === id) return true;
    const state = await deps.approvals.awaitFix(key, holder, {
      key: `${click.user}.${click.channel}.${click.threadTs}`,
      value: JSON.stringify({ click, sig: signProposalClick(click, deps.signer) }),
    });
    if (state.state === 'planning')
      return {
        reason: 'being-proposed',
        ...(state.planner ? { planner: state.planner } : {}),
        byClicker: state.planner === click.user,
        retrySeconds: planning,
      };
    if (state.state === 'requested') {
      const held = await deps.approvals.get(holder);
      if (isPending(held, deps.now())) return pointTo(held, click);
      await deps.approvals.releaseFix(key, holder);
    }
  }
  return { reason: 'being-proposed', byClicker: false, retrySeconds: planning };
}

/**
 * Hand the clicks that waited for request `id` (claimOrWait) what became of it: a link to `result`
 * when it is a request, else the refusal the planner got. A waiting click whose seal does not verify
 * (written into Redis by anyone else) is dropped: Redis alone cannot make the bot write to anyone.
 */
async function tellWaiting(id: string, result: ApprovalRequest | ProposeRefusal, deps: ProposeFixDeps): Promise<void> {
  // Never throws: the click itself was already decided (a request stored, or refused) whatever happens here.
  try {
    const stored = await deps.approvals.takeFixWaiters(id);
    const waiting: { click: ProposalClick; refusal: ProposeRefusal }[] = [];
    for (const value of stored) {
      const click = openWaitingClick(value, deps.signer);
      if (!click) {
        deps.log.warn({ requestId: id }, 'a waiting click failed its seal: not told');
        continue;
      }
      waiting.push({ click, refusal: 'reason' in result ? refusalFor(result, click) : pointTo(result, click) });
    }
    if (waiting.length > 0) await deps.tellWaiting?.(waiting);
  } catch (err) {
    deps.log.warn({ err, requestId: id }, 'waiting clicks not told');
  }
}

/** A waiting click as claimOrWait stored it, when its seal verifies. */
function openWaitingClick(value: string, signer: PlanSigner): ProposalClick | undefined {
  try {
    const { click, sig } = JSON.parse(value) as { click?: ProposalClick; sig?: unknown };
    return click && isProposalClickSignatureValid(click, sig, signer) ? click : undefined;
  } catch {
    return undefined;
  }
}

/** A refusal another click got, as it reads for `click` (who proposed, which thread). */
function refusalFor(refusal: ProposeRefusal, click: ProposalClick): ProposeRefusal {
  if (refusal.reason === 'already-proposed')
    return {
      ...refusal,
      byClicker: refusal.proposer === click.user,
      sameThread: refusal.thread?.channel === click.channel && refusal.thread?.threadTs === click.threadTs,
    };
  if (refusal.reason === 'being-proposed') return { ...refusal, byClicker: refusal.planner === click.user };
  return refusal;
}

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
  // Planning may outlast the claim (a slow API server): another click may have claimed the fix
  // meanwhile and posted its request. Renewed here, right before posting, or nothing is posted.
  const claimed = await claimOrWait(key, id, click, deps);
  if (claimed !== true) return refuse(claimed);
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
