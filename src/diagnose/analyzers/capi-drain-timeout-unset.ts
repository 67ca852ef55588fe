import type { KubeObject } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import { describeBlockingPdb, findBlockingPdbs } from '../facts/find-blocking-pdbs.js';
import { machineInfo } from '../facts/machine-info.js';
import { readDrainTimeout } from '../facts/read-drain-timeout.js';

type Owner = 'KubeadmControlPlane' | 'MachineDeployment' | 'MachineSet';

/**
 * capi.drain-timeout-unset (proactive): a KubeadmControlPlane, MachineDeployment or standalone
 * MachineSet whose Machines get no `nodeDrainTimeout` (v1beta1) / `deletion.nodeDrainTimeoutSeconds`
 * (v1beta2) — unset or 0 means Cluster API waits for a drain forever — while a PodDisruptionBudget that
 * allows no disruption covers pods on one of its nodes right now: the next rollout, scale-down or
 * remediation of that node would hang on it. Info, and only then: an unset timeout alone is Cluster API's
 * default and not worth a line on every cluster. Proposes nothing (setting a timeout is a spec change).
 */
export const capiDrainTimeoutUnsetAnalyzer: Analyzer = {
  id: 'capi.drain-timeout-unset',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const out: FindingDraft[] = [];
    const check = (kind: Owner, o: KubeObject, machines: KubeObject[]) => {
      const t = readDrainTimeout(kind, o);
      if (t.seconds !== undefined) return;
      const lines: string[] = [];
      const budgets = new Set<string>();
      for (const m of machines) {
        const i = machineInfo(m);
        // A Machine being deleted is capi.drain-blocked's business once it stalls.
        if (!i.nodeName || i.deleting) continue;
        for (const b of findBlockingPdbs(snap, i.nodeName)) {
          budgets.add(`${b.namespace}/${b.name}`);
          lines.push(`Machine ${i.name}: ${describeBlockingPdb(b, i.nodeName)}`);
        }
      }
      if (!budgets.size) return;
      const ns = o.metadata.namespace ?? 'default';
      out.push({
        id: 'capi.drain-timeout-unset',
        severity: 'info',
        section: 'machines',
        title: `${kind} ${ns}/${o.metadata.name} sets no drain timeout while PodDisruptionBudget ${[...budgets].join(', ')} allows no disruption: a drain of its nodes would wait forever`,
        subject: { kind, namespace: ns, name: o.metadata.name },
        evidence: [
          `${kind} ${ns}/${o.metadata.name}: ${t.field} not set (0 = Cluster API drains without limit)`,
          ...lines,
        ],
        cause: `Set ${t.field} (e.g. a few times the slowest pod's shutdown) so a blocked drain ends, or make the budgets allow one disruption (more replicas, maxUnavailable 1).`,
        remediations: [],
      });
    };
    const byOwner = (pred: (m: KubeObject) => boolean) => snap.capi.machines.filter(pred);
    for (const k of snap.capi.kubeadmControlPlanes) {
      const ns = k.metadata.namespace ?? 'default';
      check(
        'KubeadmControlPlane',
        k,
        byOwner((m) => machineInfo(m).namespace === ns && machineInfo(m).kcpName === k.metadata.name),
      );
    }
    for (const d of snap.capi.machineDeployments) {
      const ns = d.metadata.namespace ?? 'default';
      check(
        'MachineDeployment',
        d,
        byOwner((m) => machineInfo(m).namespace === ns && machineInfo(m).deploymentName === d.metadata.name),
      );
    }
    // MachineSets not owned by a MachineDeployment (their MD's template is what counts otherwise).
    for (const s of snap.capi.machineSets) {
      if (
        (s.metadata.ownerReferences ?? []).some((r) => r.kind === 'MachineDeployment') ||
        s.metadata.labels?.['cluster.x-k8s.io/deployment-name']
      )
        continue;
      const ns = s.metadata.namespace ?? 'default';
      check(
        'MachineSet',
        s,
        byOwner(
          (m) =>
            (m.metadata.namespace ?? 'default') === ns &&
            (m.metadata.ownerReferences ?? []).some((r) => r.kind === 'MachineSet' && r.name === s.metadata.name),
        ),
      );
    }
    return out;
  },
};
