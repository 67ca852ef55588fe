import type { ScanRecord } from '../diagnose/history.js';

/** How much history a store keeps per cluster. */
export interface HistoryRetention {
  /** Records older than this, relative to the newest record's `at`, are dropped. Default 180. */
  retentionMinutes: number;
  /** At most this many records (the newest). Default 500. */
  maxScans: number;
}

export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { retentionMinutes: 180, maxScans: 500 };

/**
 * The records to keep, oldest first. Age is measured against the newest record's `at`, not the
 * wall clock, so replaying old dumps (`check --from A --from B`) keeps their history.
 */
export function keepRecentScans(scans: ScanRecord[], retention: HistoryRetention): ScanRecord[] {
  const times = scans.map((s) => Date.parse(s.at));
  const newest = Math.max(...times.filter((t) => !Number.isNaN(t)));
  const cutoff = Number.isFinite(newest) ? newest - retention.retentionMinutes * 60_000 : -Infinity;
  const kept = scans.filter((_, i) => !(times[i]! < cutoff));
  return kept.slice(Math.max(0, kept.length - retention.maxScans));
}
