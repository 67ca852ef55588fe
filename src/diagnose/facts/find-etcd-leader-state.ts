import type { EtcdMember, Snapshot } from '../../cluster/snapshot.js';
import { machineInfo } from './machine-info.js';
import { hostOf } from './host-of.js';
import { quorum } from './quorum.js';

/** What the etcd data says about the leader, computed once and shared by the etcd/CAPI analyzers. */
export interface EtcdLeaderState {
  /** Voting members (learners excluded). */
  voting: EtcdMember[];
  /** Members that answered endpoint status without errors. */
  reachable: EtcdMember[];
  /** Leader id → names of the members that follow it (the leader itself excluded). */
  followersByLeader: Map<string, string[]>;
  /** The leader most members point at, when any. */
  leaderId?: string;
  leader?: EtcdMember;
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
 * Returns undefined when the snapshot has no etcd member list.
 */
export function findEtcdLeaderState(snapshot: Snapshot): EtcdLeaderState | undefined {
  const etcd = snapshot.etcd;
  if (!etcd || etcd.members.length === 0) return undefined;
  const byId = new Map(etcd.members.map((m) => [m.id, m]));
  const memberOfEndpoint = (endpoint: string, memberId?: string): EtcdMember | undefined => {
    if (memberId && byId.has(memberId)) return byId.get(memberId);
    const host = hostOf(endpoint);
    return etcd.members.find((m) => m.clientURLs.some((u) => u === endpoint || hostOf(u) === host));
  };
  const statusOf = new Map<string, (typeof etcd.endpoints)[number]>();
  for (const s of etcd.endpoints) {
    const m = memberOfEndpoint(s.endpoint, s.memberId);
    if (m) statusOf.set(m.id, s);
  }
  const unhealthy = new Map<string, string>();
  for (const h of etcd.health) {
    const m = memberOfEndpoint(h.endpoint);
    if (m && !h.health) unhealthy.set(m.id, h.error ?? 'health=false');
  }
  const learner = (m: EtcdMember) => m.isLearner || statusOf.get(m.id)?.isLearner === true;
  const voting = etcd.members.filter((m) => !learner(m));
  const answers = (m: EtcdMember) => {
    const s = statusOf.get(m.id);
    return !!s && s.errors.length === 0;
  };
  // Reachable = answers endpoint status. /health is false on every member while the leader is gone
  // (seed S0: "serving /health false; no leader"), so health alone cannot pick the move-leader target.
  const reachable = etcd.members.filter(answers);

  const followersByLeader = new Map<string, string[]>();
  const noLeaderErrors: string[] = [];
  for (const s of etcd.endpoints) {
    for (const e of s.errors) if (/no leader/i.test(e)) noLeaderErrors.push(`${s.endpoint}: ${e}`);
    if (!s.leader || s.leader === '0') continue;
    const self = memberOfEndpoint(s.endpoint, s.memberId);
    const list = followersByLeader.get(s.leader) ?? [];
    if (self?.id !== s.leader) list.push(self?.name ?? s.endpoint);
    followersByLeader.set(s.leader, list);
  }
  const leaderId = [...followersByLeader.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0]?.[0];
  const leader = leaderId ? byId.get(leaderId) : undefined;

  const reasons: string[] = [];
  if (leaderId) {
    const name = leader?.name ?? leaderId;
    const s = statusOf.get(leaderId);
    if (!leader) reasons.push(`leader ${leaderId} is not in the member list`);
    else if (!s) reasons.push(`leader ${name} (${leader.clientURLs.join(', ') || 'no client URL'}) is absent from endpoint status`);
    else if (s.errors.length) reasons.push(`leader ${name} endpoint ${s.endpoint} reports errors: ${s.errors.join('; ')}`);
    if (leader && unhealthy.has(leaderId)) reasons.push(`leader ${name} endpoint health=false: ${unhealthy.get(leaderId)}`);
    if (leader) {
      // The leader's node or machine is gone (only judged when the snapshot has that data).
      const machines = snapshot.capi.machines.map(machineInfo);
      const m = machines.find((x) => x.name === leader.name || x.nodeName === leader.name);
      const node = snapshot.nodes.find((n) => n.metadata.name === leader.name);
      if (machines.length > 0 && !m && snapshot.nodes.length > 0 && !node) reasons.push(`leader ${name} has no Machine and no Node any more`);
      else if (m?.deleting) reasons.push(`leader ${name}'s Machine ${m.namespace}/${m.name} is being deleted`);
    }
  }

  const moveTarget = voting
    .filter((m) => m.id !== leaderId && reachable.includes(m))
    .sort((a, b) => {
      const d = bigOf(statusOf.get(b.id)?.raftAppliedIndex) - bigOf(statusOf.get(a.id)?.raftAppliedIndex);
      return d > 0n ? 1 : d < 0n ? -1 : a.name.localeCompare(b.name);
    })[0];

  return {
    voting,
    reachable,
    followersByLeader,
    leaderId,
    leader,
    leaderUnreachableReasons: reasons,
    noLeaderErrors,
    quorum: quorum(voting.length),
    moveTarget,
  };
}
