import type { Analyzer, FindingDraft } from '../analyzer.js';
import { fingerprint } from '../fingerprint.js';
import { describeMachine } from '../facts/describe-machine.js';
import { describeMemoryHogs } from '../facts/describe-memory-hogs.js';
import { findControlPlaneMemoryHogs } from '../facts/find-control-plane-memory-hogs.js';
import { findEtcdMemberMismatches } from '../facts/find-etcd-member-mismatches.js';
import { findNotJoinedMachines } from '../facts/find-not-joined-machines.js';
import { machineInfo } from '../facts/machine-info.js';
import { proposeRemoveMember } from '../facts/propose-remove-member.js';

/** Seed S2: the new control-plane VM is Running, its Node Ready with ROLES <none>: the etcd join failed. */
export const controlplaneNodeNotJoinedAnalyzer: Analyzer = {
  id: 'controlplane.node-not-joined',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const mismatches = findEtcdMemberMismatches(snap, ctx.now);
    const hogs = describeMemoryHogs(findControlPlaneMemoryHogs(snap));
    return findNotJoinedMachines(snap).map(({ machine, node, reasons }) => {
      const i = machineInfo(machine);
      const related = mismatches.filter(
        (m) => m.name === node.metadata.name || m.name === i.name || m.kind === 'stale',
      );
      // A stale member holding this machine's peer URL is the cause; removing it
      // is the fix, not scaling workloads.
      const blockers = related.filter((m) => m.blocksJoinOf === `${i.namespace}/${i.name}`);
      const head = {
        id: 'controlplane.node-not-joined',
        severity: 'warning',
        section: 'controlplane',
        title: `Control-plane machine ${i.namespace}/${i.name} is Running but node ${node.metadata.name} never joined the control plane`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
      } as const;
      if (blockers.length) {
        return {
          ...head,
          evidence: [describeMachine(machine, ctx.now), ...reasons, ...blockers.map((m) => m.detail)],
          cause:
            `stale etcd member ${blockers.map((m) => m.name).join(', ')} left by a failed join holds this machine's peer URL, so kubeadm cannot add its member ("Peer URLs already exists"). ` +
            'Remove that member; do not delete existing control-plane machines (data loss).',
          causedBy: blockers.map((m) =>
            fingerprint(snap.cluster, 'etcd.member-mismatch', { kind: 'EtcdMember', name: m.name }),
          ),
          since: machine.metadata.creationTimestamp,
          remediations: blockers.flatMap(proposeRemoveMember),
        };
      }
      return {
        ...head,
        evidence: [describeMachine(machine, ctx.now), ...reasons, ...related.map((m) => m.detail), ...hogs.evidence],
        cause:
          (related.length
            ? `etcd members do not match the control-plane machines (${related.map((m) => `${m.kind} ${m.name}`).join(', ')}): `
            : '') +
          'kubeadm join phase control-plane-join etcd most likely timed out (etcd allows 2 minutes), from high resource use on the existing control-plane nodes or network latency. ' +
          'Do not delete existing control-plane machines (data loss); free resources on the control-plane nodes instead.',
        causedBy: related.map((m) =>
          fingerprint(snap.cluster, 'etcd.member-mismatch', { kind: 'EtcdMember', name: m.name }),
        ),
        since: machine.metadata.creationTimestamp,
        remediations: hogs.remediations,
      };
    });
  },
};
