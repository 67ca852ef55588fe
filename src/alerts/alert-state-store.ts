import type { Redis } from 'ioredis';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { ClusterAlertState, Incident } from './incident.js';
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

/** A transition's result: the next state and the incidents it changed. */
export interface AlertTransition {
  state: ClusterAlertState;
  changed: Incident[];
}

/** Compare-and-set retries when scans of one cluster race. */
const MAX_CAS_TRIES = 20;

/** Compare-and-set on a hash { version, state, mac }: atomic in Redis, no WATCH connection state needed. */
const CAS_SCRIPT = `
local v = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if v ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', v + 1, 'state', ARGV[2], 'mac', ARGV[3])
return 1
`;

/**
 * A MAC with the server secret over each stored state (store/create-record-seal.ts builds it): the
 * state names where alerts are posted and what they say, so a state that does not verify is not used.
 */
export interface AlertStateSeal {
  sign(payload: unknown): string;
  verify(payload: unknown, mac: unknown): boolean;
}

/**
 * Keys: `<keyPrefix>alert-state:<cluster>` (hash with `version`, `state` JSON — structured data
 * only, alerts/incident.ts — and `mac`, the seal, when the process holds the server secret). No TTL: the state must
 * survive every restart; resolved incidents are pruned by the transition itself.
 */
export function createAlertStateStore(
  redis: Redis,
  opts: { keyPrefix: string; seal?: AlertStateSeal; onTampered?: (cluster: string) => void },
): AlertStateStore {
  const key = (cluster: string) => `${opts.keyPrefix}alert-state:${cluster}`;
  return {
    async load(cluster) {
      const [version, raw, mac] = await redis.hmget(key(cluster), 'version', 'state', 'mac');
      let parsed: unknown;
      // Sealed (the process holds the server secret): a state that does not verify was not written by
      // the bot. It is not used — the next scan starts afresh, its threads open in the configured channel.
      if (raw && opts.seal && !opts.seal.verify({ cluster, state: raw }, mac)) {
        opts.onTampered?.(cluster);
        return { state: migrateAlertState(undefined), version: Number(version ?? 0) };
      }
      try {
        parsed = raw ? JSON.parse(raw) : undefined;
      } catch {
        // Corrupt state: start afresh (threads reopen at worst) rather than stop alerting for the cluster.
      }
      // Older states (Slack text in each change) are converted on read: migrate-alert-state.ts.
      return { state: migrateAlertState(parsed), version: Number(version ?? 0) };
    },
    async save(cluster, state, expectedVersion) {
      const json = JSON.stringify(state);
      const ok = await redis.eval(
        CAS_SCRIPT,
        1,
        key(cluster),
        String(expectedVersion),
        json,
        opts.seal ? opts.seal.sign({ cluster, state: json }) : '',
      );
      return ok === 1;
    },
  };
}

/**
 * Apply a transition (alerts/analyze-alert-changes.ts) to a cluster's stored state: load, `transition`,
 * save by compare-and-set, and again on a concurrent save, so racing scans (a scheduled tick and a
 * `/k8s-health` request) never lose an update. A transition that returns the state it was given saves
 * nothing. Throws E_ALERT_STATE_CONTENDED when the state kept changing underneath (the scan job is retried).
 */
export async function updateAlertState(
  store: AlertStateStore,
  cluster: string,
  transition: (prev: ClusterAlertState) => AlertTransition,
): Promise<AlertTransition> {
  for (let tries = 1; ; tries++) {
    const { state, version } = await store.load(cluster);
    const next = transition(state);
    if (next.state === state || (await store.save(cluster, next.state, version))) return next;
    if (tries >= MAX_CAS_TRIES)
      throw new K8sHealthError(
        'E_ALERT_STATE_CONTENDED',
        `alert state of ${cluster} kept changing under this scan (${tries} tries); the scan job will be retried`,
      );
  }
}
