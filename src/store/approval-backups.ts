import type { Redis } from 'ioredis';
import type { KubeObject } from '../cluster/snapshot.js';

/** Full objects saved before a remediation deletes or changes them. */
export interface ApprovalBackups {
  save(requestId: string, what: string, object: KubeObject): Promise<void>;
  load(requestId: string): Promise<{ what: string; object: KubeObject; savedAt: string } | undefined>;
}

/** Backups are the only way back after a delete: kept 90 days (restore is its own gated action). */
const TTL_SECONDS = 90 * 24 * 3600;

/** `<prefix>backup:<requestId>`: one backup per request (each action deletes at most one object). */
export function createApprovalBackups(redis: Redis, opts: { keyPrefix: string; now?: () => Date }): ApprovalBackups {
  const key = (id: string) => `${opts.keyPrefix}backup:${id}`;
  return {
    async save(requestId, what, object) {
      const savedAt = (opts.now?.() ?? new Date()).toISOString();
      await redis.set(key(requestId), JSON.stringify({ what, object, savedAt }), 'EX', TTL_SECONDS);
    },
    async load(requestId) {
      if (!/^r_[A-Za-z0-9_-]{1,64}$/.test(requestId)) return undefined;
      const raw = await redis.get(key(requestId));
      return raw ? JSON.parse(raw) : undefined;
    },
  };
}
