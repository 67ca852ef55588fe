import type { KubeObject } from '../../cluster/snapshot.js';
import type { AnalysisContext } from '../analyzer.js';
import { ageMinutes } from './age.js';
import { findOwnedMachines, isRolloutPending, type RolloutKind } from './find-rollout-scope.js';
import { machineInfo } from './machine-info.js';
import { readPaused } from './read-paused.js';

/** A rollout that must create a machine before removing one, waiting on new machines that never got infrastructure. */
export interface CapacityBlock {
  /** The strategy line: "MachineDeployment strategy RollingUpdate maxUnavailable=0 (default), …". */
  strategy: string;
  /** New machines without infrastructure past provisioningMinutes, oldest first. */
  waiting: KubeObject[];
}

/**
 * A KubeadmControlPlane or
 * MachineDeployment with a rollout owed, not paused, whose strategy creates a machine first
 * (MachineDeployment RollingUpdate `maxUnavailable` 0 — the default — KubeadmControlPlane `maxSurge` ≥ 1,
 * the default 1; MD `spec.rollout.strategy` v1beta2, `spec.strategy` v1beta1; KCP `spec.rollout.strategy`
 * v1beta2, `spec.rolloutStrategy` v1beta1), and Machines of it, not being deleted, without a Node and
 * without provisioned infrastructure for `provisioningMinutes`: the provider could not create one more VM.
 */
export function findCapacityBlock(ctx: AnalysisContext, kind: RolloutKind, o: KubeObject): CapacityBlock | undefined {
  if (readPaused(o).paused || !isRolloutPending(ctx.snapshot, kind, o)) return undefined;
  const strategy = surgeFirstStrategy(kind, o);
  if (!strategy) return undefined;
  const waiting = findOwnedMachines(ctx.snapshot, kind, o)
    .filter((m) => {
      const i = machineInfo(m);
      const age = ageMinutes(m.metadata.creationTimestamp, ctx.now);
      return (
        !i.deleting && !i.nodeName && !i.infraReady && age !== undefined && age >= ctx.thresholds.provisioningMinutes
      );
    })
    .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
  return waiting.length ? { strategy, waiting } : undefined;
}

/**
 * The strategy line when no old machine may go before a new one is up; undefined otherwise (OnDelete, maxUnavailable >
 * 0, KCP maxSurge 0).
 */
function surgeFirstStrategy(kind: RolloutKind, o: KubeObject): string | undefined {
  const spec = o.spec ?? {};
  const isZero = (v: unknown) => v === 0 || v === '0' || v === '0%';
  if (kind === 'MachineDeployment') {
    const strategy = spec.rollout?.strategy ?? spec.strategy ?? {};
    if (strategy.type && strategy.type !== 'RollingUpdate') return undefined; // OnDelete: a person deletes old machines
    const ru = strategy.rollingUpdate ?? {};
    const mu = ru.maxUnavailable ?? 0;
    if (!isZero(mu)) return undefined;
    return `MachineDeployment strategy RollingUpdate maxUnavailable=${mu}${ru.maxUnavailable === undefined ? ' (default)' : ''}, maxSurge=${ru.maxSurge ?? 1}${ru.maxSurge === undefined ? ' (default)' : ''}: no old machine is deleted before a new one is Ready`;
  }
  const ru = spec.rollout?.strategy?.rollingUpdate ?? spec.rolloutStrategy?.rollingUpdate ?? {};
  const ms = ru.maxSurge ?? 1;
  if (isZero(ms)) return undefined;
  return `KubeadmControlPlane rollout maxSurge=${ms}${ru.maxSurge === undefined ? ' (default)' : ''}: a new control-plane machine must join before an old one is removed`;
}
