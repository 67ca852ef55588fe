import type { Report } from '../../report/report.js';
import type { ReportStore, StoredReport } from '../../store/report-store.js';

/** Scan one cluster now and return its report (through the scan queue: jobs/create-queued-scan.ts). */
export type ScanFn = (clusterName: string) => Promise<Report>;

/** Scan a cluster and store the report; concurrent requests for one cluster share one scan. */
export type RequestScan = (clusterName: string) => Promise<StoredReport>;

/**
 * De-duplicates fresh scans: ten `/k8s-health` commands in an incident channel while the report is
 * stale cause one scan, not ten (docs/design.md: an incident must not add load to a struggling API server).
 */
export function createScanRequester(
  scan: ScanFn,
  store: ReportStore,
  hooks: { onScan?: (ok: boolean) => void } = {},
): RequestScan {
  const inFlight = new Map<string, Promise<StoredReport>>();
  return (clusterName) => {
    const running = inFlight.get(clusterName);
    if (running) return running;
    const p = (async () => {
      try {
        const report = await scan(clusterName);
        const stored = await store.save(report);
        hooks.onScan?.(true);
        return stored;
      } catch (err) {
        hooks.onScan?.(false);
        throw err;
      } finally {
        inFlight.delete(clusterName);
      }
    })();
    inFlight.set(clusterName, p);
    return p;
  };
}
