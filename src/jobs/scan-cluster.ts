import type { CollectOptions } from '../cluster/live/collect-snapshot.js';
import { readSnapshot } from '../cluster/read-snapshot.js';
import type { ClusterConfig, Thresholds } from '../config/config-schema.js';
import { diagnoseSnapshot } from '../diagnose/diagnose-snapshot.js';
import type { History } from '../diagnose/history.js';
import type { Report } from '../report/report.js';

export interface ScanDeps {
  history: History;
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
  return diagnoseSnapshot(snapshot, { history: deps.history, thresholds: deps.thresholds, now: deps.analysisTime, generatedAt: clock() });
}
