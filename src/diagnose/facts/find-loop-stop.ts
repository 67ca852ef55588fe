import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';
import type { RecreationLoop } from './find-recreation-loops.js';
import { readCapiStatus } from './read-capi-status.js';
import { readMachineHealth } from './read-machine-health.js';

/** Seed 003: machines were recreated "every 10–15 minutes"; without a measured interval, one cycle is the upper end. */
export const DEFAULT_LOOP_CYCLE_MINUTES = 15;
/**
 * A cycle is never shorter than this: the MHC's default nodeStartupTimeout, the least time a new
 * machine needs to be judged. KCP remediates one machine at a time, so creations of a fast churn can
 * be a minute apart while each machine lives longer (the real CAPD quickstart churn: ~2 min apart).
 */
export const MIN_LOOP_CYCLE_MINUTES = 10;

/**
 * Why a recreation loop has stopped, or undefined while it may still be going (defect
 * class 12: the finding must clear once the loop has stopped, not linger for the loop window):
 * - its owner (KubeadmControlPlane / MachineSet) is gone and none of its Machines remain;
 * - its owner is scaled to 0 and none of its Machines remain;
 * - every Machine it has now is Running with a Ready Node, none is being deleted, and the
 *   youngest has been Ready for longer than one cycle (the measured interval between creations,
 *   at least MIN_LOOP_CYCLE_MINUTES, else 15 min) — a loop would have replaced one by now.
 * Judged from the snapshot (and the loop found with the history), so a restarted bot reading the
 * same data decides the same.
 */
export function findLoopStop(snapshot: Snapshot, loop: RecreationLoop, now: Date): string | undefined {
  const { kind, namespace, name } = loop.owner;
  const ownerObj = (
    kind === 'KubeadmControlPlane' ? snapshot.capi.kubeadmControlPlanes : snapshot.capi.machineSets
  ).find((o) => o.metadata?.name === name && (o.metadata?.namespace ?? '') === namespace);
  const owned = snapshot.capi.machines.filter(
    (m) => (m.metadata?.namespace ?? '') === namespace && ownedBy(m, kind, name),
  );
  const label = `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
  if (owned.length === 0) {
    if (!ownerObj) return `${label} is gone and none of its Machines remain`;
    if (readCapiStatus(ownerObj).replicas.desired === 0)
      return `${label} is scaled to 0 and none of its Machines remain`;
    return undefined;
  }
  if (owned.some((m) => m.metadata?.deletionTimestamp)) return undefined;
  const cycle = Math.max(loop.intervalMinutes ?? DEFAULT_LOOP_CYCLE_MINUTES, MIN_LOOP_CYCLE_MINUTES);
  let youngestReady = Infinity;
  for (const m of owned) {
    if (m.status?.phase !== undefined && m.status.phase !== 'Running') return undefined;
    const nodeName = typeof m.status?.nodeRef?.name === 'string' ? m.status.nodeRef.name : undefined;
    if (!nodeName) return undefined;
    const node = snapshot.nodes.find((n) => n.metadata?.name === nodeName);
    const health = readMachineHealth(m, node);
    if (health.status !== 'True') return undefined;
    // Ready since: the Node's (or Machine condition's) last transition, never earlier than creation.
    const since = [health.condition?.lastTransitionTime, m.metadata?.creationTimestamp]
      .map((t) => ageMinutes(t, now))
      .filter((a): a is number => a !== undefined);
    if (!since.length) return undefined;
    youngestReady = Math.min(youngestReady, Math.min(...since));
  }
  if (youngestReady < cycle) return undefined;
  return `every Machine of ${label} (${owned.length}) is Running with a Ready Node, the youngest for ${formatAge(youngestReady * 60000)}, longer than one ${formatAge(cycle * 60000)} cycle`;
}

/** Controller owner reference, else CAPI's naming "<owner>-<5 chars>" (a Machine that lost its reference). */
function ownedBy(m: KubeObject, kind: string, name: string): boolean {
  const refs = Array.isArray(m.metadata?.ownerReferences) ? m.metadata.ownerReferences : [];
  if (refs.some((r) => r?.kind === kind && r?.name === name)) return true;
  if (refs.some((r) => r?.controller)) return false;
  const n = m.metadata?.name ?? '';
  return n.startsWith(`${name}-`) && /^[a-z0-9]{5}$/.test(n.slice(name.length + 1));
}
