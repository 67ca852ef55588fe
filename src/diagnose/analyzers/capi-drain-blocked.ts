import type { Analyzer } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { fingerprint } from '../fingerprint.js';
import { formatAge } from '../facts/age.js';
import { createDeletionAnalyzer } from '../facts/create-deletion-analyzer.js';
import { labelOf } from '../facts/label-of.js';

/**
 * capi.drain-blocked: a Machine being deleted whose node drain has not completed for
 * `deletingMinutes`, with what holds it — the PodDisruptionBudget that refuses evictions ("Cannot evict
 * pod as it would violate the pod's disruption budget"; `disruptionsAllowed: 0`) and its pods, pods
 * that do not terminate, eviction errors — from the v1beta2 `Deleting` condition (reason `DrainingNode`)
 * or v1beta1 `DrainingSucceeded`, and the budgets and pods of the snapshot. It is the cause of
 * capi.machine-stuck-deleting and of a rollout stalled on that deletion. Proposes `machine.skip-drain`
 * (Cluster API's `exclude-node-draining` annotation) only when the blocker is named and nothing is missing.
 */
export const capiDrainBlockedAnalyzer: Analyzer = createDeletionAnalyzer('capi.drain-blocked', (b, ctx) => {
  const { info, deletion } = b;
  const node = info.nodeName ?? '?';
  const evidence = [...b.evidence];
  const timeout = deletion.drainTimeoutSeconds;
  evidence.push(
    timeout === undefined
      ? 'no nodeDrainTimeout on the Machine: Cluster API waits for this drain without limit'
      : `nodeDrainTimeout ${formatAge(timeout * 1000)}: Cluster API gives up the drain ${formatAge(timeout * 1000)} after ${deletion.drainStartTime ?? 'the drain started'}`,
  );
  const budgets = b.pdbs.map((p) => `${p.namespace}/${p.name}`);
  const quoted = b.drain?.refusals.filter((r) => !b.pdbs.some((p) => p.name === r.budget)).map((r) => r.budget) ?? [];
  const allBudgets = [...budgets, ...quoted];
  const why = allBudgets.length
    ? `PodDisruptionBudget ${allBudgets.join(', ')} allows no disruption, so every eviction of the pods it covers on node ${node} is refused and the drain never completes. Scale the workload up (or fix its unready pods) so the budget allows one disruption, relax the budget, or skip the drain for this machine`
    : b.drain?.terminating.length
      ? `pods evicted from node ${node} do not terminate (finalizers, a stuck kubelet or volume), so the drain never completes. Find what holds them, or skip the drain for this machine`
      : `the drain of node ${node} does not complete`;
  const remediations: RemediationProposal[] = [];
  if (b.named && !b.missing.length) {
    const lost = allBudgets.length
      ? `the pods PodDisruptionBudget ${allBudgets.join(', ')} protects on ${node} are killed with the VM instead of evicted, and the budget is not honoured`
      : `pods still on ${node} are killed with the VM instead of evicted`;
    remediations.push({
      action: 'machine.skip-drain',
      params: { namespace: info.namespace, name: info.name },
      label: labelOf('Skip drain: ', info.name),
      risk: `Cluster API stops evicting: ${lost}.`,
    });
  }
  const causedBy = (b.drain?.terminating ?? []).map((p) => {
    const [namespace, name] = p.includes('/') ? (p.split('/') as [string, string]) : [undefined, p];
    return fingerprint(ctx.snapshot.cluster, 'pod.stuck-terminating', {
      kind: 'Pod',
      ...(namespace ? { namespace } : {}),
      name,
    });
  });
  return {
    says: `cannot be deleted: ${b.summary}`,
    evidence,
    cause: `${why}.`,
    remediations,
    ids: { node, ...(allBudgets.length ? { podDisruptionBudgets: allBudgets.join(',') } : {}) },
    causedBy,
  };
});
