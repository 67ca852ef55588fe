import type { Analyzer, FindingDraft } from '../analyzer.js';
import { findEtcdMemberMismatches } from '../facts/find-etcd-member-mismatches.js';
import { proposeRemoveMember } from '../facts/propose-remove-member.js';

const NO_DELETE = 'Do not delete existing control-plane machines (data loss).';

/**
 * Seed S2: a learner never promoted / "Peer URLs already exists": etcd members no longer match the control-plane
 * machines.
 */
export const etcdMemberMismatchAnalyzer: Analyzer = {
  id: 'etcd.member-mismatch',
  analyze(ctx): FindingDraft[] {
    return findEtcdMemberMismatches(ctx.snapshot, ctx.now).map((mm) => {
      const remediations = proposeRemoveMember(mm);
      const title =
        mm.kind === 'learner'
          ? `etcd member ${mm.name} is a learner that was never promoted`
          : mm.kind === 'stale'
            ? mm.blocksJoinOf
              ? `Stale etcd member ${mm.name} holds the peer URL of control-plane machine ${mm.blocksJoinOf} and blocks its join`
              : `Stale etcd member ${mm.name} matches no control-plane machine`
            : `Control-plane node ${mm.name} has no etcd member`;
      const cause =
        mm.kind === 'learner'
          ? 'kubeadm added the new control-plane node as an etcd learner but could not promote it in time ("can only promote a learner member which is in sync with leader"): high load on the existing control-plane nodes or network latency. '
          : mm.kind === 'stale'
            ? 'A member left behind by a failed join or a removed machine ("Peer URLs already exists" on the next join). '
            : 'The control-plane join failed at the etcd step. ';
      return {
        id: 'etcd.member-mismatch',
        severity: 'warning',
        section: 'etcd',
        title,
        subject: { kind: 'EtcdMember', name: mm.name },
        evidence: [
          mm.detail,
          ...(mm.kind === 'stale' && !mm.removable
            ? ['not offering removal: it is the leader or removal would lose quorum']
            : []),
        ],
        cause: cause + NO_DELETE,
        remediations,
        ...(mm.member ? { ids: { memberId: mm.member.id } } : {}),
      };
    });
  },
};
