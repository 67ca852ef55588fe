import type { RemediationProposal } from '../finding.js';
import type { EtcdMemberMismatch } from './find-etcd-member-mismatches.js';

/**
 * etcd.remove-member for a stale member, only when findEtcdMemberMismatches judged it removable
 * (not the leader; quorum kept). Empty otherwise: no write is proposed on missing evidence.
 */
export function proposeRemoveMember(mm: EtcdMemberMismatch): RemediationProposal[] {
  if (mm.kind !== 'stale' || !mm.removable || !mm.member) return [];
  return [
    {
      action: 'etcd.remove-member',
      params: { memberId: mm.member.id },
      label: `Remove stale etcd member ${mm.name}`.slice(0, 75),
      risk: 'Irreversible; safe only if no control-plane machine uses this member (quorum is kept).',
    },
  ];
}
