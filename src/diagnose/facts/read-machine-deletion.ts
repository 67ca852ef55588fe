import type { KubeObject } from '../../cluster/snapshot.js';
import { findCondition, type Condition } from './find-condition.js';
import { parseGoDuration } from './parse-go-duration.js';

/**
 * Annotation prefixes of Machine deletion lifecycle hooks (kubernetes-sigs/cluster-api
 * api/core/v1beta2/machine_types.go).
 */
export const PRE_DRAIN_HOOK_PREFIX = 'pre-drain.delete.hook.machine.cluster.x-k8s.io';
export const PRE_TERMINATE_HOOK_PREFIX = 'pre-terminate.delete.hook.machine.cluster.x-k8s.io';
/** KubeadmControlPlane's own pre-terminate hook: KCP removes the etcd member, then this annotation. */
export const KCP_CLEANUP_HOOK = `${PRE_TERMINATE_HOOK_PREFIX}/kcp-cleanup`;
/** Machine annotations that make Cluster API skip the drain / the wait for volume detach. */
export const EXCLUDE_NODE_DRAINING = 'machine.cluster.x-k8s.io/exclude-node-draining';
export const EXCLUDE_WAIT_FOR_VOLUME_DETACH = 'machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach';

/**
 * The stages of a Machine deletion Cluster API goes through, in order (CAPI book "Machine deletion
 * process"); the names are the v1beta2 `Deleting` condition reasons.
 */
export type DeletionStage =
  | 'WaitingForPreDrainHook'
  | 'DrainingNode'
  | 'WaitingForVolumeDetach'
  | 'WaitingForPreTerminateHook'
  | 'WaitingForInfrastructureDeletion'
  | 'WaitingForBootstrapDeletion'
  | 'DeletingNode'
  | 'Other';

/** One lifecycle hook annotation: `<prefix>/<name>: <owner>`. */
export interface DeletionHook {
  annotation: string;
  name: string;
  /** The annotation's value: by convention who set the hook (a controller, a person); '' when not said. */
  owner: string;
  point: 'pre-drain' | 'pre-terminate';
}

/** A Machine's deletion as Cluster API reports it, v1beta2 first, v1beta1 as the fallback. */
export interface MachineDeletion {
  /** metadata.deletionTimestamp (undefined: not being deleted). */
  since?: string;
  /** The stage it waits in, when the Machine says so (conditions, or the start times of status.deletion). */
  stage?: DeletionStage;
  /** Where `stage` was read: "condition Deleting reason=DrainingNode", "condition DrainingSucceeded=False", … */
  stageSource?: string;
  /** The condition text describing the stage (v1beta2 Deleting message, else the v1beta1 stage condition's). */
  message?: string;
  /** status.deletion start times (v1beta1 since CAPI v1.4/v1.5, v1beta2); waitFor*Hook ones since v1.12. */
  drainStartTime?: string;
  volumeDetachStartTime?: string;
  preDrainHookStartTime?: string;
  preTerminateHookStartTime?: string;
  preDrainHooks: DeletionHook[];
  preTerminateHooks: DeletionHook[];
  excludeNodeDraining: boolean;
  excludeWaitForVolumeDetach: boolean;
  /**
   * Machine-level timeouts in seconds (v1beta1 spec.nodeDrainTimeout "5m", v1beta2
   * spec.deletion.nodeDrainTimeoutSeconds); 0 or absent = none.
   */
  drainTimeoutSeconds?: number;
  volumeDetachTimeoutSeconds?: number;
}

const V1BETA1_STAGES: [string, DeletionStage][] = [
  ['PreDrainDeleteHookSucceeded', 'WaitingForPreDrainHook'],
  ['DrainingSucceeded', 'DrainingNode'],
  ['VolumeDetachSucceeded', 'WaitingForVolumeDetach'],
  ['PreTerminateDeleteHookSucceeded', 'WaitingForPreTerminateHook'],
];

const KNOWN: readonly string[] = [
  'WaitingForPreDrainHook',
  'DrainingNode',
  'WaitingForVolumeDetach',
  'WaitingForPreTerminateHook',
  'WaitingForInfrastructureDeletion',
  'WaitingForBootstrapDeletion',
  'DeletingNode',
];

/**
 * Read where a Machine's deletion stands. The stage comes from, in order: the v1beta2 `Deleting`
 * condition's reason (CAPI v1.9+ sets it on every deleting Machine); the first v1beta1 stage condition
 * that is False (PreDrainDeleteHookSucceeded, DrainingSucceeded, VolumeDetachSucceeded,
 * PreTerminateDeleteHookSucceeded); pre-drain hook annotations (Cluster API waits for those before
 * anything else); the latest `status.deletion` start time. Pure; every field may be absent.
 */
export function readMachineDeletion(m: KubeObject): MachineDeletion {
  const annotations = m.metadata.annotations ?? {};
  const hooks = (prefix: string, point: DeletionHook['point']) =>
    Object.entries(annotations)
      .filter(([k]) => k.startsWith(`${prefix}/`))
      .map(([annotation, owner]) => ({ annotation, name: annotation.slice(prefix.length + 1), owner, point }))
      .sort((a, b) => a.annotation.localeCompare(b.annotation));
  const del = m.status?.deletion && typeof m.status.deletion === 'object' ? m.status.deletion : {};
  const time = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const out: MachineDeletion = {
    preDrainHooks: hooks(PRE_DRAIN_HOOK_PREFIX, 'pre-drain'),
    preTerminateHooks: hooks(PRE_TERMINATE_HOOK_PREFIX, 'pre-terminate'),
    excludeNodeDraining: EXCLUDE_NODE_DRAINING in annotations,
    excludeWaitForVolumeDetach: EXCLUDE_WAIT_FOR_VOLUME_DETACH in annotations,
  };
  const set = <K extends keyof MachineDeletion>(k: K, v: MachineDeletion[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('since', m.metadata.deletionTimestamp);
  set('drainStartTime', time(del.nodeDrainStartTime));
  set('volumeDetachStartTime', time(del.waitForNodeVolumeDetachStartTime));
  set('preDrainHookStartTime', time(del.waitForPreDrainHookStartTime));
  set('preTerminateHookStartTime', time(del.waitForPreTerminateHookStartTime));
  const spec = m.spec ?? {};
  set(
    'drainTimeoutSeconds',
    positive(parseGoDuration(spec.deletion?.nodeDrainTimeoutSeconds ?? spec.nodeDrainTimeout)),
  );
  set(
    'volumeDetachTimeoutSeconds',
    positive(parseGoDuration(spec.deletion?.nodeVolumeDetachTimeoutSeconds ?? spec.nodeVolumeDetachTimeout)),
  );
  if (!out.since) return out;

  // Conditions come from the cluster (or a hand-edited dump): only string reasons and messages count.
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const deleting = findCondition(m, 'Deleting');
  const reason = text(deleting?.reason);
  if (deleting?.status === 'True' && reason && reason !== 'Deleting') {
    out.stage = KNOWN.includes(reason) ? (reason as DeletionStage) : 'Other';
    out.stageSource = `condition Deleting reason=${reason}`;
    set('message', text(deleting.message));
    return out;
  }
  for (const [type, stage] of V1BETA1_STAGES) {
    const c: Condition | undefined = findCondition(m, type);
    if (c?.status === 'False') {
      out.stage = stage;
      out.stageSource = `condition ${type}=False${text(c.reason) ? ` reason=${c.reason}` : ''}`;
      set('message', text(c.message));
      return out;
    }
  }
  if (out.preDrainHooks.length) {
    out.stage = 'WaitingForPreDrainHook';
    out.stageSource = `annotation ${out.preDrainHooks[0]!.annotation}`;
    return out;
  }
  const starts: [string | undefined, DeletionStage, string][] = [
    [out.preTerminateHookStartTime, 'WaitingForPreTerminateHook', 'status.deletion.waitForPreTerminateHookStartTime'],
    [out.volumeDetachStartTime, 'WaitingForVolumeDetach', 'status.deletion.waitForNodeVolumeDetachStartTime'],
    [out.drainStartTime, 'DrainingNode', 'status.deletion.nodeDrainStartTime'],
  ];
  const latest = starts.find(([t]) => t);
  if (latest) {
    out.stage = latest[1];
    out.stageSource = `${latest[2]}=${latest[0]}`;
  }
  return out;
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && n > 0 ? n : undefined;
}
