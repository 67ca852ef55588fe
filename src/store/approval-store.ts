import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApprovalRequest } from '../remediate/approval-request.js';

/** Approval requests in Redis: created once, then changed only through compare-and-set. */
export interface ApprovalStore {
  /** A fresh opaque request id (`r_…`). */
  newId(): string;
  create(req: ApprovalRequest): Promise<void>;
  get(id: string): Promise<ApprovalRequest | undefined>;
  /**
   * Atomically change a request: `change` gets the stored request and returns the next one (or
   * undefined for "no change"). On a concurrent change it is re-run on the newer value, so exactly
   * one of many racing callers wins each transition. Returns the stored result and the change's extra.
   */
  update<T>(id: string, change: (req: ApprovalRequest) => { request?: ApprovalRequest; extra: T }): Promise<{ request: ApprovalRequest; changed: boolean; extra: T } | undefined>;
}

/** Requests (and their audit trail in the request) are kept for 30 days after the last change. */
const TTL_SECONDS = 30 * 24 * 3600;

/** Set KEYS[1] to ARGV[2] only if it still holds exactly ARGV[1] (one atomic step in Redis). */
const CAS = `
local cur = redis.call('GET', KEYS[1])
if cur ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1`;

/**
 * Optimistic concurrency on one key per request (`<prefix>approval:<id>`): read, apply the pure
 * change, write with a Lua compare-and-set. Safe on one shared connection (unlike WATCH/MULTI) and
 * across processes: fifty simultaneous clicks serialise into fifty clean transitions.
 */
export function createApprovalStore(redis: Redis, opts: { keyPrefix: string }): ApprovalStore {
  const key = (id: string) => `${opts.keyPrefix}approval:${id}`;
  const valid = (id: string) => /^r_[A-Za-z0-9_-]{1,64}$/.test(id);
  return {
    newId: () => `r_${randomBytes(12).toString('base64url')}`,
    async create(req) {
      const ok = await redis.set(key(req.id), JSON.stringify(req), 'EX', TTL_SECONDS, 'NX');
      if (ok !== 'OK') throw new Error(`approval request ${req.id} already exists`);
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
        if (!raw) return undefined;
        const current = JSON.parse(raw) as ApprovalRequest;
        const { request, extra } = change(current);
        if (!request || request === current) return { request: current, changed: false, extra };
        const next = JSON.stringify(request);
        if ((await redis.eval(CAS, 1, key(id), raw, next, String(TTL_SECONDS))) === 1) return { request, changed: true, extra };
      }
      throw new Error(`approval request ${id}: too much contention, gave up`);
    },
  };
}
