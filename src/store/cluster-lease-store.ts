import type { Redis } from 'ioredis';
import { taggedKey } from './redis-prefix.js';

/**
 * Cluster leases and worker heartbeats in Redis (docs/fleet.md "Leases and event-driven
 * scans"). Keys: `<prefix>lease:<cluster>` = the owner's id, with a TTL; `<prefix>lease-workers` = a
 * sorted set of worker ids scored by when their heartbeat expires (Redis server time, so workers'
 * clocks never matter). Nothing read there is taken on trust: a lease always carries a TTL of at most
 * MAX_LEASE_MS (one without is free to claim), and a heartbeat counts only up to now + MAX_LEASE_MS —
 * so a Redis writer cannot park a cluster forever. Every change is one Lua script: a lease is set only when free and
 * renewed or released only by the owner it names (compare-and-set), so a stale owner can never take it back.
 */
export interface ClusterLeaseStore {
  /** Announce this worker (or, `alive: false`, withdraw it); returns every live worker id, sorted. */
  heartbeat(owner: string, ttlMs: number, alive?: boolean): Promise<string[]>;
  /** The owner of each cluster's lease (undefined: free), in the order given. */
  owners(clusters: readonly string[]): Promise<(string | undefined)[]>;
  /** Take each lease that is free (or already ours, then renewed); true where `owner` holds it now. */
  claim(clusters: readonly string[], owner: string, ttlMs: number): Promise<boolean[]>;
  /** Extend each lease `owner` still holds; false where it is someone else's or gone (then lost). */
  renew(clusters: readonly string[], owner: string, ttlMs: number): Promise<boolean[]>;
  /** Give up the leases `owner` holds (others' are untouched). */
  release(clusters: readonly string[], owner: string): Promise<void>;
}

const HEARTBEAT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '(' .. (now + tonumber(ARGV[4])), '+inf')
if ARGV[3] == '1' then redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) else redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

const CLAIM = `
local out = {}
for i, key in ipairs(KEYS) do
  local ttl = redis.call('PTTL', key)
  if ttl == -1 or ttl > tonumber(ARGV[3]) then redis.call('DEL', key) end
  if redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then out[i] = 1
  elseif redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]); out[i] = 1
  else out[i] = 0 end
end
return out`;

const RENEW = `
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]); out[i] = 1 else out[i] = 0 end
end
return out`;

const RELEASE = `
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0`;

/**
 * The longest lease any worker may hold (scan.leaseSeconds' maximum). A lease key without a TTL, or
 * with a longer one, was not written by a worker: it is free to claim. A heartbeat scored beyond now
 * plus this is dropped. Workers configured with different leaseSeconds (during a rollout) still
 * respect each other's leases.
 */
export const MAX_LEASE_MS = 300_000;

/** Keys per script call: a fleet of thousands is sent in slices, never one huge command. */
const SLICE = 500;

export function createClusterLeaseStore(redis: Redis, opts: { keyPrefix: string }): ClusterLeaseStore {
  const leaseKey = (cluster: string) => taggedKey(opts.keyPrefix, 'lease', `lease:${cluster}`);
  const workersKey = taggedKey(opts.keyPrefix, 'lease', 'lease-workers');
  const sliced = async <T>(clusters: readonly string[], run: (keys: string[]) => Promise<T[]>): Promise<T[]> => {
    const out: T[] = [];
    for (let i = 0; i < clusters.length; i += SLICE)
      out.push(...(await run(clusters.slice(i, i + SLICE).map(leaseKey))));
    return out;
  };
  const flags = (r: unknown) => (r as number[]).map((n) => n === 1);
  return {
    async heartbeat(owner, ttlMs, alive = true) {
      return (
        (await redis.eval(
          HEARTBEAT,
          1,
          workersKey,
          owner,
          String(Math.round(ttlMs)),
          alive ? '1' : '0',
          String(Math.max(MAX_LEASE_MS, Math.round(ttlMs))),
        )) as string[]
      ).sort();
    },
    owners: (clusters) => sliced(clusters, async (keys) => (await redis.mget(...keys)).map((v) => v ?? undefined)),
    claim: (clusters, owner, ttlMs) =>
      sliced(clusters, async (keys) =>
        flags(
          await redis.eval(
            CLAIM,
            keys.length,
            ...keys,
            owner,
            String(Math.round(ttlMs)),
            String(Math.max(MAX_LEASE_MS, Math.round(ttlMs))),
          ),
        ),
      ),
    renew: (clusters, owner, ttlMs) =>
      sliced(clusters, async (keys) =>
        flags(await redis.eval(RENEW, keys.length, ...keys, owner, String(Math.round(ttlMs)))),
      ),
    async release(clusters, owner) {
      await sliced(clusters, async (keys) => [await redis.eval(RELEASE, keys.length, ...keys, owner)]);
    },
  };
}
