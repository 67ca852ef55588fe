import type { Finding, SectionId } from '../diagnose/finding.js';
import type { PartialEntry } from '../cluster/snapshot.js';
import type { ChangesSinceHealthy } from '../diagnose/changes/cluster-fingerprint.js';

export type HealthStatus = 'healthy' | 'degraded' | 'critical' | 'unknown';

export interface SectionSummary {
  id: SectionId;
  status: HealthStatus;
  /** One line with counts, e.g. "2 of 3 control-plane nodes Ready". */
  summary: string;
}

/**
 * The JSON report (docs/design.md "Interfaces"): `{ cluster, generatedAt, status, sections, findings, partial }`.
 * `collectedAt` (when the data was read) is extra, so every consumer can show the data's age.
 */
export interface Report {
  cluster: string;
  generatedAt: string;
  /** When the data was captured; '' when unknown (collectedAtFrom 'unknown', rendered as null in JSON). */
  collectedAt: string;
  /**
   * How collectedAt is known (Snapshot.collectedAtFrom): absent = recorded, `data` = inferred from the data, `unknown`.
   */
  collectedAtFrom?: 'data' | 'unknown';
  status: HealthStatus;
  sections: SectionSummary[];
  findings: Finding[];
  partial: PartialEntry[];
  /**
   * What changed since the last healthy scan of this cluster (webhook configurations, CRDs,
   * workload images and replicas, Nodes and Machines replaced, …), ranked by closeness to what fails now.
   * Set by the scan caller (jobs/attach-changes.ts) on a report that is not healthy when a baseline exists.
   */
  changedSinceHealthy?: ChangesSinceHealthy;
}
