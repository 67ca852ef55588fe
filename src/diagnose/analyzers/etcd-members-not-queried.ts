import type { Analyzer, FindingDraft } from '../analyzer.js';
import { findEtcdLeaderState } from '../facts/find-etcd-leader-state.js';
import { describeMember } from '../facts/format-member-id.js';

/**
 * Unqueried is not unreachable (defect class 2): `etcdctl endpoint status` without `--cluster` asks only
 * the endpoints it is given, often one, and that member may name a leader nobody asked. Nothing is
 * known about such members: not that they are down, not that they are fine. Say so (info, with
 * `missing`), so no finding and no fix rests on a member nobody asked; a problem on what was asked
 * is etcd.no-leader or etcd.leader-unreachable.
 */
export const etcdMembersNotQueriedAnalyzer: Analyzer = {
  id: 'etcd.members-not-queried',
  analyze(ctx): FindingDraft[] {
    const state = findEtcdLeaderState(ctx.snapshot);
    if (!state || state.notQueried.length === 0) return [];
    const etcd = ctx.snapshot.etcd!;
    const members = etcd.members;
    const evidence: string[] = [];
    for (const s of etcd.endpoints) {
      const self = state.queried.find((m) => m.id === s.memberId);
      evidence.push(
        `endpoint status answered for ${self ? describeMember(self.id, members) : s.endpoint} at ${s.endpoint}${s.leader ? `, naming leader ${describeMember(s.leader, members)}` : ''}`,
      );
    }
    for (const h of etcd.health)
      evidence.push(`endpoint health ${h.endpoint}: health=${h.health}${h.error ? ` error="${h.error}"` : ''}`);
    evidence.push(
      `not queried (no endpoint status, no endpoint health, no error): ${state.notQueried.map((m) => `${describeMember(m.id, members)} ${m.clientURLs.join(',') || 'no client URL'}`).join('; ')}`,
    );
    const missing: string[] = [];
    const leaderNotAsked = state.leaderId && !state.leaderQueried;
    if (leaderNotAsked) missing.push(`leader not queried: ${describeMember(state.leaderId!, members)}`);
    missing.push(`${state.notQueried.length} of ${state.voting.length} voting members not queried`);
    const ids: Record<string, string> = {};
    if (state.leaderId) ids.leaderMemberId = state.leaderId;
    ids.notQueriedMemberIds = state.notQueried.map((m) => m.id).join(',');
    return [
      {
        id: 'etcd.members-not-queried',
        severity: 'info',
        section: 'etcd',
        title: `etcd: ${state.notQueried.length} of ${state.voting.length} members not queried${leaderNotAsked ? ', the leader among them' : ''}`,
        subject: { kind: 'EtcdCluster', name: ctx.snapshot.cluster },
        evidence,
        cause:
          'Only some members were asked, so their state is unknown (not unreachable). Ask every member before acting on etcd: ' +
          'etcdctl endpoint status --cluster -w json and etcdctl endpoint health --cluster -w json, or list every client URL in the etcd endpoints of the config.',
        remediations: [],
        missing,
        ids,
      },
    ];
  },
};
