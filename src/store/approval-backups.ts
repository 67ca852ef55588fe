import type { Redis } from 'ioredis';
import type { KubeObject } from '../cluster/snapshot.js';

/**
 * A backup as stored. `sha256`, `origin` and `mac` are its seal (remediate/seal-backup.ts): who saved
 * it (the executor of request `origin.requestId`, running that action with those params) and a MAC
 * with K8S_HEALTH_PLAN_SECRET over that and the object's hash, so a restore can refuse anything but
 * the exact object its plan backed up. Backups saved before issue 14 have no seal (never restored).
 */
export interface StoredBackup {
  what: string;
  object: KubeObject;
  savedAt: string;
  sha256?: string;
  origin?: { requestId: string; action: string; params: Record<string, string | number> };
  mac?: string;
}

/** Full objects saved before a remediation deletes or changes them. */
export interface ApprovalBackups {
  save(requestId: string, what: string, object: KubeObject, seal?: Pick<StoredBackup, 'sha256' | 'origin' | 'mac'>): Promise<void>;
  load(requestId: string): Promise<StoredBackup | undefined>;
}

/** Backups are the only way back after a delete: kept 90 days (restore is its own gated action). */
const TTL_SECONDS = 90 * 24 * 3600;

/**
 * `<prefix>backup:<requestId>`: one backup per request (each action deletes at most one object).
 * The store keeps what it is given; sealing and checking seals is remediate/seal-backup.ts's job.
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
