import type { Redis } from 'ioredis';
import { K8sHealthError } from '../errors/k8s-health-error.js';

/**
 * Fleet incidents in Redis (alerts/fleet-incident.ts defines the record; this store keeps it generic
 * so it holds no display logic). Keys: `<keyPrefix>fleet-incident:<key>` (JSON) and
 * `<keyPrefix>fleet-member:<cluster>:<fingerprint>` → the key of the fleet incident a cluster's
 * incident belongs to. Both expire after 30 days, like alert threads.
 */
export interface FleetIncidentStore<R> {
  get(key: string): Promise<R | undefined>;
  /**
   * Read-modify-write by optimistic transaction (WATCH/MULTI, retried on conflict): racing scans of
   * several clusters joining one incident never lose a member. `fn` returning undefined leaves it.
   */
  update(key: string, fn: (prev: R | undefined) => R | undefined): Promise<R | undefined>;
  /** Record which fleet incident a cluster's incident belongs to. */
  setMember(cluster: string, fingerprint: string, key: string): Promise<void>;
  memberOf(cluster: string, fingerprint: string): Promise<string | undefined>;
}

const TTL_SECONDS = 30 * 24 * 3600;
const MAX_TRIES = 50;

export function createFleetIncidentStore<R>(redis: Redis, opts: { keyPrefix: string }): FleetIncidentStore<R> {
  const recordKey = (key: string) => `${opts.keyPrefix}fleet-incident:${key}`;
  const memberKey = (cluster: string, fp: string) => `${opts.keyPrefix}fleet-member:${cluster}:${fp}`;
  return {
    async get(key) {
      const raw = await redis.get(recordKey(key));
      return raw ? (JSON.parse(raw) as R) : undefined;
    },
    async update(key, fn) {
      // A connection of its own: WATCH is per connection, and the shared one carries other commands.
      const conn = redis.duplicate();
      try {
        for (let i = 0; i < MAX_TRIES; i++) {
          await conn.watch(recordKey(key));
          const raw = await conn.get(recordKey(key));
          const next = fn(raw ? (JSON.parse(raw) as R) : undefined);
          if (next === undefined) {
            await conn.unwatch();
            return raw ? (JSON.parse(raw) as R) : undefined;
          }
          const done = await conn.multi().set(recordKey(key), JSON.stringify(next), 'EX', TTL_SECONDS).exec();
          if (done) return next;
        }
        throw new K8sHealthError(
          'E_ALERT_STATE_CONTENDED',
          `fleet incident ${key}: ${MAX_TRIES} conflicting updates in a row`,
        );
      } finally {
        conn.disconnect();
      }
    },
    async setMember(cluster, fingerprint, key) {
      await redis.set(memberKey(cluster, fingerprint), key, 'EX', TTL_SECONDS);
    },
    async memberOf(cluster, fingerprint) {
      return (await redis.get(memberKey(cluster, fingerprint))) ?? undefined;
    },
  };
}
