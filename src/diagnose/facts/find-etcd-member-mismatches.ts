import type { EtcdMember, Snapshot } from '../../cluster/snapshot.js';
import { findEtcdLeaderState } from './find-etcd-leader-state.js';
import { formatMemberId } from './format-member-id.js';
import { hostOf } from './host-of.js';
import { machineInfo } from './machine-info.js';
import { quorum } from './quorum.js';

/** One etcd member that does not match the control-plane machines (seed S2). */
export interface EtcdMemberMismatch {
  kind: 'learner' | 'stale' | 'missing';
  /** Member name; for `missing`, the node name of the control-plane machine without a member. */
  name: string;
  member?: EtcdMember;
  machine?: string;
  detail: string;
  /** Removing it keeps quorum and it is not the leader (only ever true for `stale`). */
  removable: boolean;
}

/**
 * Compare etcd members with control-plane Machines/Nodes: learners never promoted, members whose
 * name and peer address match no control-plane machine or node (stale), and running control-plane
 * machines with no member. Empty when either side is unknown.
 */
export function findEtcdMemberMismatches(snapshot: Snapshot): EtcdMemberMismatch[] {
  const etcd = snapshot.etcd;
  const cps = snapshot.capi.machines.map((m) => ({ m, i: machineInfo(m) })).filter((x) => x.i.controlPlane);
  if (!etcd || etcd.members.length === 0 || cps.length === 0) return [];
  const state = findEtcdLeaderState(snapshot);
  const cpNodes = snapshot.nodes.filter((n) => cps.some((c) => c.i.nodeName === n.metadata.name));
  const nodeAddrs = (name: string) =>
    arrayOrEmpty(snapshot.nodes.find((n) => n.metadata.name === name)?.status?.addresses)
      .map((a) => a?.address)
      .filter((a): a is string => typeof a === 'string');
  const names = new Set<string>([...cps.flatMap((c) => [c.i.name, c.i.nodeName ?? '']), ...cpNodes.map((n) => n.metadata.name)].filter(Boolean));
  const addrs = new Set<string>(cps.flatMap((c) => [...c.i.addresses, ...(c.i.nodeName ? nodeAddrs(c.i.nodeName) : [])]).filter(Boolean));
  const matches = (m: EtcdMember) => names.has(m.name) || m.peerURLs.some((u) => addrs.has(hostOf(u)));

  const out: EtcdMemberMismatch[] = [];
  const learnerIds = new Set(etcd.endpoints.filter((e) => e.isLearner && e.memberId).map((e) => e.memberId));
  for (const m of etcd.members) {
    if (m.isLearner || learnerIds.has(m.id)) {
      out.push({ kind: 'learner', name: m.name || formatMemberId(m.id), member: m, detail: `member ${formatMemberId(m.id)} name=${m.name || '<unstarted>'} peerURLs=${m.peerURLs.join(',')} isLearner=true (never promoted to voting member)`, removable: false });
    } else if (!matches(m)) {
      const voting = state?.voting ?? [];
      const healthyOthers = (state?.reachable ?? []).filter((r) => r.id !== m.id && voting.includes(r)).length;
      // Never the leader; never when the remaining healthy voters would fall below quorum.
      const removable = m.id !== state?.leaderId && healthyOthers >= quorum(voting.length - 1);
      out.push({ kind: 'stale', name: m.name || formatMemberId(m.id), member: m, detail: `member ${formatMemberId(m.id)} name=${m.name || '<unstarted>'} peerURLs=${m.peerURLs.join(',')} matches no control-plane Machine or Node`, removable });
    }
  }
  const memberNames = new Set(etcd.members.map((m) => m.name));
  const memberHosts = new Set(etcd.members.flatMap((m) => m.peerURLs.map(hostOf)));
  for (const { i } of cps) {
    if (i.deleting || i.phase !== 'Running' || !i.nodeName) continue;
    const hasMember = memberNames.has(i.nodeName) || memberNames.has(i.name) || [...i.addresses, ...nodeAddrs(i.nodeName)].some((a) => memberHosts.has(a));
    if (!hasMember) {
      out.push({ kind: 'missing', name: i.nodeName, machine: `${i.namespace}/${i.name}`, detail: `control-plane Machine ${i.namespace}/${i.name} (node ${i.nodeName}) is Running but has no etcd member`, removable: false });
    }
  }
  return out;
}

/** A field a dump may hold with any JSON type (issue 9 fuzzing): only an array is iterated. */
function arrayOrEmpty(v: unknown): { address?: string }[] {
  return Array.isArray(v) ? v : [];
}
