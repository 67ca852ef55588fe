import type { Snapshot } from '../../cluster/snapshot.js';
import { fingerprint } from '../fingerprint.js';
import { findEtcdLeaderState } from './find-etcd-leader-state.js';
import { formatMemberId } from './format-member-id.js';
import { hostOf } from './host-of.js';

/** The etcd.leader-unreachable root cause, phrased for the findings it causes (seed S0). */
export interface LeaderUnreachableCause {
  leaderName: string;
  /** "etcd members a and b still follow leader x (10.0.0.1), which does not answer" */
  text: string;
  fingerprint: string;
}

export function findLeaderUnreachableCause(snapshot: Snapshot): LeaderUnreachableCause | undefined {
  const state = findEtcdLeaderState(snapshot);
  if (!state?.leaderId || state.leaderUnreachableReasons.length === 0) return undefined;
  // A member added but never started has no name: name it by its hex id, as etcdctl does.
  const leaderName = state.leader?.name || formatMemberId(state.leaderId);
  const ip = state.leader
    ? [...new Set([...state.leader.peerURLs, ...state.leader.clientURLs].map(hostOf))][0]
    : undefined;
  const followers = state.followersByLeader.get(state.leaderId) ?? [];
  const who =
    followers.length > 1
      ? `members ${followers.slice(0, -1).join(', ')} and ${followers.at(-1)}`
      : `member ${followers[0] ?? '?'}`;
  return {
    leaderName,
    text: `etcd ${who} still follow${followers.length > 1 ? '' : 's'} leader ${leaderName}${ip ? ` (${ip})` : ''}, which does not answer`,
    fingerprint: fingerprint(snapshot.cluster, 'etcd.leader-unreachable', { kind: 'EtcdMember', name: leaderName }),
  };
}
