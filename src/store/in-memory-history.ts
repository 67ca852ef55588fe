import type { History, HistoryView, ScanRecord } from '../diagnose/history.js';
import { DEFAULT_HISTORY_RETENTION, keepRecentScans, type HistoryRetention } from './keep-recent-scans.js';

/**
 * History in process memory: for `check --from A --from B` replay and tests. Records are copied in
 * and out, so a caller mutating a record later cannot rewrite history.
 */
export class InMemoryHistory implements History {
  private readonly scans = new Map<string, ScanRecord[]>();
  private readonly retention: HistoryRetention;

  constructor(opts: Partial<HistoryRetention> = {}) {
    this.retention = { ...DEFAULT_HISTORY_RETENTION, ...opts };
  }

  async load(cluster: string): Promise<HistoryView> {
    return { scans: structuredClone(this.scans.get(cluster) ?? []) };
  }

  async append(cluster: string, record: ScanRecord): Promise<void> {
    const next = [...(this.scans.get(cluster) ?? []), structuredClone(record)];
    this.scans.set(cluster, keepRecentScans(next, this.retention));
  }
}
