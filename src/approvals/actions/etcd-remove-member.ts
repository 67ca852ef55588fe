import type { EtcdLeaderView } from '../execute/collect-etcd-leader.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { RemediationPlan } from '../remediation-plan.js';
import { withEtcdLeader } from '../execute/with-etcd-leader.js';
import { memberIdParam, requireEtcd } from './etcd-move-leader.js';

/**
 * etcd.remove-member `memberId` (etcd.member-mismatch: a stale member with no machine). Sent to the
 * current leader. Never the leader itself, and never when the remaining members would lose quorum.
 */
export const etcdRemoveMember: RemediationAction = {
  id: 'etcd.remove-member',
  undoWords:
    'none: a removed member comes back only by adding it again by hand (etcdctl member add) or by Cluster API replacing its machine.',
  rbac: [],
  async plan(cluster, params, live) {
    const id = memberIdParam(params.memberId);
    const size = live?.etcd ? await withEtcdLeader(requireEtcd(live), (view) => view.members.length) : undefined;
    return {
      action: 'etcd.remove-member',
      cluster,
      params: { memberId: id },
      label: `Remove etcd member ${id}`,
      apiCalls: [`etcd Cluster.MemberRemove { ID: ${id} } sent to the current leader's endpoint`],
      preconditions: [
        { id: 'member-listed', text: `member ${id} is still in the member list` },
        { id: 'not-leader', text: `member ${id} is not the leader` },
        { id: 'quorum-kept', text: 'the healthy voting members left after the removal still form a quorum' },
        {
          id: 'size-unchanged',
          text: 'the member count is what it was at proposal time',
          ...(size !== undefined ? { recorded: size } : {}),
        },
      ],
      risk: 'Removing a member that is in fact alive shrinks the cluster; it must be re-added with a fresh data dir.',
    };
  },
  async dryRun(plan, ctx) {
    const problems = await etcdRemoveMember.checkPreconditions(plan, ctx);
    // A failed check is a failed dry run: the request shows it and cannot be approved.
    if (problems.length)
      throw new RemediateError('E_REMEDIATE_DRY_RUN', `read-only check failed: ${problems.join('; ')}`);
    return `read-only check ok: member ${plan.params.memberId} can be removed with quorum kept`;
  },
  async checkPreconditions(plan, ctx) {
    return withEtcdLeader(requireEtcd(ctx), (view) => check(plan, view));
  },
  async execute(plan, ctx) {
    return withEtcdLeader(requireEtcd(ctx), async (view) => {
      await view.leader.cluster.memberRemove({ ID: String(plan.params.memberId) });
      return {
        summary: `etcd member ${plan.params.memberId} removed (request sent to the leader ${view.leaderEndpoint})`,
      };
    });
  },
  async verify(plan, ctx) {
    const id = String(plan.params.memberId);
    return withEtcdLeader(requireEtcd(ctx), (view) =>
      view.members.some((m) => m.id === id) ? [`member ${plan.params.memberId} is still listed`] : [],
    );
  },
};

function check(plan: RemediationPlan, view: EtcdLeaderView): string[] {
  const id = String(plan.params.memberId);
  const problems: string[] = [];
  if (!view.members.some((m) => m.id === id)) problems.push(`member ${id} is no longer in the member list`);
  if (view.leaderId === id) problems.push(`member ${id} is the leader: move leadership first`);
  const remaining = view.members.filter((m) => m.id !== id && !m.isLearner);
  const healthy = remaining.filter((m) => m.status && m.status.errors.length === 0).length;
  if (healthy < Math.floor(remaining.length / 2) + 1)
    problems.push(
      `only ${healthy} of the ${remaining.length} remaining voting members are healthy: removing ${id} would leave no quorum`,
    );
  const recorded = plan.preconditions.find((p) => p.id === 'size-unchanged')?.recorded;
  if (recorded !== undefined && Number(recorded) !== view.members.length)
    problems.push(`the member count changed since the proposal (${recorded} → ${view.members.length})`);
  return problems;
}
