import type { Analyzer, FindingDraft } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { findEtcdLeaderState } from '../facts/find-etcd-leader-state.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { describeMember, formatMemberId } from '../facts/format-member-id.js';

/**
 * Seed S0: after a crash the remaining members still follow a leader that does not answer, so no
 * new control-plane member can join and CAPI loops. The fix that worked: move leadership to the
 * healthy, in-sync member.
 *
 * Only on evidence about the leader itself (it was asked and failed, or its Machine/Node
 * is gone); a leader nobody asked is etcd.members-not-queried, never this, and never a move-leader.
 */
export const etcdLeaderUnreachableAnalyzer: Analyzer = {
  id: 'etcd.leader-unreachable',
  analyze(ctx): FindingDraft[] {
    const state = findEtcdLeaderState(ctx.snapshot);
    const cause = findLeaderUnreachableCause(ctx.snapshot);
    if (!state || !cause) return [];
    const etcd = ctx.snapshot.etcd!;
    const evidence = [...state.leaderUnreachableReasons];
    for (const [leader, followers] of state.followersByLeader) {
      if (followers.length)
        evidence.push(`endpoint status: ${followers.join(', ')} report leader ${describeMember(leader, etcd.members)}`);
    }
    for (const m of etcd.members) {
      evidence.push(
        `member ${formatMemberId(m.id)} name=${m.name} peerURLs=${m.peerURLs.join(',')}${m.isLearner ? ' isLearner=true' : ''}`,
      );
    }
    for (const h of etcd.health)
      if (!h.health)
        evidence.push(`endpoint health ${h.endpoint}: health=false${h.error ? ` error="${h.error}"` : ''}`);
    const remediations: RemediationProposal[] = [];
    const target = state.moveTarget;
    if (target) {
      const s = etcd.endpoints.find((e) => e.memberId === target.id);
      evidence.push(
        `move-leader target ${describeMember(target.id, etcd.members)}: reachable, voting${s?.raftAppliedIndex ? `, raftAppliedIndex=${s.raftAppliedIndex}` : ''}`,
      );
      remediations.push({
        action: 'etcd.move-leader',
        params: { targetMemberId: target.id },
        label: `Move etcd leader to ${target.name}`.slice(0, 75),
        risk: 'A brief leader election: API writes may stall for a few seconds; do it only if the target is in sync.',
      });
    }
    const ids: Record<string, string> = { leaderMemberId: state.leaderId! };
    if (target) ids.targetMemberId = target.id;
    // Members nobody asked may be healthy or not: the move target is chosen among those that answered.
    const missing = state.notQueried
      .filter((m) => m.id !== state.leaderId)
      .map((m) => `${describeMember(m.id, etcd.members)} not queried`);
    return [
      {
        id: 'etcd.leader-unreachable',
        ids,
        ...(missing.length ? { missing } : {}),
        severity: 'critical',
        section: 'etcd',
        title: `etcd leader ${cause.leaderName} does not answer, but the other members still follow it`,
        subject: { kind: 'EtcdMember', name: cause.leaderName },
        evidence,
        cause: `${cause.text}: until leadership moves, new control-plane members cannot join and CAPI keeps replacing machines; moving leadership to a healthy member (etcdctl move-leader) fixes it.`,
        remediations,
      },
    ];
  },
};
