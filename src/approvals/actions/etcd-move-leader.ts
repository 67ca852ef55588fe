import type { ActionContext } from '../execute/action-context.js';
import type { EtcdLeaderView } from '../execute/collect-etcd-leader.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { RemediationPlan } from '../remediation-plan.js';
import { withEtcdLeader } from '../execute/with-etcd-leader.js';

/** A target is "in sync" when its applied raft index trails the leader's by at most this (an idle cluster: 0–a few). */
export const MAX_APPLIED_INDEX_GAP = 1000n;

/**
 * etcd.move-leader `targetMemberId` (seed S0: the leader's node is gone or unreachable, so hand
 * leadership to a healthy member). Sent to the CURRENT leader through a client pinned to its endpoint.
 */
export const etcdMoveLeader: RemediationAction = {
  id: 'etcd.move-leader',
  undoWords: 'none needed: leadership can be moved again by another proposal.',
  rbac: [],
  async plan(cluster, params, live) {
    const target = memberIdParam(params.targetMemberId);
    const leader = live?.etcd ? await withEtcdLeader(requireEtcd(live), (view) => view.leaderId) : undefined;
    return {
      action: 'etcd.move-leader',
      cluster,
      params: { targetMemberId: target },
      label: `Move etcd leadership to member ${target}`,
      apiCalls: [`etcd Maintenance.MoveLeader { targetID: ${target} } sent to the current leader's endpoint`],
      preconditions: [
        {
          id: 'leader-unchanged',
          text: 'the etcd leader is still the member recorded at proposal time',
          ...(leader ? { recorded: leader } : {}),
        },
        {
          id: 'target-healthy',
          text: `member ${target} is listed, a voting member (not a learner) and answers status without errors`,
        },
        {
          id: 'target-in-sync',
          text: `member ${target}'s raftAppliedIndex is within ${MAX_APPLIED_INDEX_GAP} of the leader's`,
        },
      ],
      risk: 'A leader election pauses writes for a moment; moving to a member that then fails leaves etcd electing again.',
    };
  },
  async dryRun(plan, ctx) {
    return withEtcdLeader(requireEtcd(ctx), (view) => {
      const problems = check(plan, view);
      // A failed check is a failed dry run: the request shows it and cannot be approved.
      if (problems.length)
        throw new RemediateError('E_REMEDIATE_DRY_RUN', `read-only check failed: ${problems.join('; ')}`);
      return `read-only check ok: leader is ${describe(view, view.leaderId)}, target ${describe(view, String(plan.params.targetMemberId))} is healthy and in sync`;
    });
  },
  async checkPreconditions(plan, ctx) {
    return withEtcdLeader(requireEtcd(ctx), (view) => check(plan, view));
  },
  async execute(plan, ctx) {
    return withEtcdLeader(requireEtcd(ctx), async (view) => {
      const from = view.leaderId;
      await view.leader.maintenance.moveLeader({ targetID: String(plan.params.targetMemberId) });
      return {
        summary: `etcd leader moved from ${describe(view, from)} to ${describe(view, String(plan.params.targetMemberId))} (request sent to ${view.leaderEndpoint})`,
      };
    });
  },
  async verify(plan, ctx) {
    const target = String(plan.params.targetMemberId);
    return withEtcdLeader(requireEtcd(ctx), (view) =>
      view.leaderId === target
        ? []
        : [`the leader is ${describe(view, view.leaderId)}, not ${plan.params.targetMemberId}`],
    );
  },
};

function check(plan: RemediationPlan, view: EtcdLeaderView): string[] {
  const target = String(plan.params.targetMemberId);
  const problems: string[] = [];
  const recorded = plan.preconditions.find((p) => p.id === 'leader-unchanged')?.recorded;
  if (recorded !== undefined && String(recorded) !== view.leaderId)
    problems.push(`the leader changed since the proposal (was ${recorded}, now ${describe(view, view.leaderId)})`);
  if (view.leaderId === target) problems.push(`member ${target} is already the leader`);
  const m = view.members.find((x) => x.id === target);
  if (!m) return [...problems, `member ${target} is no longer in the member list`];
  if (m.isLearner) problems.push(`member ${describe(view, target)} is a learner (not voting)`);
  if (!m.status) problems.push(`member ${describe(view, target)} does not answer status on any configured endpoint`);
  else if (m.status.errors.length)
    problems.push(`member ${describe(view, target)} reports errors: ${m.status.errors.join(', ')}`);
  const leader = view.members.find((x) => x.id === view.leaderId);
  if (
    m.status &&
    leader?.status &&
    leader.status.raftAppliedIndex - m.status.raftAppliedIndex > MAX_APPLIED_INDEX_GAP
  ) {
    problems.push(
      `member ${describe(view, target)} is out of sync: applied index ${m.status.raftAppliedIndex} vs leader ${leader.status.raftAppliedIndex}`,
    );
  }
  return problems;
}

function describe(view: EtcdLeaderView, id: string): string {
  const m = view.members.find((x) => x.id === id);
  return m?.name ? `${m.name} (${id})` : id;
}

/** Member ids are uint64 decimal strings; anything else is a malformed plan. */
export function memberIdParam(v: unknown): string {
  const s =
    typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint'
      ? String(v)
      : v == null
        ? ''
        : JSON.stringify(v);
  if (!/^[1-9][0-9]{0,19}$/.test(s))
    throw new RemediateError('E_REMEDIATE_PARAMS', `"${s}" is not an etcd member id (a uint64 decimal string)`);
  return s;
}

export function requireEtcd(ctx: ActionContext): NonNullable<ActionContext['etcd']> {
  if (!ctx.etcd)
    throw new RemediateError(
      'E_REMEDIATE_NOT_ALLOWED',
      `cluster ${ctx.cluster.name} has no etcd endpoints configured: add etcd.endpoints (and TLS files) to the config`,
    );
  return ctx.etcd;
}
