import type { Finding, Severity } from '../diagnose/finding.js';

/**
 * Alert incidents and their changes, as structured data: what alerts/ stores in Redis and
 * hands to an adapter (slack/render/render-alert.ts words and posts them). Nothing here is display text;
 * every string that came from a cluster stays raw and is neutralized by whoever shows it.
 *
 * An incident is "the thing a thread is about": one root cause. Findings linked by
 * `causedBy` share the incident of their deepest alerting cause: it is the incident's `finding`, its
 * symptoms are `symptoms` (current) and announced as `related` changes with `relation: 'symptom'`.
 * A finding without a known cause is its own root. An incident of a finding that later turns out to
 * be a symptom is closed into its cause's thread (`merged`), so there are never more open threads
 * than root causes.
 */

/** Why an incident changed (several may apply to one scan; they share one reply). */
export type AlertChangeKind =
  'opened' | 'reopened' | 'severity' | 'evidence' | 'related' | 'recreation' | 'resolved' | 'merged' | 'paused';

/** Another finding linked to the incident's by `causedBy`: a symptom of it, or a cause it names. */
export interface RelatedFinding {
  fingerprint: string;
  id: string;
  title: string;
  severity: Severity;
  /** `symptom`: that finding names this one as its cause; `cause`: this one names that finding. */
  relation: 'symptom' | 'cause';
  /** When the problem started, if the finding knows (Finding.since). */
  since?: string;
}

/** What changed, as data, one entry per kind (in the order of `kinds`, `opened` has none). */
export type AlertChangeDetail =
  /** Back within the flap window: the same thread reopens, `resolvedForMs` after its resolution. */
  | { kind: 'reopened'; resolvedForMs: number }
  | { kind: 'severity'; from: Severity; to: Severity }
  /** capi.recreation-loop counted more machine replacements. */
  | { kind: 'recreation'; from: number; to: number }
  /** Evidence lines not seen before (relative ages ignored when comparing), at most a few; `more` were left out. */
  | { kind: 'evidence'; lines: string[]; more: number }
  | { kind: 'related'; findings: RelatedFinding[] }
  /** Not seen (as warning or critical) in `missedScans` consecutive scans. */
  /**
   * Fleet mode (docs/fleet.md): `cluster-deleted`: its Cluster object left the fleet; `cluster-renamed`:
   * the cluster goes on under the name `renamedTo` (raw: a name from the cluster), its alerts with it.
   */
  | {
      kind: 'resolved';
      missedScans: number;
      lastSeenAt: string;
      lastedMs: number;
      reason?: 'cluster-deleted' | 'cluster-renamed';
      renamedTo?: string;
    }
  /**
   * The finding turned out to be a symptom of another root cause: followed in that thread from now on (this one is
   * closed).
   */
  | { kind: 'merged'; into: string; id: string; title: string }
  /**
   * Reminder: remediation is still paused for a MachineHealthCheck (capi.remediation-paused
   * is this root cause or one of its symptoms), at most every `pausedReminderHours`. `resume` is the
   * label of the resume fix when the bot paused it (else the annotation is removed by hand).
   */
  | { kind: 'paused'; mhc: string; since?: string; resume?: string };

/** One change of an incident, posted once as a thread reply (or, for `opened`, as the parent). */
export interface AlertChange {
  /** Per-cluster sequence number, strictly increasing: notify job ids and "posted up to" marks use it. */
  seq: number;
  kinds: AlertChangeKind[];
  /** Scan time (the report's collectedAt) of the change. */
  at: string;
  /**
   * What changed, as data. Empty for `opened`, and for a change stored by an older version (its
   * Slack text was dropped when the state was read: alerts/migrate-alert-state.ts).
   */
  details: AlertChangeDetail[];
}

/** One incident of one finding fingerprint: what its thread shows. */
export interface Incident {
  cluster: string;
  fingerprint: string;
  /**
   * Thread key: `<fingerprint>.<seq of its opening>`; a finding back after the flap window gets a new key (new thread).
   */
  key: string;
  /** Where it is announced (the cluster's slack.alertChannel). */
  channel: string;
  status: 'open' | 'resolved';
  /** Scan time the incident was opened (or reopened after the flap window). */
  openedAt: string;
  lastSeenAt: string;
  resolvedAt?: string;
  /** Consecutive scans without the finding (resolution after scan.resolveAfterScans). */
  missedScans: number;
  /** The finding as last seen. */
  finding: Finding;
  /** Highest severity shown so far (informational; severity changes compare with finding.severity). */
  severity: Severity;
  /** Evidence lines already shown (normalised: relative ages stripped), so only new ones are replied. */
  evidenceSeen: string[];
  /** Fingerprints of related findings already announced for this incident. */
  related: string[];
  /** The root cause's symptoms seen in the latest scan (alerting findings whose cause chain ends here), by severity. */
  symptoms?: RelatedFinding[];
  /** Scan time of the last "remediation still paused" reminder (or of the first scan that saw the pause). */
  pausedRemindedAt?: string;
  /** `merged`: the root cause's fingerprint whose thread follows this finding now. */
  mergedInto?: string;
  /** capi.recreation-loop: replacements counted so far. */
  recreations?: number;
  /** Seq of the newest change (0 = none). */
  seq: number;
  /** Recent changes, oldest first (bounded; the parent always shows the current state anyway). */
  changes: AlertChange[];
}

/** Alert state of one cluster: every open or recently resolved incident, by fingerprint. */
export interface ClusterAlertState {
  /** Scan time of the newest scan applied; older scans (out of order) are ignored. */
  lastScanAt?: string;
  /** Last seq handed out in this cluster. */
  seq: number;
  incidents: Record<string, Incident>;
}

export const EMPTY_ALERT_STATE: ClusterAlertState = { seq: 0, incidents: {} };
