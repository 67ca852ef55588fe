import type { Redis } from 'ioredis';
import type { Report } from '../report/report.js';

/** A stored report and when it was stored (the scan's end), which decides freshness. */
export interface StoredReport {
  report: Report;
  /** ISO time the report was saved. */
  storedAt: string;
}

/** The latest report of each cluster, in Redis, so every `serve` replica answers from the same data. */
export interface ReportStore {
  save(report: Report): Promise<StoredReport>;
  /** The latest report of a cluster, or undefined when it was never scanned. */
  latest(cluster: string): Promise<StoredReport | undefined>;
}

/**
 * Reports live under `<keyPrefix>report:<cluster>` as JSON. Only the latest is kept: history for
 * time-based detectors is a separate store (diagnose/history.ts).
 */
export function createReportStore(redis: Redis, opts: { keyPrefix: string; now?: () => Date }): ReportStore {
  const key = (cluster: string) => `${opts.keyPrefix}report:${cluster}`;
  const now = opts.now ?? (() => new Date());
  return {
    async save(report) {
      const stored: StoredReport = { report, storedAt: now().toISOString() };
      await redis.set(key(report.cluster), JSON.stringify(stored));
      return stored;
    },
    async latest(cluster) {
      const raw = await redis.get(key(cluster));
      if (!raw) return undefined;
      try {
        return JSON.parse(raw) as StoredReport;
      } catch {
        // A corrupt entry is treated as "never scanned": the caller scans afresh and overwrites it.
        return undefined;
      }
    },
  };
}
