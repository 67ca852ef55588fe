import type { Redis } from 'ioredis';
import type { Finding, Severity } from '../diagnose/finding.js';

/** Why an alert thread gets a reply (several may apply to one scan; they share one reply). */
export type AlertChangeKind = 'opened' | 'reopened' | 'severity' | 'evidence' | 'related' | 'recreation' | 'resolved';

/** One change of an incident, posted once as a thread reply (or, for `opened`, as the parent). */
export interface AlertChange {
  /** Per-cluster sequence number, strictly increasing: notify job ids and "posted up to" marks use it. */
  seq: number;
  kinds: AlertChangeKind[];
  /** Scan time (the report's collectedAt) of the change. */
  at: string;
  /** Reply lines (Slack mrkdwn, every untrusted value already neutralized: report/neutralize-mrkdwn.ts); empty for `opened`. */
  lines: string[];
}

/** One incident of one finding fingerprint: what its Slack thread shows. */
export interface Incident {
  cluster: string;
  fingerprint: string;
  /** Thread key: `<fingerprint>.<seq of its opening>`; a finding back after the flap window gets a new key (new thread). */
  key: string;
  channel: string;
  status: 'open' | 'resolved';
  /** Scan time the incident was opened (or reopened after the flap window). */
  openedAt: string;
  lastSeenAt: string;
  resolvedAt?: string;
  /** Consecutive scans without the finding (resolution after scan.resolveAfterScans). */
  missedScans: number;
  /** The finding as last seen. */
  finding: Finding;
  /** Highest severity shown so far (informational; severity changes compare with finding.severity). */
  severity: Severity;
  /** Evidence lines already shown (normalised: relative ages stripped), so only new ones are replied. */
  evidenceSeen: string[];
  /** Fingerprints of related findings already announced in the thread. */
  related: string[];
  /** capi.recreation-loop: replacements counted so far. */
  recreations?: number;
  /** Seq of the newest change (0 = none). */
  seq: number;
  /** Recent changes, oldest first (bounded; the parent always shows the current state anyway). */
  changes: AlertChange[];
}

/** Alert state of one cluster: every open or recently resolved incident, by fingerprint. */
export interface ClusterAlertState {
  /** Scan time of the newest scan applied; older scans (out of order) are ignored. */
  lastScanAt?: string;
  /** Last seq handed out in this cluster. */
  seq: number;
  incidents: Record<string, Incident>;
}

/** The state plus its version, for compare-and-set. */
export interface VersionedAlertState {
  state: ClusterAlertState;
  version: number;
}

/** Alert state per cluster in Redis, changed only by compare-and-set so concurrent scans never lose an update. */
export interface AlertStateStore {
  load(cluster: string): Promise<VersionedAlertState>;
  /** Save when the stored version is still `expectedVersion`; false when another scan saved first. */
  save(cluster: string, state: ClusterAlertState, expectedVersion: number): Promise<boolean>;
}

export const EMPTY_ALERT_STATE: ClusterAlertState = { seq: 0, incidents: {} };

/** Compare-and-set on a hash { version, state }: atomic in Redis, no WATCH connection state needed. */
const CAS_SCRIPT = `
local v = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', v + 1, 'state', ARGV[2])
return 1
`;

/**
 * Keys: `<keyPrefix>alert-state:<cluster>` (hash with `version` and `state` JSON). No TTL: the
 * state must survive every restart; resolved incidents are pruned by the transition itself.
 */
export function createAlertStateStore(redis: Redis, opts: { keyPrefix: string }): AlertStateStore {
  const key = (cluster: string) => `${opts.keyPrefix}alert-state:${cluster}`;
  return {
    async load(cluster) {
      const [version, raw] = await redis.hmget(key(cluster), 'version', 'state');
      let state: ClusterAlertState = structuredClone(EMPTY_ALERT_STATE);
      if (raw) {
        try {
          state = JSON.parse(raw) as ClusterAlertState;
        } catch {
          // Corrupt state: start afresh (threads reopen at worst) rather than stop alerting for the cluster.
        }
      }
      return { state, version: Number(version ?? 0) };
    },
    async save(cluster, state, expectedVersion) {
      const ok = await redis.eval(CAS_SCRIPT, 1, key(cluster), String(expectedVersion), JSON.stringify(state));
      return ok === 1;
    },
  };
}
