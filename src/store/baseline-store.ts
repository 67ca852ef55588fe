import type { Redis } from 'ioredis';
import type { ChangesSinceHealthy, ClusterFingerprint } from '../diagnose/changes/cluster-fingerprint.js';
import type { Logger } from '../log/logger.js';

/** One "what changed" observation, kept for the incident timeline. */
export interface ChangeRecord extends ChangesSinceHealthy {
  /** Capture time of the scan that saw these changes. */
  at: string;
}

/**
 * The last healthy fingerprint per cluster ("what changed"), and the changes seen since, for the
 * incident timeline. Redis for the bot (shared by every worker, survives restarts), memory for
 * `check --from` replays and tests.
 */
export interface BaselineStore {
  load(cluster: string): Promise<ClusterFingerprint | undefined>;
  save(cluster: string, fp: ClusterFingerprint): Promise<void>;
  /** Append one observation when it differs from the previous one (same baseline and changes: skipped). */
  recordChanges(cluster: string, record: ChangeRecord): Promise<void>;
  /** Observations at or after `since` (ISO), oldest first. */
  listChanges(cluster: string, since?: string): Promise<ChangeRecord[]>;
}

/**
 * A fingerprint larger than this is not stored (the previous baseline stays); see fingerprint-snapshot.ts for the
 * per-kind bound.
 */
export const MAX_BASELINE_BYTES = 4 * 1024 * 1024;
/** Change observations kept per cluster, and for how long. */
export const MAX_CHANGE_RECORDS = 200;
const CHANGES_TTL_SECONDS = 30 * 24 * 3600;

const sameChanges = (a: ChangeRecord | undefined, b: ChangeRecord) =>
  !!a && a.baselineAt === b.baselineAt && JSON.stringify(a.changes) === JSON.stringify(b.changes);

/**
 * Keys `<prefix>baseline:<cluster>` (the fingerprint JSON, no TTL: it is the reference until the next
 * healthy scan) and `<prefix>changes:<cluster>` (a capped list of ChangeRecord JSON, 30-day TTL).
 */
export function createRedisBaselineStore(redis: Redis, opts: { keyPrefix: string; log?: Logger }): BaselineStore {
  const baseKey = (c: string) => `${opts.keyPrefix}baseline:${c}`;
  const changesKey = (c: string) => `${opts.keyPrefix}changes:${c}`;
  return {
    async load(cluster) {
      const raw = await redis.get(baseKey(cluster));
      if (!raw) return undefined;
      try {
        const fp = JSON.parse(raw) as ClusterFingerprint;
        return Array.isArray(fp?.objects) && typeof fp.at === 'string' ? fp : undefined;
      } catch {
        return undefined; // a corrupt baseline is no baseline: the next healthy scan writes a new one
      }
    },
    async save(cluster, fp) {
      const json = JSON.stringify(fp);
      if (json.length > MAX_BASELINE_BYTES) {
        opts.log?.warn(
          { cluster, bytes: json.length, max: MAX_BASELINE_BYTES },
          'baseline not stored: too large (the previous baseline stays)',
        );
        return;
      }
      await redis.set(baseKey(cluster), json);
    },
    async recordChanges(cluster, record) {
      const last = await redis.lindex(changesKey(cluster), -1);
      let prev: ChangeRecord | undefined;
      try {
        prev = last ? (JSON.parse(last) as ChangeRecord) : undefined;
      } catch {
        prev = undefined;
      }
      if (sameChanges(prev, record)) return;
      await redis
        .multi()
        .rpush(changesKey(cluster), JSON.stringify(record))
        .ltrim(changesKey(cluster), -MAX_CHANGE_RECORDS, -1)
        .expire(changesKey(cluster), CHANGES_TTL_SECONDS)
        .exec();
    },
    async listChanges(cluster, since) {
      const out: ChangeRecord[] = [];
      for (const raw of await redis.lrange(changesKey(cluster), 0, -1)) {
        try {
          const r = JSON.parse(raw) as ChangeRecord;
          if (typeof r?.at === 'string' && Array.isArray(r.changes) && (!since || r.at >= since)) out.push(r);
        } catch {
          // one unreadable record must not cost the timeline
        }
      }
      return out;
    },
  };
}

/** The same in process memory (copies in and out). */
export function createMemoryBaselineStore(): BaselineStore {
  const baselines = new Map<string, ClusterFingerprint>();
  const changes = new Map<string, ChangeRecord[]>();
  return {
    async load(cluster) {
      const fp = baselines.get(cluster);
      return fp ? structuredClone(fp) : undefined;
    },
    async save(cluster, fp) {
      baselines.set(cluster, structuredClone(fp));
    },
    async recordChanges(cluster, record) {
      const list = changes.get(cluster) ?? [];
      if (sameChanges(list.at(-1), record)) return;
      changes.set(cluster, [...list, structuredClone(record)].slice(-MAX_CHANGE_RECORDS));
    },
    async listChanges(cluster, since) {
      return structuredClone((changes.get(cluster) ?? []).filter((r) => !since || r.at >= since));
    },
  };
}
