import type { Analyzer, FindingDraft } from '../analyzer.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { describeEvent } from '../facts/describe-event.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findMachineEvents } from '../facts/find-machine-events.js';
import { machineInfo } from '../facts/machine-info.js';

/** A Machine whose deletion does not finish (drain blocked, VM delete failing, finalizer stuck). */
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
      evidence.push(...findMachineEvents(ctx.snapshot, i.namespace, i.name).slice(0, 3).map((e) => describeEvent(e, ctx.now)));
      out.push({
        id: 'capi.machine-stuck-deleting',
        severity: 'warning',
        section: 'machines',
        title: `${i.controlPlane ? 'Control-plane machine' : 'Machine'} ${i.namespace}/${i.name} stuck Deleting for ${formatAge(age * 60000)}`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
        evidence,
        cause: 'Deletion waits on a drain (PodDisruptionBudget, pods stuck Terminating) or the infrastructure provider cannot delete the VM.',
        since,
        remediations: [],
      });
    }
    return out;
  },
};
