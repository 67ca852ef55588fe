// Placeholder until the history work lands (owned by the etcd/history engineer).
import type { Snapshot } from '../cluster/snapshot.js';
import type { Finding } from './finding.js';
import type { ScanRecord } from './history.js';

export function recordScan(snapshot: Snapshot, findings: Finding[], now: Date): ScanRecord {
  void snapshot;
  return { at: now.toISOString(), machines: [], rollouts: [], findings: findings.map((f) => ({ id: f.id, fingerprint: f.fingerprint, severity: f.severity })) };
}
