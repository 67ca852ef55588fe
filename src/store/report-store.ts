import { scanTimesKey } from './scan-times.js';
import type { Redis } from 'ioredis';
import type { Report } from '../report/report.js';

/** A stored report and when it was stored (the scan's end), which decides freshness. */
export interface StoredReport {
  report: Report;
  /** ISO time the report was saved. */
  storedAt: string;
}

/** The latest report of each cluster, in Redis, so every `serve` replica answers from the same data. */
/** What `save` did: `saved` false when a newer report was already stored (then that one is returned). */
export type SaveResult = StoredReport & { saved: boolean };

export interface ReportStore {
  /**
   * Store the report unless a newer one (later generatedAt) is already stored: a slow scan never overwrites a faster,
   * later one.
   */
  save(report: Report): Promise<SaveResult>;
  /** The latest report of a cluster, or undefined when it was never scanned. */
  latest(cluster: string): Promise<StoredReport | undefined>;
}

/**
 * Compare and set in one step (two scans of one cluster can finish in either order): keep the stored
 * report when its generatedAt is later than the new one's (ISO times of one format compare as
 * strings); a missing or unreadable entry is replaced. Returns nil when stored, else the kept JSON.
 */
const SAVE_IF_NOT_OLDER = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local ok, doc = pcall(cjson.decode, cur)
  if ok and type(doc) == 'table' and type(doc.report) == 'table' and type(doc.report.generatedAt) == 'string'
     and doc.report.generatedAt > ARGV[2] then
    return cur
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return false
`;

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
      const kept = (await redis.eval(
        SAVE_IF_NOT_OLDER,
        1,
        key(report.cluster),
        JSON.stringify(stored),
        report.generatedAt,
      )) as string | null;
      if (kept === null) {
        // When each cluster was last scanned, all in one hash: the scan watchdog reads it in one call.
        await redis.hset(scanTimesKey(opts.keyPrefix), report.cluster, String(Date.parse(stored.storedAt)));
        return { ...stored, saved: true };
      }
      return { ...(JSON.parse(kept) as StoredReport), saved: false };
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
