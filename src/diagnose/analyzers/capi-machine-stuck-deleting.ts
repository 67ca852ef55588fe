import type { Analyzer, FindingDraft } from '../analyzer.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { describeEvent } from '../facts/describe-event.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findDeletionBlocker } from '../facts/find-deletion-blocker.js';
import { fingerprint } from '../fingerprint.js';
import { findMachineEvents } from '../facts/find-machine-events.js';
import { machineInfo } from '../facts/machine-info.js';

/**
 * A Machine whose deletion does not finish (drain blocked, VM delete failing, finalizer stuck). When the
 * Machine says which stage holds it and that stage has lasted the threshold too, the blocker's own finding
 * (capi.drain-blocked, capi.deletion-hook-pending, capi.volume-detach-pending) is its cause.
 */
export const capiMachineStuckDeletingAnalyzer: Analyzer = {
  id: 'capi.machine-stuck-deleting',
  analyze(ctx): FindingDraft[] {
    const out: FindingDraft[] = [];
    for (const m of ctx.snapshot.capi.machines) {
      const since = m.metadata.deletionTimestamp;
      const age = ageMinutes(since, ctx.now);
      if (age === undefined || age < ctx.thresholds.deletingMinutes) continue;
      const i = machineInfo(m);
      const evidence = [describeMachine(m, ctx.now)];
      if (m.metadata.finalizers?.length) evidence.push(`finalizers: ${m.metadata.finalizers.join(', ')}`);
      evidence.push(
        ...findMachineEvents(ctx.snapshot, i.namespace, i.name)
          .slice(0, 3)
          .map((e) => describeEvent(e, ctx.now)),
      );
      const blocker = findDeletionBlocker(ctx.snapshot, m, ctx.now);
      const named =
        blocker && blocker.minutes !== undefined && blocker.minutes >= ctx.thresholds.deletingMinutes
          ? blocker
          : undefined;
      if (blocker && !named)
        evidence.push(
          `stage: ${blocker.deletion.stageSource} (${blocker.summary}, for less than ${ctx.thresholds.deletingMinutes}m)`,
        );
      out.push({
        id: 'capi.machine-stuck-deleting',
        severity: 'warning',
        section: 'machines',
        title: `${i.controlPlane ? 'Control-plane machine' : 'Machine'} ${i.namespace}/${i.name} stuck Deleting for ${formatAge(age * 60000)}`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
        evidence,
        cause: named
          ? `${named.summary} (${named.id}).`
          : 'Deletion waits on a drain (PodDisruptionBudget, pods stuck Terminating) or the infrastructure provider cannot delete the VM.',
        ...(named
          ? {
              causedBy: [
                fingerprint(ctx.snapshot.cluster, named.id, { kind: 'Machine', namespace: i.namespace, name: i.name }),
              ],
            }
          : {}),
        since,
        remediations: [],
      });
    }
    return out;
  },
};
