/**
 * History: what earlier scans of a cluster saw, so time-based detectors (recreation loops, stuck
 * provisioning/deleting/upgrades, remediation looping) work better than from one snapshot alone.
 *
 * Analyzers only read a HistoryView (plain data, loaded before analysis); the History store that
 * produces it is in-memory for `check --from A --from B` replay and Redis-backed for the bot.
 */

/** One Machine as a scan saw it. */
export interface MachineSighting {
  namespace: string;
  name: string;
  uid?: string;
  /** "KubeadmControlPlane/x" or "MachineSet/y" (controller owner), or "" when none. */
  owner: string;
  /** MachineDeployment name via the cluster.x-k8s.io/deployment-name label, when present. */
  deployment?: string;
  controlPlane: boolean;
  phase?: string;
  nodeName?: string;
  creationTimestamp?: string;
  deleting: boolean;
}

/** A rollout object (KCP or MachineDeployment) as a scan saw it, to tell progress from a stall. */
export interface RolloutSighting {
  kind: 'KubeadmControlPlane' | 'MachineDeployment';
  namespace: string;
  name: string;
  version?: string;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
}

export interface ScanRecord {
  /** Analysis time of that scan (ISO). */
  at: string;
  machines: MachineSighting[];
  rollouts: RolloutSighting[];
  /** Fingerprints and ids of the warning/critical findings of that scan. */
  findings: { id: string; fingerprint: string; severity: string }[];
}

/** What analyzers see: earlier scans, oldest first, not including the current one. */
export interface HistoryView {
  scans: ScanRecord[];
}

export const EMPTY_HISTORY: HistoryView = { scans: [] };

/** A store of ScanRecords per cluster. */
export interface History {
  /** Earlier scans of the cluster, oldest first, within the retention window. */
  load(cluster: string): Promise<HistoryView>;
  /** Append this scan's record (records older than the retention window may be dropped). */
  append(cluster: string, record: ScanRecord): Promise<void>;
}
