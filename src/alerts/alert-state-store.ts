import type { Redis } from 'ioredis';
import type { ClusterAlertState } from './incident.js';
import { migrateAlertState } from './migrate-alert-state.js';

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

/** Compare-and-set on a hash { version, state }: atomic in Redis, no WATCH connection state needed. */
const CAS_SCRIPT = `
local v = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', v + 1, 'state', ARGV[2])
return 1
`;

/**
 * Keys: `<keyPrefix>alert-state:<cluster>` (hash with `version` and `state` JSON: structured data
 * only, alerts/incident.ts). No TTL: the state must survive every restart; resolved incidents are
 * pruned by the transition itself.
 */
export function createAlertStateStore(redis: Redis, opts: { keyPrefix: string }): AlertStateStore {
  const key = (cluster: string) => `${opts.keyPrefix}alert-state:${cluster}`;
  return {
    async load(cluster) {
      const [version, raw] = await redis.hmget(key(cluster), 'version', 'state');
      let parsed: unknown;
      try {
        parsed = raw ? JSON.parse(raw) : undefined;
      } catch {
        // Corrupt state: start afresh (threads reopen at worst) rather than stop alerting for the cluster.
      }
      // Older states (Slack text in each change) are converted on read: migrate-alert-state.ts.
      return { state: migrateAlertState(parsed), version: Number(version ?? 0) };
    },
    async save(cluster, state, expectedVersion) {
      const ok = await redis.eval(CAS_SCRIPT, 1, key(cluster), String(expectedVersion), JSON.stringify(state));
      return ok === 1;
    },
  };
}
