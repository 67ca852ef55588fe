import type { CollectOptions } from '../cluster/live/collect-snapshot.js';
import { readSnapshot } from '../cluster/read-snapshot.js';
import type { ClusterConfig, Thresholds } from '../config/config-schema.js';
import type { History } from '../diagnose/history.js';
import type { Report } from '../report/report.js';
import type { BaselineStore } from '../store/baseline-store.js';
import { attachChanges } from './attach-changes.js';
import { scanSnapshot } from './scan-snapshot.js';

export interface ScanDeps {
  history: History;
  /** Keep the last healthy fingerprint and add "changed since last healthy" (absent: not tracked). */
  baselines?: BaselineStore;
  thresholds: Thresholds;
  /** Wall clock (report generatedAt, live collectedAt). */
  now?: () => Date;
  collect?: CollectOptions;
  /** Analysis time (`check --now`); default: when the snapshot was collected. */
  analysisTime?: Date;
}

/**
 * One scan of one configured cluster: read it (cluster/read-snapshot.ts: a dump re-read every time,
 * or live), then scanSnapshot (history, analysis, report). Storing and alerting are the caller's job
 * (the CLI prints, the scan job stores and hands the report to alerts/).
 */
export async function scanCluster(cluster: ClusterConfig, deps: ScanDeps): Promise<Report> {
  const clock = deps.now ?? (() => new Date());
  const snapshot = await readSnapshot(cluster, { ...deps.collect, now: clock });
  // A live snapshot is analyzed at the time it was read; a dump at the time it was taken.
  const report = await scanSnapshot(snapshot, {
    history: deps.history,
    thresholds: deps.thresholds,
    now: deps.analysisTime,
    generatedAt: clock(),
  });
  return deps.baselines ? attachChanges(report, snapshot, deps.baselines) : report;
}
