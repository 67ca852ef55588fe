import type { EtcdMember, Snapshot } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';
import { findEtcdLeaderState } from './find-etcd-leader-state.js';
import { formatMemberId } from './format-member-id.js';
import { hostOf } from './host-of.js';
import { isControlPlaneNode } from './is-control-plane-node.js';
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
  /**
   * A learner or never-started member left by a failed control-plane join that holds the peer URL
   * (address) of this control-plane Machine, blocking its join ("Peer URLs already exists";
   * kubernetes-sigs/cluster-api#13221, #5509): `namespace/name` of that Machine.
   */
  blocksJoinOf?: string;
}

/**
 * A joining control-plane Machine's learner is normally promoted (or its unstarted member started)
 * within seconds to minutes; KCP itself keeps an unnamed learner for a bounded startup grace
 * (kubernetes-sigs/cluster-api#14199). Past the MHC's default nodeStartupTimeout the join has failed.
 */
const JOIN_GRACE_MINUTES = 10;

/**
 * Compare etcd members with control-plane Machines/Nodes: learners never promoted, members whose
 * name and peer address match no control-plane machine or node (stale), and running control-plane
 * machines with no member. Empty when either side is unknown.
 *
 * A learner or never-started member that is not the member of a current
 * Machine is stale — left by a failed join (KCP does not remove the member of a machine that never
 * got a Node, cluster-api#13221) — even when it holds the peer URL of the new Machine now trying to
 * join: that is exactly what blocks the join. It is removable (it never counts towards quorum). A
 * member of a join still inside JOIN_GRACE_MINUTES is left alone.
 */
export function findEtcdMemberMismatches(
  snapshot: Snapshot,
  now: Date = new Date(snapshot.collectedAt),
): EtcdMemberMismatch[] {
  const etcd = snapshot.etcd;
  const cps = snapshot.capi.machines.map((m) => ({ m, i: machineInfo(m) })).filter((x) => x.i.controlPlane);
  if (!etcd || etcd.members.length === 0 || cps.length === 0) return [];
  const state = findEtcdLeaderState(snapshot);
  const cpNodes = snapshot.nodes.filter((n) => cps.some((c) => c.i.nodeName === n.metadata.name));
  const nodeAddrs = (name: string) =>
    arrayOrEmpty(snapshot.nodes.find((n) => n.metadata.name === name)?.status?.addresses)
      .map((a) => a?.address)
      .filter((a): a is string => typeof a === 'string');
  const names = new Set<string>(
    [...cps.flatMap((c) => [c.i.name, c.i.nodeName ?? '']), ...cpNodes.map((n) => n.metadata.name)].filter(Boolean),
  );
  const addrs = new Set<string>(
    cps.flatMap((c) => [...c.i.addresses, ...(c.i.nodeName ? nodeAddrs(c.i.nodeName) : [])]).filter(Boolean),
  );
  const matches = (m: EtcdMember) => names.has(m.name) || m.peerURLs.some((u) => addrs.has(hostOf(u)));

  const out: EtcdMemberMismatch[] = [];
  const learnerIds = new Set(etcd.endpoints.filter((e) => e.isLearner && e.memberId).map((e) => e.memberId));
  const current = cps.filter((c) => !c.i.deleting);
  for (const m of etcd.members) {
    const learner = m.isLearner || learnerIds.has(m.id);
    // etcdctl prints an unstarted member with no name and no client URLs (cluster-api#5509).
    const unstarted = !m.name && m.clientURLs.length === 0;
    // Text shows member ids as etcdctl prints them (hex); the exact decimal stays in the proposal params.
    const hex = formatMemberId(m.id);
    const shown = `member ${hex} name=${m.name || '<unstarted>'} peerURLs=${m.peerURLs.join(',')}${learner ? ' isLearner=true' : ''}`;
    if (learner || unstarted) {
      const own = m.name ? current.find((c) => c.i.name === m.name || c.i.nodeName === m.name) : undefined;
      if (own) {
        // Seed S2: the new machine's own learner, never promoted (load / latency): not stale.
        out.push({
          kind: 'learner',
          name: m.name || hex,
          member: m,
          detail: `${shown} (never promoted to voting member)`,
          removable: false,
        });
        continue;
      }
      const hosts = new Set(m.peerURLs.map(hostOf));
      const holder = current.find((c) =>
        [...c.i.addresses, ...(c.i.nodeName ? nodeAddrs(c.i.nodeName) : [])].some((a) => hosts.has(a)),
      );
      const holderAge = holder ? ageMinutes(holder.m.metadata.creationTimestamp, now) : undefined;
      const joined = holder?.i.nodeName
        ? cpNodes.some((n) => n.metadata.name === holder.i.nodeName && isControlPlaneNode(n))
        : false;
      if (holder && (holderAge === undefined || holderAge < JOIN_GRACE_MINUTES) && !joined) {
        // A join in progress: its member may not have started yet. Not stale (yet).
        continue;
      }
      if (
        !holder &&
        current.some(
          (c) =>
            c.i.addresses.length === 0 && (ageMinutes(c.m.metadata.creationTimestamp, now) ?? 0) < JOIN_GRACE_MINUTES,
        )
      ) {
        // A young machine whose address is not known yet may be the one joining with this member:
        // no claim until it can be told apart (never a removal on missing evidence).
        continue;
      }
      if (holder && joined && learner) {
        out.push({
          kind: 'learner',
          name: m.name || hex,
          member: m,
          detail: `${shown} (never promoted to voting member)`,
          removable: false,
        });
        continue;
      }
      // Left by a failed join: nothing runs it, and a learner or an unstarted member never counts
      // towards quorum, so removing it cannot cost quorum; it must not be the leader (it cannot be).
      const blocks = holder && !joined ? `${holder.i.namespace}/${holder.i.name}` : undefined;
      const detail = blocks
        ? `${shown} ${unstarted ? 'was never started' : 'is a learner never promoted'} and holds the peer URL of control-plane Machine ${blocks}, created ${holderAge !== undefined ? `${formatAge(holderAge * 60000)} ago` : '?'} and not joined: its join cannot add a member ("Peer URLs already exists")`
        : `${shown} ${unstarted ? 'was never started' : 'is a learner never promoted'} and belongs to no current control-plane Machine or Node (left by a failed join)`;
      const mm: EtcdMemberMismatch = {
        kind: 'stale',
        name: m.name || hex,
        member: m,
        detail,
        removable: m.id !== state?.leaderId,
      };
      if (blocks) mm.blocksJoinOf = blocks;
      out.push(mm);
    } else if (!matches(m)) {
      const voting = state?.voting ?? [];
      const healthyOthers = (state?.reachable ?? []).filter((r) => r.id !== m.id && voting.includes(r)).length;
      // Never the leader; never when the remaining healthy voters would fall below quorum.
      const removable = m.id !== state?.leaderId && healthyOthers >= quorum(voting.length - 1);
      out.push({
        kind: 'stale',
        name: m.name || hex,
        member: m,
        detail: `${shown} matches no control-plane Machine or Node`,
        removable,
      });
    }
  }
  const memberNames = new Set(etcd.members.map((m) => m.name));
  const memberHosts = new Set(etcd.members.flatMap((m) => m.peerURLs.map(hostOf)));
  for (const { i } of cps) {
    if (i.deleting || i.phase !== 'Running' || !i.nodeName) continue;
    const hasMember =
      memberNames.has(i.nodeName) ||
      memberNames.has(i.name) ||
      [...i.addresses, ...nodeAddrs(i.nodeName)].some((a) => memberHosts.has(a));
    if (!hasMember) {
      out.push({
        kind: 'missing',
        name: i.nodeName,
        machine: `${i.namespace}/${i.name}`,
        detail: `control-plane Machine ${i.namespace}/${i.name} (node ${i.nodeName}) is Running but has no etcd member`,
        removable: false,
      });
    }
  }
  return out;
}

/** A field a dump may hold with any JSON type (fuzzed input): only an array is iterated. */
function arrayOrEmpty(v: unknown): { address?: string }[] {
  return Array.isArray(v) ? v : [];
}
