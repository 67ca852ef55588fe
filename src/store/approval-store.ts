import { randomBytes } from 'node:crypto';
import { taggedKey } from './redis-prefix.js';
import type { Redis } from 'ioredis';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { ApprovalStore } from '../approvals/approval-stores.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import { waitForReplicas } from './wait-for-replicas.js';

export type { ApprovalStore };

/** Requests (and their audit trail in the request) are kept for 30 days after the last change. */
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Create KEYS[1] = ARGV[1] if absent and index it in the pending set KEYS[2] (score ARGV[3] = expiresAt ms) when
 * pending (ARGV[4] = '1').
 */
const CREATE = `
if not redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'NX') then return 0 end
if ARGV[4] == '1' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[5]) end
return 1`;

/**
 * Set KEYS[1] to ARGV[2] only if it still holds exactly ARGV[1] (one atomic step in Redis), and in
 * the same step keep the pending index KEYS[2] true: member ARGV[6] scored ARGV[5] (expiresAt ms)
 * while the new value is pending (ARGV[4] = '1'), removed as soon as it is not.
 */
const CAS = `
local cur = redis.call('GET', KEYS[1])
if cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
if ARGV[4] == '1' then redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6]) else redis.call('ZREM', KEYS[2], ARGV[6]) end
return 1`;

/**
 * KEYS[1] = ARGV[1] (for ARGV[2] seconds) when absent or already ARGV[1]; returns the holder. Taking it
 * when absent also starts ARGV[1]'s waiting hash KEYS[2] with its planner ARGV[3] (when not empty).
 */
const CLAIM = `
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] then return cur end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
if not cur and ARGV[3] ~= '' then
  redis.call('HSET', KEYS[2], 'planner', ARGV[3])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
return ARGV[1]`;

/**
 * A click of a claimed fix (claim KEYS[1] held by ARGV[1], its request record KEYS[2], its waiting hash
 * KEYS[3]): 'free' when ARGV[1] no longer holds the claim, 'requested' when its request is stored, else
 * the click ARGV[3] is kept under field ARGV[2] (at most ARGV[4] fields) for as long as the claim lasts,
 * and 'planning' is returned with the planner. One step, so the planner's create-then-take misses no click.
 */
const AWAIT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'free'} end
if redis.call('EXISTS', KEYS[2]) == 1 then return {'requested'} end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 or redis.call('HLEN', KEYS[3]) <= tonumber(ARGV[4]) then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
return {'planning', redis.call('HGET', KEYS[3], 'planner') or ''}`;

/** Every field and value of the hash KEYS[1], which is deleted in the same step. */
const TAKE = `
local all = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return all`;

/** Clicks one fix's planning keeps waiting at most (each is told the request once it is stored). */
const MAX_WAITERS = 100;

/** Delete KEYS[1] only if it still holds ARGV[1]. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`;

/**
 * Optimistic concurrency on one key per request (`<prefix>approval:<id>`): read, apply the pure
 * change, write with a Lua compare-and-set. Safe on one shared connection (unlike WATCH/MULTI) and
 * across processes: fifty simultaneous clicks serialise into fifty clean transitions.
 *
 * Pending index: a sorted set `<prefix>approvals:pending` of request ids scored by expiresAt (ms), so
 * the expiry sweep (jobs/expire-approvals.ts) finds due requests without scanning keys. It is kept
 * inside the same Lua step as the create and every compare-and-set, not "right after": a crash or a
 * lost connection between two commands could otherwise leave an id indexed after it left pending
 * (harmless but wasted work) or, worse, a pending request unindexed and never swept. Any write
 * that keeps a request pending (re)adds it, so a request created before the index existed is
 * indexed at its first counted vote; until then it is expired on click as before. Both keys share
 * the prefix; on Redis Cluster they would need a common hash tag (the bot uses one Redis).
 * Both live under `approvals:`, not `approval:`, so `approval:*` holds request records only (operators and
 * tests list requests by that pattern).
 * The stale-message set `<prefix>approvals:stale-messages` lists requests whose Slack message
 * still shows an older state; it is tiny (ids whose chat.update failed) and drained by the sweep.
 * `<prefix>approvals:click:<proposal>.<user>.<message>` maps a fix-button click to the request it
 * made, for that request's lifetime (a repeated click finds the pending request).
 * `…approvals:fix:<fix key>` holds the one request of a fix (cluster, action, parameters) while it
 * is prepared or pending, whoever clicked (under the approvals' hash tag like every key here, so the
 * MGET of fixesRan stays in one Redis Cluster slot); `…approvals:fix-ran:<fix key>` says when that
 * fix last ran successfully, so its buttons disappear from the alert and the answer.
 * `…approvals:fix-waiting:<id>` lives while request `id` is planned: its planner and the clicks of the
 * same fix made meanwhile (sealed by the caller), each told the request's link once it is stored.
 */
export function createApprovalStore(redis: Redis, opts: { keyPrefix: string }): ApprovalStore {
  const key = (id: string) => taggedKey(opts.keyPrefix, 'approvals', `approval:${id}`);
  const pendingKey = taggedKey(opts.keyPrefix, 'approvals', 'approvals:pending');
  const staleKey = taggedKey(opts.keyPrefix, 'approvals', 'approvals:stale-messages');
  const valid = (id: string) => /^r_[A-Za-z0-9_-]{1,64}$/.test(id);
  const fixClaimKey = (fixKey: string) => taggedKey(opts.keyPrefix, 'approvals', `approvals:fix:${fixKey}`);
  const waitingKey = (id: string) => taggedKey(opts.keyPrefix, 'approvals', `approvals:fix-waiting:${id}`);
  /**
   * [pending flag, score, member] for the Lua scripts; an unparsable expiresAt (never expires on click either) is not
   * indexed.
   */
  const indexArgs = (req: ApprovalRequest, id: string): [string, string, string] => {
    const ms = Date.parse(req.expiresAt);
    return [req.status === 'pending' && Number.isFinite(ms) ? '1' : '0', Number.isFinite(ms) ? String(ms) : '0', id];
  };
  return {
    newId: () => `r_${randomBytes(12).toString('base64url')}`,
    async create(req) {
      const [pending, score] = indexArgs(req, req.id);
      const ok = await redis.eval(
        CREATE,
        2,
        key(req.id),
        pendingKey,
        JSON.stringify(req),
        String(TTL_SECONDS),
        score,
        pending,
        req.id,
      );
      if (ok !== 1) throw new K8sHealthError('E_APPROVAL_EXISTS', `approval request ${req.id} already exists`);
      await waitForReplicas(redis);
    },
    async get(id) {
      // Button values are untrusted: anything that is not one of our ids never reaches Redis.
      if (!valid(id)) return undefined;
      const raw = await redis.get(key(id));
      return raw ? (JSON.parse(raw) as ApprovalRequest) : undefined;
    },
    async update(id, change) {
      if (!valid(id)) return undefined;
      for (let attempt = 0; attempt < 1000; attempt++) {
        const raw = await redis.get(key(id));
        if (!raw) {
          // Gone (its 30-day TTL): nothing to sweep either.
          await redis.zrem(pendingKey, id);
          return undefined;
        }
        const current = JSON.parse(raw) as ApprovalRequest;
        const { request, extra } = change(current);
        if (!request || request === current) return { request: current, changed: false, extra };
        const next = JSON.stringify(request);
        if (
          (await redis.eval(CAS, 2, key(id), pendingKey, raw, next, String(TTL_SECONDS), ...indexArgs(request, id))) ===
          1
        ) {
          // Votes and the execution claim are answered only once a replica has them (failover).
          await waitForReplicas(redis);
          return { request, changed: true, extra };
        }
      }
      throw new K8sHealthError('E_APPROVAL_CONTENDED', `approval request ${id}: too much contention, gave up`);
    },
    async pendingBefore(ms, limit) {
      return redis.zrangebyscore(pendingKey, '-inf', String(ms), 'LIMIT', 0, limit);
    },
    async markMessageStale(id) {
      await redis.sadd(staleKey, id);
    },
    async takeStaleMessages(limit) {
      return (await redis.spop(staleKey, limit)) ?? [];
    },
    async markExecuted(id) {
      if (!valid(id)) return false;
      return (
        (await redis.set(
          taggedKey(opts.keyPrefix, 'approvals', `approvals:executed:${id}`),
          new Date().toISOString(),
          'EX',
          TTL_SECONDS,
          'NX',
        )) === 'OK'
      );
    },
    async linkClick(clickKey, id, ttlSeconds) {
      await redis.set(
        taggedKey(opts.keyPrefix, 'approvals', `approvals:click:${clickKey}`),
        id,
        'EX',
        Math.max(1, Math.ceil(ttlSeconds)),
      );
    },
    async requestOfClick(clickKey) {
      const id = await redis.get(taggedKey(opts.keyPrefix, 'approvals', `approvals:click:${clickKey}`));
      return id && valid(id) ? id : undefined;
    },
    async claimFix(fixKey, id, ttlSeconds, planner) {
      return String(
        await redis.eval(
          CLAIM,
          2,
          fixClaimKey(fixKey),
          waitingKey(id),
          id,
          String(Math.max(1, Math.ceil(ttlSeconds))),
          planner ?? '',
        ),
      );
    },
    async awaitFix(fixKey, holder, waiter) {
      // A holder that is not one of our ids (a hand-written claim) has no request: taken over like a decided one.
      if (!valid(holder)) return { state: 'requested' };
      const [state, planner] = (await redis.eval(
        AWAIT,
        3,
        fixClaimKey(fixKey),
        key(holder),
        waitingKey(holder),
        holder,
        `wait:${waiter.key}`,
        waiter.value,
        String(MAX_WAITERS),
      )) as [string, string?];
      if (state === 'planning') return { state, ...(planner ? { planner } : {}) };
      return { state: state === 'free' ? 'free' : 'requested' };
    },
    async takeFixWaiters(id) {
      if (!valid(id)) return [];
      const all = (await redis.eval(TAKE, 1, waitingKey(id))) as string[];
      const out: string[] = [];
      for (let i = 0; i + 1 < all.length; i += 2) if (all[i]!.startsWith('wait:')) out.push(all[i + 1]!);
      return out;
    },
    async releaseFix(fixKey, id) {
      await redis.eval(RELEASE, 1, fixClaimKey(fixKey), id);
    },
    async markFixRan(fixKey, at, ttlSeconds) {
      await redis.set(
        taggedKey(opts.keyPrefix, 'approvals', `approvals:fix-ran:${fixKey}`),
        at,
        'EX',
        Math.max(1, Math.ceil(ttlSeconds)),
      );
    },
    async fixesRan(fixKeys) {
      if (fixKeys.length === 0) return {};
      const values = await redis.mget(
        ...fixKeys.map((k) => taggedKey(opts.keyPrefix, 'approvals', `approvals:fix-ran:${k}`)),
      );
      const out: Record<string, string> = {};
      fixKeys.forEach((k, i) => {
        const v = values[i];
        if (v && !Number.isNaN(Date.parse(v))) out[k] = v;
      });
      return out;
    },
  };
}
