import type { Snapshot } from '../cluster/snapshot.js';
import type { Thresholds } from '../config/config-schema.js';
import type { Finding, FindingId } from './finding.js';
import type { HistoryView } from './history.js';

/** Everything an analyzer may look at. No I/O: analyzers are pure functions of this. */
export interface AnalysisContext {
  snapshot: Snapshot;
  history: HistoryView;
  thresholds: Thresholds;
  /** Analysis time (`--now`, else the snapshot's collectedAt, else the clock). */
  now: Date;
  /**
   * True when `now` is only the wall clock because the capture's time is unknown (no --now, no
   * meta.json, no timestamp in the data: Snapshot.collectedAtFrom 'unknown'). Ages measured against
   * it are guesses: the engine marks time-based findings (apply-unknown-time.ts).
   */
  timeUnknown?: boolean;
}

/** A finding before the engine stamps its fingerprint. */
export type FindingDraft = Omit<Finding, 'fingerprint' | 'confidence'> & {
  fingerprint?: string;
  confidence?: Finding['confidence'];
};

export interface Analyzer {
  /** The finding id it produces (one analyzer per id, one file each: analyzers/<id with dots as dashes>.ts). */
  id: FindingId;
  analyze(ctx: AnalysisContext): FindingDraft[];
}
