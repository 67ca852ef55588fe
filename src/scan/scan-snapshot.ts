import type { Snapshot } from '../cluster/snapshot.js';
import type { Thresholds } from '../config/config-schema.js';
import type { Analyzer } from '../diagnose/analyzer.js';
import { analyzeSnapshot } from '../diagnose/analyze-snapshot.js';
import { ANALYZERS } from '../diagnose/analyzers/index.js';
import type { History } from '../diagnose/history.js';
import { recordScan } from '../diagnose/record-scan.js';
import { buildReport } from '../report/build-report.js';
import type { Report } from '../report/report.js';
import { stampFirstSeen } from './stamp-first-seen.js';

/** Options of {@link scanSnapshot}. */
export interface ScanSnapshotOptions {
  history: History;
  thresholds: Thresholds;
  /** Analysis time; default the snapshot's collectedAt (docs/design.md: --now, else collectedAt). */
  now?: Date;
  /** Report time (when this scan ran); default the wall clock. */
  generatedAt?: Date;
  analyzers?: readonly Analyzer[];
}

/**
 * One scan of a snapshot, in order: 1. load the cluster's History (earlier scans); 2. analyze (pure:
 * diagnose/analyze-snapshot.ts over the analyzer registry); 3. append this scan's record to the
 * History; 4. build the report (report/build-report.ts). The History is the only I/O, injected:
 * in-memory for `check --from` replays, Redis for the bot. diagnose/ itself does no I/O and knows
 * nothing of reports; this use-case is where the two meet.
 */
export async function scanSnapshot(snapshot: Snapshot, opts: ScanSnapshotOptions): Promise<Report> {
  const captured = validDate(snapshot.collectedAt);
  const now = opts.now ?? captured ?? new Date();
  // Without --now and without any capture time, `now` is only the wall clock: say so (defect class 8).
  const timeUnknown = !opts.now && !captured;
  const history = await opts.history.load(snapshot.cluster);
  const result = analyzeSnapshot(snapshot, opts.analyzers ?? ANALYZERS, {
    history,
    thresholds: opts.thresholds,
    now,
    timeUnknown,
  });
  await opts.history.append(snapshot.cluster, recordScan(snapshot, result.findings, now));
  return buildReport(
    snapshot,
    { ...result, findings: stampFirstSeen(result.findings, history, now) },
    { generatedAt: opts.generatedAt ?? new Date() },
  );
}

function validDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
