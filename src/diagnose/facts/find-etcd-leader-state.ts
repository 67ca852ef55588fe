import type { EtcdMember, Snapshot } from '../../cluster/snapshot.js';
import { describeMember } from './format-member-id.js';
import { findMemberOfEndpoint } from './find-member-of-endpoint.js';
import { machineInfo } from './machine-info.js';
import { isEtcdAuthError } from './is-etcd-auth-error.js';
import { quorum } from './quorum.js';

/** What the etcd data says about the leader, computed once and shared by the etcd/CAPI analyzers. */
export interface EtcdLeaderState {
  /** Voting members (learners excluded). */
  voting: EtcdMember[];
  /** Members that answered endpoint status without errors. */
  reachable: EtcdMember[];
  /**
   * Members something was asked of: they have an endpoint status, an endpoint health entry, or an
   * error naming their endpoint. The others were never asked, so nothing is known about them.
   */
  queried: EtcdMember[];
  /** Voting members nobody asked (unqueried is not unreachable). */
  notQueried: EtcdMember[];
  /** Members that were asked and did not answer, or answered unhealthy: why, by member id. */
  failed: Map<string, string>;
  /** Voting members whose endpoint health is true (a proposal committed: they are in a quorum). */
  healthy: EtcdMember[];
  /** Leader id → names of the members that follow it (the leader itself excluded). */
  followersByLeader: Map<string, string[]>;
  /** The leader most members point at, when any. */
  leaderId?: string;
  leader?: EtcdMember;
  /** True when the leader was asked (status, health or an error about it): only then can it be unreachable. */
  leaderQueried: boolean;
  /** Set when members point at a leader that does not answer: why, one reason per line. */
  leaderUnreachableReasons: string[];
  /** Endpoint errors mentioning "no leader" (seed S1: the survivor reports "etcdserver: no leader"). */
  noLeaderErrors: string[];
  quorum: number;
  /** Healthiest in-sync reachable voting member other than the leader: the etcd.move-leader target. */
  moveTarget?: EtcdMember;
}

function bigOf(s: string | undefined): bigint {
  try {
    return s ? BigInt(s) : -1n;
  } catch {
    return -1n;
  }
}

/**
 * Leader agreement, unreachable endpoints and the move-leader target (seed S0: both remaining
 * members still follow it-tkg-mgmt-rg44c-sbv4f at 172.16.52.10, which does not answer).
 *
 * A leader is unreachable only on evidence about the leader itself: its status has errors, its
 * health is false, an endpoint error names it, or its Machine/Node is gone. A leader that is merely
 * absent from `endpoint status` because nobody asked it (etcdctl's default endpoint only)
 * is "not queried", never unreachable.
 * Returns undefined when the snapshot has no etcd member list.
 */
export function findEtcdLeaderState(snapshot: Snapshot): EtcdLeaderState | undefined {
  const etcd = snapshot.etcd;
  if (!etcd || etcd.members.length === 0) return undefined;
  const byId = new Map(etcd.members.map((m) => [m.id, m]));
  const memberOf = (endpoint: string, memberId?: string) => findMemberOfEndpoint(etcd.members, endpoint, memberId);
  const statusOf = new Map<string, (typeof etcd.endpoints)[number]>();
  const queriedIds = new Set<string>();
  const failed = new Map<string, string>();
  for (const s of etcd.endpoints) {
    const m = memberOf(s.endpoint, s.memberId);
    if (!m) continue;
    statusOf.set(m.id, s);
    queriedIds.add(m.id);
    const own = s.errors.filter((e) => !/alarm:/.test(e));
    if (own.length) failed.set(m.id, `endpoint status errors: ${own.join('; ')}`);
  }
  const healthyIds = new Set<string>();
  for (const h of etcd.health) {
    const m = memberOf(h.endpoint);
    if (!m) continue;
    queriedIds.add(m.id);
    // etcdctl 3.5+ (and our live probe) mark an endpoint unhealthy for an active alarm alone
    // ("Active Alarm(s): NOSPACE"): it answered, the alarm is etcd.alarm's business.
    if (h.health || /^Active Alarm\(s\)/.test(h.error ?? '')) healthyIds.add(m.id);
    // Refused for want of credentials: it answered, nothing was read (neither healthy nor failed).
    else if (isEtcdAuthError(h.error)) continue;
    else if (!failed.has(m.id)) failed.set(m.id, `endpoint health=false${h.error ? `: ${h.error}` : ''}`);
  }
  for (const e of etcd.errors ?? []) {
    const m = e.endpoint ? memberOf(e.endpoint) : undefined;
    if (!m) continue;
    queriedIds.add(m.id);
    if (!failed.has(m.id) && !statusOf.has(m.id) && !healthyIds.has(m.id) && !isEtcdAuthError(e.error))
      failed.set(m.id, `${e.command}: ${e.error}`);
  }
  const learner = (m: EtcdMember) => m.isLearner || statusOf.get(m.id)?.isLearner === true;
  const voting = etcd.members.filter((m) => !learner(m));
  const answers = (m: EtcdMember) => {
    const s = statusOf.get(m.id);
    return !!s && s.errors.filter((e) => !/alarm:/.test(e)).length === 0;
  };
  // Reachable = answers endpoint status. /health is false on every member while the leader is gone
  // (seed S0: "serving /health false; no leader"), so health alone cannot pick the move-leader target.
  const reachable = etcd.members.filter(answers);

  const followersByLeader = new Map<string, string[]>();
  const noLeaderErrors: string[] = [];
  for (const s of etcd.endpoints) {
    for (const e of s.errors) if (/no leader/i.test(e)) noLeaderErrors.push(`${s.endpoint}: ${e}`);
    if (!s.leader || s.leader === '0') continue;
    const self = memberOf(s.endpoint, s.memberId);
    const list = followersByLeader.get(s.leader) ?? [];
    if (self?.id !== s.leader) list.push(self?.name || s.endpoint);
    followersByLeader.set(s.leader, list);
  }
  for (const e of etcd.errors ?? [])
    if (/no leader/i.test(e.error)) noLeaderErrors.push(`${e.endpoint ?? e.command}: ${e.error}`);
  const leaderId = [...followersByLeader.entries()].sort(
    (a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]),
  )[0]?.[0];
  const leader = leaderId ? byId.get(leaderId) : undefined;
  const leaderQueried = !!leaderId && queriedIds.has(leaderId);

  const reasons: string[] = [];
  if (leaderId) {
    const name = describeMember(leaderId, etcd.members);
    const s = statusOf.get(leaderId);
    const why = failed.get(leaderId);
    if (!leader) reasons.push(`leader ${name} is not in the member list`);
    // Asked and did not answer (or answered unhealthy). Absent from status but healthy is fine:
    // `endpoint health` committed a proposal through it.
    else if (!s && why)
      reasons.push(
        `leader ${name} (${leader.clientURLs.join(', ') || 'no client URL'}) was asked and is absent from endpoint status; ${why}`,
      );
    else if (s && why) reasons.push(`leader ${name} endpoint ${s.endpoint}: ${why}`);
    if (leader) {
      // The leader's node or machine is gone (only judged when the snapshot has that data).
      const machines = snapshot.capi.machines.map(machineInfo);
      const m = machines.find((x) => x.name === leader.name || x.nodeName === leader.name);
      const node = snapshot.nodes.find((n) => n.metadata.name === leader.name);
      if (machines.length > 0 && !m && snapshot.nodes.length > 0 && !node)
        reasons.push(`leader ${name} has no Machine and no Node any more`);
      else if (m?.deleting) reasons.push(`leader ${name}'s Machine ${m.namespace}/${m.name} is being deleted`);
    }
  }

  const moveTarget = voting
    .filter((m) => m.id !== leaderId && reachable.includes(m))
    .sort((a, b) => {
      const d = bigOf(statusOf.get(b.id)?.raftAppliedIndex) - bigOf(statusOf.get(a.id)?.raftAppliedIndex);
      return d > 0n ? 1 : d < 0n ? -1 : a.name.localeCompare(b.name);
    })[0];

  const queried = etcd.members.filter((m) => queriedIds.has(m.id));
  return {
    voting,
    reachable,
    queried,
    notQueried: voting.filter((m) => !queriedIds.has(m.id)),
    failed,
    healthy: voting.filter((m) => healthyIds.has(m.id)),
    followersByLeader,
    leaderId,
    leader,
    leaderQueried,
    leaderUnreachableReasons: reasons,
    noLeaderErrors,
    quorum: quorum(voting.length),
    moveTarget,
  };
}
