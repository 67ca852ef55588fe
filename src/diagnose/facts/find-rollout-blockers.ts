import type { KubeObject } from '../../cluster/snapshot.js';
import type { AnalysisContext } from '../analyzer.js';
import { fingerprint } from '../fingerprint.js';
import { findCapacityBlock } from './find-capacity-block.js';
import { findCondition } from './find-condition.js';
import { findClusterOf, findOwnedMachines, type RolloutKind } from './find-rollout-scope.js';
import { findStuckDeletions } from './find-stuck-deletions.js';
import { machineInfo } from './machine-info.js';
import { readPaused } from './read-paused.js';

/** What holds one rollout, as causes for upgrade.stuck: fingerprints of the blocker findings and one sentence each. */
export interface RolloutBlockers {
  causedBy: string[];
  causes: string[];
}

/**
 * The objects that block a KubeadmControlPlane / MachineDeployment rollout, in the order an
 * SRE would check them: the rollout (or its Cluster) is paused (capi.rollout-paused); an old machine's
 * deletion is held by a drain, a hook or a volume (capi.drain-blocked, capi.deletion-hook-pending,
 * capi.volume-detach-pending); the new machine gets no infrastructure (capi.rollout-blocked); KCP gave up
 * remediating a machine (capi.remediation-exhausted). Pure; the same facts those analyzers use.
 */
export function findRolloutBlockers(ctx: AnalysisContext, kind: RolloutKind, o: KubeObject): RolloutBlockers {
  const snap = ctx.snapshot;
  const ns = o.metadata.namespace ?? 'default';
  const out: RolloutBlockers = { causedBy: [], causes: [] };
  const add = (id: Parameters<typeof fingerprint>[1], subject: Parameters<typeof fingerprint>[2], text: string) => {
    out.causedBy.push(fingerprint(snap.cluster, id, subject));
    out.causes.push(text);
  };
  const paused = readPaused(o);
  if (paused.paused)
    add(
      'capi.rollout-paused',
      { kind, namespace: ns, name: o.metadata.name },
      `${kind} ${o.metadata.name} is paused (${paused.how.join(', ')})`,
    );
  const cluster = findClusterOf(snap, o);
  const cp = cluster ? readPaused(cluster) : undefined;
  if (cluster && cp?.paused)
    add(
      'capi.rollout-paused',
      { kind: 'Cluster', namespace: ns, name: cluster.metadata.name },
      `Cluster ${cluster.metadata.name} is paused (${cp.how.join(', ')})`,
    );
  const owned = findOwnedMachines(snap, kind, o);
  const names = new Set(owned.map((m) => m.metadata.name));
  for (const b of findStuckDeletions(ctx)) {
    if (b.info.namespace !== ns || !names.has(b.info.name)) continue;
    add(
      b.id,
      { kind: 'Machine', namespace: ns, name: b.info.name },
      `old machine ${b.info.name} cannot be deleted: ${b.summary}`,
    );
  }
  const capacity = findCapacityBlock(ctx, kind, o);
  if (capacity)
    add(
      'capi.rollout-blocked',
      { kind, namespace: ns, name: o.metadata.name },
      `new machine ${capacity.waiting.map((m) => m.metadata.name).join(', ')} gets no infrastructure, and the rollout creates before it deletes`,
    );
  for (const m of owned) {
    const c = findCondition(m, 'OwnerRemediated');
    if (c?.status === 'False' && /\(MaxRetry\)/.test(c.message ?? '') && !machineInfo(m).deleting) {
      add(
        'capi.remediation-exhausted',
        { kind: 'Machine', namespace: ns, name: m.metadata.name },
        `KubeadmControlPlane gave up remediating ${m.metadata.name} (maxRetry)`,
      );
    }
  }
  return out;
}
