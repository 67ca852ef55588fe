import type { Snapshot } from '../cluster/snapshot.js';
import type { Thresholds } from '../config/config-schema.js';
import { buildReport } from '../report/build-report.js';
import type { Report } from '../report/report.js';
import type { Analyzer } from './analyzer.js';
import { analyzeSnapshot } from './analyze-snapshot.js';
import { ANALYZERS } from './analyzers/index.js';
import type { History } from './history.js';
import { recordScan } from './record-scan.js';

export interface DiagnoseOptions {
  history: History;
  thresholds: Thresholds;
  /** Analysis time; default the snapshot's collectedAt (DESIGN.md: --now, else collectedAt). */
  now?: Date;
  /** Report time (when this scan ran); default the wall clock. */
  generatedAt?: Date;
  analyzers?: readonly Analyzer[];
}

/**
 * Snapshot → Report, with history: load earlier scans, analyze, record this scan.
 * The only I/O is through the injected History.
 */
export async function diagnoseSnapshot(snapshot: Snapshot, opts: DiagnoseOptions): Promise<Report> {
  const captured = validDate(snapshot.collectedAt);
  const now = opts.now ?? captured ?? new Date();
  // Without --now and without any capture time, `now` is only the wall clock: say so (issue 13, 8).
  const timeUnknown = !opts.now && !captured;
  const history = await opts.history.load(snapshot.cluster);
  const result = analyzeSnapshot(snapshot, opts.analyzers ?? ANALYZERS, { history, thresholds: opts.thresholds, now, timeUnknown });
  await opts.history.append(snapshot.cluster, recordScan(snapshot, result.findings, now));
  return buildReport(snapshot, result, { generatedAt: opts.generatedAt ?? new Date() });
}

function validDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
