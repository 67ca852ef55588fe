import type { Redis } from 'ioredis';

/** A snooze of one incident: no new replies or mentions in its thread until `until`, or until it resolves. */
export interface AlertSnooze {
  /** Slack user who snoozed it. */
  by: string;
  /** When it was snoozed (ISO). */
  at: string;
  /** End of the snooze (ISO); absent with `untilResolved`. */
  until?: string;
  untilResolved?: boolean;
}

/** "I'm on it": who took the incident, and when. */
export interface AlertOwner {
  user: string;
  at: string;
}

/**
 * Ownership and snoozes of alert threads, in Redis, read by every notify worker:
 * - `<keyPrefix>alert-snooze:<cluster>:<fingerprint>` (JSON): per cluster and root-cause fingerprint;
 *   a timed snooze expires by itself (PX), "until resolved" is deleted when the incident resolves;
 * - `<keyPrefix>alert-owner:<cluster>:<incidentKey>` (JSON, 30 days): per thread, so an incident that
 *   comes back after the flap window (a new thread) starts without an owner.
 */
export interface AlertQuietStore {
  getSnooze(cluster: string, fingerprint: string): Promise<AlertSnooze | undefined>;
  snooze(cluster: string, fingerprint: string, snooze: AlertSnooze): Promise<void>;
  unsnooze(cluster: string, fingerprint: string): Promise<boolean>;
  getOwner(cluster: string, incidentKey: string): Promise<AlertOwner | undefined>;
  setOwner(cluster: string, incidentKey: string, owner: AlertOwner): Promise<void>;
}

const OWNER_TTL_SECONDS = 30 * 24 * 3600;

export function createAlertQuietStore(redis: Redis, opts: { keyPrefix: string; now?: () => Date }): AlertQuietStore {
  const snoozeKey = (cluster: string, fp: string) => `${opts.keyPrefix}alert-snooze:${cluster}:${fp}`;
  const ownerKey = (cluster: string, key: string) => `${opts.keyPrefix}alert-owner:${cluster}:${key}`;
  const now = opts.now ?? (() => new Date());
  return {
    async getSnooze(cluster, fingerprint) {
      const s = parse<AlertSnooze>(await redis.get(snoozeKey(cluster, fingerprint)));
      // The key expires with the snooze; the check covers a clock ahead of Redis's.
      if (!s || (s.until && Date.parse(s.until) <= now().getTime())) return undefined;
      return s;
    },
    async snooze(cluster, fingerprint, s) {
      const ms = s.until ? Date.parse(s.until) - now().getTime() : undefined;
      if (ms !== undefined) await redis.set(snoozeKey(cluster, fingerprint), JSON.stringify(s), 'PX', Math.max(1, ms));
      else await redis.set(snoozeKey(cluster, fingerprint), JSON.stringify(s));
    },
    async unsnooze(cluster, fingerprint) {
      return (await redis.del(snoozeKey(cluster, fingerprint))) > 0;
    },
    async getOwner(cluster, incidentKey) {
      return parse<AlertOwner>(await redis.get(ownerKey(cluster, incidentKey)));
    },
    async setOwner(cluster, incidentKey, owner) {
      await redis.set(ownerKey(cluster, incidentKey), JSON.stringify(owner), 'EX', OWNER_TTL_SECONDS);
    },
  };
}

/** Stored JSON, or undefined when absent or not JSON (Redis is not trusted: a bad value is no snooze). */
function parse<T>(raw: string | null): T | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}
