import type { KubeObject } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import { fingerprint } from '../fingerprint.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { describeEvent } from '../facts/describe-event.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findCondition } from '../facts/find-condition.js';
import { findMachineEvents } from '../facts/find-machine-events.js';
import { findCapacityBlock } from '../facts/find-capacity-block.js';
import type { RolloutKind } from '../facts/find-rollout-scope.js';
import { machineInfo } from '../facts/machine-info.js';

/**
 * capi.rollout-blocked: a KubeadmControlPlane or MachineDeployment rollout that makes room
 * by creating a machine first (MachineDeployment `maxUnavailable: 0`, the default; KubeadmControlPlane
 * `maxSurge: 1`, the default) while that new machine's infrastructure was never provisioned for
 * `provisioningMinutes`: no capacity for one more VM (quota, placement, a full cluster), so no old
 * machine is ever replaced. Names the new machine and what its provider says
 * (InfrastructureReady, events). Cause of upgrade.stuck; its own cause is capi.machine-stuck-provisioning
 * of that machine. Proposes nothing: freeing capacity, or a temporary maxUnavailable 1 (one machine's
 * capacity less during the rollout), is the owner's call.
 */
export const capiRolloutBlockedAnalyzer: Analyzer = {
  id: 'capi.rollout-blocked',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const out: FindingDraft[] = [];
    const check = (kind: RolloutKind, o: KubeObject) => {
      const block = findCapacityBlock(ctx, kind, o);
      if (!block) return;
      const { waiting } = block;
      const ns = o.metadata.namespace ?? 'default';
      const evidence = [block.strategy];
      for (const m of waiting) {
        const i = machineInfo(m);
        evidence.push(describeMachine(m, ctx.now));
        const infra = findCondition(m, 'InfrastructureReady');
        if (infra && infra.status !== 'True')
          evidence.push(
            `Machine ${i.name}: condition InfrastructureReady=${infra.status}${infra.reason ? ` reason=${infra.reason}` : ''}${infra.message ? ` message="${infra.message}"` : ''}`,
          );
        evidence.push(
          ...findMachineEvents(snap, i.namespace, i.name)
            .slice(0, 2)
            .map((e) => describeEvent(e, ctx.now)),
        );
      }
      const names = waiting.map((m) => m.metadata.name);
      const oldest = Math.max(...waiting.map((m) => ageMinutes(m.metadata.creationTimestamp, ctx.now) ?? 0));
      out.push({
        id: 'capi.rollout-blocked',
        severity: 'warning',
        section: 'upgrades',
        title: `${kind} ${ns}/${o.metadata.name} rollout waits for new machine ${names.join(', ')} whose infrastructure is not provisioned after ${formatAge(oldest * 60000)}`,
        subject: { kind, namespace: ns, name: o.metadata.name },
        evidence,
        cause: `The rollout creates a new machine before it removes an old one, and the infrastructure provider has not created ${names.join(', ')} (no capacity, quota or placement for one more VM: see its InfrastructureReady condition and events). Free capacity for one machine, or let the rollout remove an old machine first (MachineDeployment maxUnavailable: 1 — one machine's capacity less while it rolls).`,
        causedBy: waiting.map((m) =>
          fingerprint(snap.cluster, 'capi.machine-stuck-provisioning', {
            kind: 'Machine',
            namespace: machineInfo(m).namespace,
            name: m.metadata.name,
          }),
        ),
        since: waiting
          .map((m) => m.metadata.creationTimestamp)
          .filter((t): t is string => !!t)
          .sort()[0],
        remediations: [],
      });
    };
    for (const k of snap.capi.kubeadmControlPlanes) check('KubeadmControlPlane', k);
    for (const d of snap.capi.machineDeployments) check('MachineDeployment', d);
    return out;
  },
};
