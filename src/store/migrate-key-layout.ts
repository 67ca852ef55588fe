import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import { queuePrefix, taggedKey, type KeyGroup } from './redis-prefix.js';
import { scanKeys } from './scan-keys.js';

/** The value of `<prefix>key-layout` once every key has its hash-tagged name. */
export const KEY_LAYOUT = 'tagged-1';

const LOCK_MS = 60_000;

/** What changed, for one log line. */
export interface KeyLayoutMigration {
  /** Keys copied to their new name (the old one removed). */
  moved: number;
  /** Old keys left where they are because their new name already holds data (named in the log). */
  kept: string[];
  /** false when another process did it (this one waited for its marker), or it was done before. */
  ran: boolean;
}

const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

/**
 * Renames the keys written before hash tags existed (store/redis-prefix.ts) to their tagged names, once
 * per Redis: approval requests and their indexes, the audit stream with its head and archive, leases,
 * and every BullMQ queue's keys (pending jobs, job schedulers, locks). Run by every process's start-up
 * before any worker starts; one process does it under a lock (`<prefix>key-layout-lock`) while the
 * others wait for the marker `<prefix>key-layout`, so several processes starting at once migrate once.
 *
 * Each key moves by DUMP + RESTORE (with its remaining TTL) + DEL rather than RENAME, which a Redis
 * Cluster refuses across slots; a key whose new name already exists is never overwritten nor deleted
 * (a run cut short between RESTORE and DEL, or a record written meanwhile): it is left and named.
 * Record seals, audit MACs and approval signatures cover contents, never key names, so everything
 * verifies under the new names. Idempotent: a second run finds no old key.
 */
export async function migrateKeyLayout(
  redis: Redis,
  opts: { keyPrefix: string; queues: readonly string[]; waitMs?: number },
): Promise<KeyLayoutMigration> {
  const marker = `${opts.keyPrefix}key-layout`;
  const lock = `${opts.keyPrefix}key-layout-lock`;
  if ((await redis.get(marker)) === KEY_LAYOUT) return { moved: 0, kept: [], ran: false };
  const token = randomUUID();
  const deadline = Date.now() + (opts.waitMs ?? LOCK_MS + 5_000);
  while ((await redis.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK') {
    if ((await redis.get(marker)) === KEY_LAYOUT) return { moved: 0, kept: [], ran: false };
    if (Date.now() > deadline)
      throw new K8sHealthError(
        'E_KEY_MIGRATION_LOCKED',
        `Redis keys are being renamed by another process (${lock} held for over ${Math.round((opts.waitMs ?? LOCK_MS) / 1000)} s): retry, or delete that key if no bot process is starting`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    if ((await redis.get(marker)) === KEY_LAYOUT) return { moved: 0, kept: [], ran: false };
    const result: KeyLayoutMigration = { moved: 0, kept: [], ran: true };
    for (const [oldKey, newKey] of await plannedMoves(redis, opts)) {
      await redis.pexpire(lock, LOCK_MS);
      const outcome = await moveKey(redis, oldKey, newKey);
      if (outcome === 'moved') result.moved++;
      else if (outcome === 'kept') result.kept.push(oldKey);
    }
    await redis.set(marker, KEY_LAYOUT);
    return result;
  } finally {
    await redis
      .eval(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        1,
        lock,
        token,
      )
      .catch(() => undefined);
  }
}

/** Every old key with its new name. */
async function plannedMoves(
  redis: Redis,
  opts: { keyPrefix: string; queues: readonly string[] },
): Promise<[string, string][]> {
  const p = opts.keyPrefix;
  const ep = escapeGlob(p);
  const moves: [string, string][] = [];
  const group = async (pattern: string, tag: KeyGroup) => {
    for (const key of await scanKeys(redis, `${ep}${pattern}`))
      moves.push([key, taggedKey(p, tag, key.slice(p.length))]);
  };
  await group('approval:*', 'approvals');
  await group('approvals:*', 'approvals');
  await group('audit', 'audit');
  await group('audit:*', 'audit');
  await group('lease:*', 'lease');
  await group('lease-workers', 'lease');
  for (const queue of opts.queues) {
    const old = `${p}${queue}:`;
    const next = `${queuePrefix(p, queue)}:${queue}:`;
    for (const key of await scanKeys(redis, `${escapeGlob(old)}*`)) moves.push([key, next + key.slice(old.length)]);
  }
  return moves;
}

async function moveKey(redis: Redis, oldKey: string, newKey: string): Promise<'moved' | 'kept' | 'gone'> {
  const [dump, ttl] = await Promise.all([redis.dumpBuffer(oldKey), redis.pttl(oldKey)]);
  if (!dump || ttl === -2) return 'gone';
  if (await redis.exists(newKey)) return 'kept';
  try {
    await redis.restore(newKey, ttl > 0 ? ttl : 0, dump);
  } catch (err) {
    if (/BUSYKEY/.test(String(err))) return 'kept';
    throw err;
  }
  await redis.del(oldKey);
  return 'moved';
}
