import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';
import { findCondition } from './find-condition.js';
import { describeBlockingPdb, findBlockingPdbs, type BlockingPdb } from './find-blocking-pdbs.js';
import { isKindRead } from './is-kind-read.js';
import { machineInfo, type MachineInfo } from './machine-info.js';
import { parseDrainMessage, type DrainMessage } from './parse-drain-message.js';
import {
  KCP_CLEANUP_HOOK,
  readMachineDeletion,
  type DeletionHook,
  type MachineDeletion,
} from './read-machine-deletion.js';

/** The finding a deletion blocker becomes (one per Machine). */
export type DeletionBlockerId = 'capi.drain-blocked' | 'capi.deletion-hook-pending' | 'capi.volume-detach-pending';

/** What holds up one Machine's deletion, named, with its evidence. */
export interface DeletionBlocker {
  id: DeletionBlockerId;
  machine: KubeObject;
  info: MachineInfo;
  deletion: MachineDeletion;
  /** When this stage started (status.deletion start time), else the deletionTimestamp. */
  since?: string;
  /** Minutes in this stage (from `since`). */
  minutes?: number;
  /** One line naming the blocker: "drain of node w1 refused by PodDisruptionBudget shop/db (…)". */
  summary: string;
  evidence: string[];
  missing: string[];
  /**
   * True when the evidence names what blocks (a budget, pods, hooks, attachments): only then a write may be proposed.
   */
  named: boolean;
  pdbs: BlockingPdb[];
  drain?: DrainMessage;
  hooks: DeletionHook[];
  /** VolumeAttachments still attached to the node. */
  attachments: KubeObject[];
}

/** At most this many characters of a condition message are quoted (the pod lists are summarized anyway). */
const MESSAGE_CHARS = 600;

/**
 * Follow one deleting Machine to what holds its deletion, in Cluster API's order: pre-drain
 * hooks, the drain (PodDisruptionBudgets refusing evictions, pods that do not terminate, other eviction
 * errors), the wait for volumes to detach, pre-terminate hooks. Undefined when the Machine is not being
 * deleted, its stage is not one of these, Cluster API was told to skip it (exclude annotations) or the
 * stage's own timeout has expired (Cluster API moves on by itself). Pure.
 */
export function findDeletionBlocker(snapshot: Snapshot, machine: KubeObject, now: Date): DeletionBlocker | undefined {
  const deletion = readMachineDeletion(machine);
  if (!deletion.since || !deletion.stage) return undefined;
  const info = machineInfo(machine);
  const base = {
    machine,
    info,
    deletion,
    evidence: [] as string[],
    missing: [] as string[],
    pdbs: [] as BlockingPdb[],
    hooks: [] as DeletionHook[],
    attachments: [] as KubeObject[],
  };
  const stageLine = `Machine ${info.namespace}/${info.name} deleting since ${deletion.since}: ${deletion.stageSource}`;
  const withTime = (since: string | undefined) => {
    const s = since ?? deletion.since;
    const minutes = ageMinutes(s, now);
    return { ...(s ? { since: s } : {}), ...(minutes !== undefined ? { minutes } : {}) };
  };
  // One evidence line per fact: the condition's lines are joined with " · " (its pod lists are parsed below anyway).
  const quote = (m: string | undefined) => {
    if (!m) return undefined;
    const flat = m.replace(/\s*\n\s*/g, ' · ');
    return `condition message: "${flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS)}…` : flat}"`;
  };

  switch (deletion.stage) {
    case 'WaitingForPreDrainHook':
    case 'WaitingForPreTerminateHook': {
      const pre = deletion.stage === 'WaitingForPreDrainHook';
      const hooks = pre ? deletion.preDrainHooks : deletion.preTerminateHooks;
      const t = withTime(pre ? deletion.preDrainHookStartTime : deletion.preTerminateHookStartTime);
      const evidence = [stageLine, ...hooks.map((h) => describeHook(h, info))];
      const q = quote(deletion.message);
      if (q) evidence.push(q);
      const missing = hooks.length
        ? []
        : [
            `the Machine waits for ${pre ? 'pre-drain' : 'pre-terminate'} hooks but carries no such annotation any more: the next reconcile should move on`,
          ];
      const others = hooks.filter((h) => h.annotation !== KCP_CLEANUP_HOOK);
      const summary = hooks.length
        ? `${pre ? 'pre-drain' : 'pre-terminate'} hook${hooks.length > 1 ? 's' : ''} ${hooks.map((h) => `${h.name} (owner ${ownerOf(h, info)})`).join(', ')} not removed`
        : `waiting for ${pre ? 'pre-drain' : 'pre-terminate'} hooks`;
      if (!pre && others.length && hooks.some((h) => h.annotation === KCP_CLEANUP_HOOK)) {
        evidence.push(
          `KubeadmControlPlane's own kcp-cleanup hook waits for the other pre-terminate hooks before removing the etcd member (Kubernetes ≥ 1.31): ${others.map((h) => h.name).join(', ')} first`,
        );
      }
      return {
        ...base,
        id: 'capi.deletion-hook-pending',
        ...t,
        summary,
        evidence,
        missing,
        named: hooks.length > 0,
        hooks,
      };
    }
    case 'DrainingNode': {
      if (deletion.excludeNodeDraining) return undefined;
      const t = withTime(deletion.drainStartTime);
      if (timedOut(deletion.drainTimeoutSeconds, t.minutes)) return undefined;
      const drain = parseDrainMessage(deletion.message);
      const node = info.nodeName;
      const evidence = [stageLine];
      const missing: string[] = [];
      if (node) {
        const n = snapshot.nodes.find((x) => x.metadata.name === node);
        if (n?.spec?.unschedulable === true) evidence.push(`node ${node} is cordoned (spec.unschedulable: true)`);
        const ready = findCondition(n, 'Ready');
        if (ready && ready.status === 'Unknown')
          evidence.push(
            `node ${node} is unreachable (Ready=Unknown): Cluster API evicts with a 1 s grace period and ignores pods deleted more than 1 s ago; PodDisruptionBudgets are still honoured`,
          );
      }
      const q = quote(deletion.message);
      if (q) evidence.push(q);
      // Budgets: the ones the condition names, and the ones the snapshot shows allowing 0 disruptions of pods on the
      // node.
      const pdbs = node ? findBlockingPdbs(snapshot, node) : [];
      for (const r of drain.refusals) {
        const known = pdbs.find((p) => p.name === r.budget);
        const detail = r.needs !== undefined ? ` (needs ${r.needs} healthy pods, has ${r.has})` : '';
        evidence.push(
          `eviction refused by PodDisruptionBudget ${known ? `${known.namespace}/` : ''}${r.budget}${detail}: ${r.pods.join(', ')}${r.morePods ? ` (+${r.morePods} more)` : ''}`,
        );
      }
      for (const p of pdbs) evidence.push(describeBlockingPdb(p, node!));
      if (drain.terminating.length)
        evidence.push(`evicted (deletionTimestamp set) but still on the node: ${drain.terminating.join(', ')}`);
      for (const e of drain.evictionErrors) evidence.push(`eviction failed for ${e.pods.join(', ')}: ${e.error}`);
      if (drain.waitCompleted.length)
        evidence.push(`waiting for pods to complete (drain=wait-completed): ${drain.waitCompleted.join(', ')}`);
      const pdbRead = isKindRead(snapshot, 'PodDisruptionBudget', snapshot.podDisruptionBudgets);
      const podsRead = isKindRead(snapshot, 'Pod', snapshot.pods);
      if (!pdbRead)
        missing.push(
          drain.refusals.length
            ? "PodDisruptionBudgets not read: the budgets are named from the Machine's condition only"
            : 'PodDisruptionBudgets not read: whether a budget refuses the evictions is not known',
        );
      if (!podsRead)
        missing.push(
          `pods of node ${node ?? '?'} not read (workload cluster): which pods hold the drain comes from the Machine's condition only`,
        );
      // Budgets by namespace/name when the snapshot holds them, else by the bare name the condition quotes.
      const budgets = [
        ...new Set([
          ...pdbs.map((p) => `${p.namespace}/${p.name}`),
          ...drain.refusals.filter((r) => !pdbs.some((p) => p.name === r.budget)).map((r) => r.budget),
        ]),
      ];
      const named =
        budgets.length > 0 ||
        drain.terminating.length > 0 ||
        drain.evictionErrors.length > 0 ||
        drain.waitCompleted.length > 0;
      if (!named)
        missing.push(
          `neither the Machine's condition nor the snapshot names what holds the drain of node ${node ?? '?'}`,
        );
      const summary = budgets.length
        ? `drain of node ${node ?? '?'} refused by PodDisruptionBudget ${budgets.join(', ')}`
        : drain.terminating.length
          ? `drain of node ${node ?? '?'} waits for pods that do not terminate: ${drain.terminating.slice(0, 3).join(', ')}`
          : drain.evictionErrors.length
            ? `drain of node ${node ?? '?'}: evictions fail (${drain.evictionErrors[0]!.error})`
            : drain.waitCompleted.length
              ? `drain of node ${node ?? '?'} waits for pods to complete: ${drain.waitCompleted.slice(0, 3).join(', ')}`
              : `drain of node ${node ?? '?'} does not complete`;
      return { ...base, id: 'capi.drain-blocked', ...t, summary, evidence, missing, named, pdbs, drain };
    }
    case 'WaitingForVolumeDetach': {
      if (deletion.excludeWaitForVolumeDetach) return undefined;
      const t = withTime(deletion.volumeDetachStartTime);
      if (timedOut(deletion.volumeDetachTimeoutSeconds, t.minutes)) return undefined;
      const node = info.nodeName;
      const evidence = [stageLine];
      const q = quote(deletion.message);
      if (q) evidence.push(q);
      const attachments = node
        ? snapshot.volumeAttachments.filter((va) => va.spec?.nodeName === node && va.status?.attached === true)
        : [];
      for (const va of attachments) {
        const pv = va.spec?.source?.persistentVolumeName;
        const pvc = pv ? snapshot.persistentVolumeClaims.find((c) => c.spec?.volumeName === pv) : undefined;
        const err = va.status?.detachError?.message;
        evidence.push(
          `VolumeAttachment ${va.metadata.name}: ${va.spec?.attacher ?? '?'} volume ${pv ?? '?'}${pvc ? ` (PVC ${pvc.metadata.namespace}/${pvc.metadata.name})` : ''} still attached to node ${node}${err ? `, detachError "${err}"` : ''}`,
        );
      }
      const n = node ? snapshot.nodes.find((x) => x.metadata.name === node) : undefined;
      const attached = Array.isArray(n?.status?.volumesAttached)
        ? n.status.volumesAttached.map((v: { name?: string }) => v?.name).filter(Boolean)
        : [];
      if (attached.length) evidence.push(`node ${node} status.volumesAttached: ${attached.join(', ')}`);
      const missing: string[] = [];
      if (!isKindRead(snapshot, 'VolumeAttachment', snapshot.volumeAttachments))
        missing.push(
          "VolumeAttachments not read: which volumes are still attached comes from the Machine's condition only",
        );
      const named = attachments.length > 0 || attached.length > 0 || /PersistentVolume/.test(deletion.message ?? '');
      if (!named)
        missing.push(
          `no VolumeAttachment or volumesAttached entry of node ${node ?? '?'} names the volume it waits for`,
        );
      const summary = attachments.length
        ? `volume${attachments.length > 1 ? 's' : ''} ${attachments.map((a) => a.spec?.source?.persistentVolumeName ?? a.metadata.name).join(', ')} still attached to node ${node}`
        : `waiting for volumes to detach from node ${node ?? '?'}`;
      return { ...base, id: 'capi.volume-detach-pending', ...t, summary, evidence, missing, named, attachments };
    }
    default:
      return undefined;
  }
}

/** Cluster API gives up this stage by itself once its timeout has passed. */
function timedOut(timeoutSeconds: number | undefined, minutes: number | undefined): boolean {
  return timeoutSeconds !== undefined && minutes !== undefined && minutes * 60 >= timeoutSeconds;
}

/** Who owns a hook: its annotation value, KCP for its own cleanup hook, else "not said". */
export function ownerOf(h: DeletionHook, info: MachineInfo): string {
  if (h.annotation === KCP_CLEANUP_HOOK) return `KubeadmControlPlane ${info.kcpName ?? '?'}`;
  return h.owner || 'not said (empty annotation value)';
}

function describeHook(h: DeletionHook, info: MachineInfo): string {
  const what =
    h.annotation === KCP_CLEANUP_HOOK
      ? ' — KubeadmControlPlane removes the etcd member of this machine, then this hook'
      : '';
  return `annotation ${h.annotation}: "${h.owner}" (hook ${h.name}, owner ${ownerOf(h, info)})${what}`;
}

/** "12m" / "2h5m" for a blocker's time in its stage. */
export function describeStageAge(b: DeletionBlocker): string {
  return b.minutes === undefined ? 'for an unknown time' : `for ${formatAge(b.minutes * 60000)}`;
}
