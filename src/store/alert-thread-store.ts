import type { Redis } from 'ioredis';

/** Where an incident's thread lives in Slack and how far it was posted. */
export interface AlertThread {
  channel: string;
  /** ts of the parent message. */
  ts: string;
  /** Highest change seq already posted; retried notify jobs skip everything up to it. */
  postedSeq: number;
  /** Opaque proposal ids of the parent's fix buttons, by proposal content, so updates reuse them. */
  proposalIds: Record<string, string>;
}

/** Thread map in Redis: written right after each Slack call succeeds, before the notify job completes. */
export interface AlertThreadStore {
  get(cluster: string, incidentKey: string): Promise<AlertThread | undefined>;
  set(cluster: string, incidentKey: string, thread: AlertThread): Promise<void>;
}

/** Threads outlive their incident for 30 days (a reopened finding within the flap window reuses it). */
const TTL_SECONDS = 30 * 24 * 3600;

/** Keys: `<keyPrefix>alert-thread:<cluster>:<incidentKey>` (JSON). */
export function createAlertThreadStore(redis: Redis, opts: { keyPrefix: string }): AlertThreadStore {
  const key = (cluster: string, incidentKey: string) => `${opts.keyPrefix}alert-thread:${cluster}:${incidentKey}`;
  return {
    async get(cluster, incidentKey) {
      const raw = await redis.get(key(cluster, incidentKey));
      return raw ? (JSON.parse(raw) as AlertThread) : undefined;
    },
    async set(cluster, incidentKey, thread) {
      await redis.set(key(cluster, incidentKey), JSON.stringify(thread), 'EX', TTL_SECONDS);
    },
  };
}
