import type { KubeObject } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { findClusterOf, isRolloutPending, type RolloutKind } from '../facts/find-rollout-scope.js';
import { readPaused } from '../facts/read-paused.js';

/**
 * capi.rollout-paused: a Cluster, KubeadmControlPlane or MachineDeployment that Cluster API
 * does not reconcile — the `cluster.x-k8s.io/paused` annotation (any CAPI object) or `spec.paused: true`
 * (Cluster, MachineDeployment). A paused Cluster also pauses everything in it (its control plane,
 * MachineDeployments and MachineHealthChecks: no rollout, no remediation). Warning when a rollout is
 * owed (fewer up-to-date replicas than desired, or Machines at another version): it will not move until
 * resumed, and upgrade.stuck names this as its cause; info otherwise (`clusterctl move` pauses for a
 * while on purpose). Proposes nothing: who paused it knows why.
 */
export const capiRolloutPausedAnalyzer: Analyzer = {
  id: 'capi.rollout-paused',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const out: FindingDraft[] = [];
    const owned = (cluster?: KubeObject): [RolloutKind, KubeObject][] => [
      ...snap.capi.kubeadmControlPlanes
        .filter((k) => !cluster || findClusterOf(snap, k) === cluster)
        .map((k) => ['KubeadmControlPlane', k] as [RolloutKind, KubeObject]),
      ...snap.capi.machineDeployments
        .filter((d) => !cluster || findClusterOf(snap, d) === cluster)
        .map((d) => ['MachineDeployment', d] as [RolloutKind, KubeObject]),
    ];
    const report = (kind: 'Cluster' | RolloutKind, obj: KubeObject, pending: [RolloutKind, KubeObject][]) => {
      const p = readPaused(obj);
      if (!p.paused) return;
      const ns = obj.metadata.namespace ?? 'default';
      const evidence = [`${kind} ${ns}/${obj.metadata.name}: ${p.how.join(', ')}`];
      if (p.since)
        evidence.push(
          `paused since ${p.since}${ageMinutes(p.since, ctx.now) !== undefined ? ` (${formatAge(ageMinutes(p.since, ctx.now)! * 60000)})` : ''}`,
        );
      if (kind === 'Cluster')
        evidence.push(
          'a paused Cluster pauses its control plane, MachineDeployments, MachineSets, Machines and MachineHealthChecks: no rollout, scaling or remediation happens',
        );
      for (const [k, o] of pending)
        evidence.push(
          `${k} ${o.metadata.namespace ?? 'default'}/${o.metadata.name} has a rollout owed (not every replica up to date) that waits for the resume`,
        );
      out.push({
        id: 'capi.rollout-paused',
        severity: pending.length ? 'warning' : 'info',
        section: 'upgrades',
        title: `${kind} ${ns}/${obj.metadata.name} is paused${p.since ? ` since ${p.since}` : ''}${pending.length ? `: rollout of ${pending.map(([k, o]) => `${k} ${o.metadata.name}`).join(', ')} waits` : ''}`,
        subject: { kind, namespace: ns, name: obj.metadata.name },
        evidence,
        cause: pending.length
          ? `Cluster API does not reconcile a paused object, so the rollout does not move. Remove the pause (${p.how.join(' / ')}) once whoever paused it is done (clusterctl move pauses and resumes by itself).`
          : 'Cluster API does not reconcile a paused object: nothing rolls out, scales or is remediated until it is resumed.',
        ...(p.since ? { since: p.since } : {}),
        remediations: [],
      });
    };
    for (const c of snap.capi.clusters)
      report(
        'Cluster',
        c,
        owned(c).filter(([k, o]) => isRolloutPending(snap, k, o)),
      );
    for (const [k, o] of owned()) report(k, o, isRolloutPending(snap, k, o) ? [[k, o]] : []);
    return out;
  },
};
