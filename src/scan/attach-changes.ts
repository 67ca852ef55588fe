import type { Snapshot } from '../cluster/snapshot.js';
import type { ChangesSinceHealthy } from '../diagnose/changes/cluster-fingerprint.js';
import { diffFingerprints } from '../diagnose/changes/diff-fingerprints.js';
import { fingerprintSnapshot } from '../diagnose/changes/fingerprint-snapshot.js';
import { isHealthyBaseline } from '../report/is-healthy-baseline.js';
import type { Report } from '../report/report.js';
import type { BaselineStore } from '../store/baseline-store.js';

/** Changes listed in a report; the rest are counted (`more`). */
export const MAX_LISTED_CHANGES = 25;

/**
 * "What changed": after a scan is diagnosed, a healthy report (report/is-healthy-baseline.ts)
 * becomes the cluster's new baseline fingerprint; a report that is not healthy gets
 * `changedSinceHealthy` — the ranked diff against the last baseline, when there is one — and that
 * observation is recorded for the incident timeline. The diff itself is pure (diagnose/changes/); this is
 * the scan caller's step, so diagnose/ stays free of I/O. The time of a fingerprint is the capture time.
 */
export async function attachChanges(report: Report, snapshot: Snapshot, store: BaselineStore): Promise<Report> {
  const at = report.collectedAt || report.generatedAt;
  const current = fingerprintSnapshot(snapshot, at);
  if (isHealthyBaseline(report)) {
    await store.save(report.cluster, current);
    return report;
  }
  const baseline = await store.load(report.cluster);
  // no healthy scan yet, or a replay older than it
  if (!baseline || Date.parse(baseline.at) > Date.parse(at)) return report;
  const all = diffFingerprints(baseline, current, report.findings);
  const changed: ChangesSinceHealthy = { baselineAt: baseline.at, changes: all.slice(0, MAX_LISTED_CHANGES) };
  if (all.length > MAX_LISTED_CHANGES) changed.more = all.length - MAX_LISTED_CHANGES;
  await store.recordChanges(report.cluster, { at, ...changed });
  return { ...report, changedSinceHealthy: changed };
}
