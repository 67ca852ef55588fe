import type { Analyzer, FindingDraft } from '../analyzer.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { describeEvent } from '../facts/describe-event.js';
import { describeMachine } from '../facts/describe-machine.js';
import { fingerprint } from '../fingerprint.js';
import { findEtcdMemberMismatches } from '../facts/find-etcd-member-mismatches.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { findMachineEvents } from '../facts/find-machine-events.js';
import { machineInfo } from '../facts/machine-info.js';
import { parseRemediationFor, REMEDIATION_FOR_ANNOTATION } from '../facts/parse-remediation-for.js';
import { proposeRemoveMember } from '../facts/propose-remove-member.js';

const STUCK_PHASES = new Set(['Provisioning', 'Provisioned']);

/**
 * Seed S0: the replacement control-plane machine hangs in Provisioned with no nodeRef past CAPV's 20-minute timeout.
 */
export const capiMachineStuckProvisioningAnalyzer: Analyzer = {
  id: 'capi.machine-stuck-provisioning',
  analyze(ctx): FindingDraft[] {
    const out: FindingDraft[] = [];
    const leader = findLeaderUnreachableCause(ctx.snapshot);
    const joinBlockers = findEtcdMemberMismatches(ctx.snapshot, ctx.now).filter((mm) => mm.blocksJoinOf);
    for (const m of ctx.snapshot.capi.machines) {
      const i = machineInfo(m);
      if (i.deleting || i.nodeName) continue;
      if (!(i.phase && STUCK_PHASES.has(i.phase)) && !(i.phase === 'Pending' && i.infraReady)) continue;
      const age = ageMinutes(m.metadata.creationTimestamp, ctx.now);
      if (age === undefined || age < ctx.thresholds.provisioningMinutes) continue;
      const evidence = [describeMachine(m, ctx.now)];
      const rf = parseRemediationFor(m);
      if (rf) evidence.push(`annotation ${REMEDIATION_FOR_ANNOTATION}=${rf.raw}`);
      evidence.push(
        ...findMachineEvents(ctx.snapshot, i.namespace, i.name)
          .slice(0, 3)
          .map((e) => describeEvent(e, ctx.now)),
      );
      // Seed S0: CAPV recreated the machine again and again and left a stale VM in the inventory.
      evidence.push(
        `possible orphan VM${i.providerID ? ` (${i.providerID})` : ''}: machines deleted on timeout may leave their VM in the infrastructure inventory; check and remove it by hand`,
      );
      const byLeader = i.controlPlane && leader;
      // A stale etcd member holding this machine's peer URL blocks its join.
      const blockers = byLeader ? [] : joinBlockers.filter((mm) => mm.blocksJoinOf === `${i.namespace}/${i.name}`);
      evidence.push(...blockers.map((mm) => mm.detail));
      out.push({
        id: 'capi.machine-stuck-provisioning',
        // The root cause (etcd.leader-unreachable) carries the critical severity; this is its symptom.
        severity: 'warning',
        section: 'machines',
        title: `${i.controlPlane ? 'Control-plane machine' : 'Machine'} ${i.namespace}/${i.name} stuck ${i.phase} for ${formatAge(age * 60000)} (no Node)`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
        evidence,
        cause: byLeader
          ? `new control-plane machine cannot join: ${leader.text}. Move the etcd leader to a healthy member.`
          : blockers.length
            ? `kubeadm join cannot add this machine's etcd member: stale member ${blockers.map((mm) => mm.name).join(', ')} left by a failed join holds its peer URL ("Peer URLs already exists"). Remove that member; do not delete existing control-plane machines (data loss).`
            : `The machine has no Node after ${formatAge(age * 60000)}: bootstrap (kubeadm/cloud-init) likely failed; check the VM console and cloud-init-output.log.`,
        causedBy: byLeader
          ? [leader.fingerprint]
          : blockers.length
            ? blockers.map((mm) =>
                fingerprint(ctx.snapshot.cluster, 'etcd.member-mismatch', { kind: 'EtcdMember', name: mm.name }),
              )
            : undefined,
        since: m.metadata.creationTimestamp,
        remediations: blockers.flatMap(proposeRemoveMember),
      });
    }
    return out;
  },
};
