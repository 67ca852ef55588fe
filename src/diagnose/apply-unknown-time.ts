import type { FindingDraft } from './analyzer.js';
import type { FindingId } from './finding.js';

/**
 * Findings whose verdict rests on how long something has lasted (a NotReady grace, a provisioning or
 * deletion timeout, a recreation window, a pod's grace period, an upgrade's progress deadline).
 */
export const TIME_BASED_IDS: ReadonlySet<FindingId> = new Set<FindingId>([
  'node.not-ready',
  'node.cni-not-initialized',
  'cni.pod-not-running',
  'pod.stuck-terminating',
  'volume.multi-attach',
  'capi.machine-stuck-provisioning',
  'capi.machine-stuck-deleting',
  'capi.recreation-loop',
  'capi.mhc-unhealthy',
  'upgrade.stuck',
  // A blocker is named only once its stage has lasted deletingMinutes / provisioningMinutes; on a
  // capture of unknown time that is a guess, and skip-drain / skip-volume-detach must then not be proposed.
  'capi.drain-blocked',
  'capi.deletion-hook-pending',
  'capi.volume-detach-pending',
  'capi.rollout-blocked',
]);

export const UNKNOWN_TIME_MISSING =
  'capture time unknown (no meta.json and no timestamp in the data): how long this has lasted is not known';

/**
 * Defect class 8: on a capture whose time is unknown (no meta.json, not one timestamp in
 * the data, no --now) the analysis clock is only the wall clock, so every age measured against it
 * is a guess. A time-based finding then says so in `missing`, is of low confidence, is never
 * critical, and proposes no fix (never a write on missing evidence). Other findings are untouched.
 */
export function applyUnknownTime(draft: FindingDraft): FindingDraft {
  if (!TIME_BASED_IDS.has(draft.id)) return draft;
  return {
    ...draft,
    severity: draft.severity === 'critical' ? 'warning' : draft.severity,
    missing: [...(draft.missing ?? []), UNKNOWN_TIME_MISSING],
    confidence: 'low',
    remediations: [],
  };
}
