import type { CollectOptions } from '../cluster/collect-snapshot.js';
import { readSnapshot } from '../cluster/read-snapshot.js';
import type { ClusterConfig, Thresholds } from '../config/config-schema.js';
import { diagnoseSnapshot } from '../diagnose/diagnose-snapshot.js';
import type { History } from '../diagnose/history.js';
import type { Report } from '../report/report.js';
import type { BaselineStore } from '../store/baseline-store.js';
import { attachChanges } from './attach-changes.js';

export interface ScanDeps {
  history: History;
  /** Issue 18: keep the last healthy fingerprint and add "changed since last healthy" (absent: not tracked). */
  baselines?: BaselineStore;
  thresholds: Thresholds;
  /** Wall clock (report generatedAt, live collectedAt). */
  now?: () => Date;
  collect?: CollectOptions;
  /** Analysis time (`check --now`); default: when the snapshot was collected. */
  analysisTime?: Date;
}

/**
 * One scan of one configured cluster: read it (dump re-read every time, or live), diagnose with
 * history, return the report. Storing and notifying are the caller's job (CLI prints, the bot stores).
 */
export async function scanCluster(cluster: ClusterConfig, deps: ScanDeps): Promise<Report> {
  const clock = deps.now ?? (() => new Date());
  const snapshot = await readSnapshot(cluster, { ...deps.collect, now: clock });
  // A live snapshot is analyzed at the time it was read; a dump at the time it was taken.
  const report = await diagnoseSnapshot(snapshot, { history: deps.history, thresholds: deps.thresholds, now: deps.analysisTime, generatedAt: clock() });
  return deps.baselines ? attachChanges(report, snapshot, deps.baselines) : report;
}
