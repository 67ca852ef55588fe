import type { Redis } from 'ioredis';
import type { ApprovalBackups, StoredBackup } from '../approvals/approval-stores.js';

export type { ApprovalBackups, StoredBackup };

/** Backups are the only way back after a delete: kept 90 days (restore is its own gated action). */
const TTL_SECONDS = 90 * 24 * 3600;

/**
 * `<prefix>backup:<requestId>`: one backup per request (each action deletes at most one object).
 * The store keeps what it is given; sealing and checking seals is approvals/execute/seal-backup.ts's job.
 */
export function createApprovalBackups(redis: Redis, opts: { keyPrefix: string; now?: () => Date }): ApprovalBackups {
  const key = (id: string) => `${opts.keyPrefix}backup:${id}`;
  return {
    async save(requestId, what, object, seal = {}) {
      const savedAt = (opts.now?.() ?? new Date()).toISOString();
      await redis.set(key(requestId), JSON.stringify({ what, object, savedAt, ...seal }), 'EX', TTL_SECONDS);
    },
    async load(requestId) {
      if (!/^r_[A-Za-z0-9_-]{1,64}$/.test(requestId)) return undefined;
      const raw = await redis.get(key(requestId));
      return raw ? JSON.parse(raw) : undefined;
    },
  };
}
