import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AuditEvent, AuditLog } from '../approvals/approval-stores.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import type { Logger } from '../log/logger.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';

export type { AuditEvent, AuditLog };

/** The stream is capped (approximately) so it cannot grow without bound. */
export const MAX_AUDIT_EVENTS = 100000;

/** `prev` of the first chained record. */
export const AUDIT_GENESIS = '';

/**
 * The chain link of one record: sha256 of the previous record's hash and this record's event JSON
 * exactly as stored. Changing, inserting or removing any record breaks the link of the next one.
 */
export function hashAuditRecord(prev: string, eventJson: string): string {
  return createHash('sha256').update(`${prev}\n${eventJson}`).digest('hex');
}

/**
 * Append only if the chain head is still ARGV[1] (KEYS[2] = head key; absent = genesis ''), then
 * move the head, in one atomic step: two concurrent appends can never both link to the same record
 * (a fork); the loser re-reads the head and tries again. Returns the new entry id, or nil.
 */
const APPEND = `
local head = redis.call('GET', KEYS[2])
if not head then head = '' end
if head ~= ARGV[1] then return false end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'event', ARGV[3], 'prev', ARGV[1], 'hash', ARGV[4], 'mac', ARGV[5])
redis.call('SET', KEYS[2], ARGV[4])
return id`;

/**
 * Every step goes to the Redis stream `<prefix>audit` AND to the structured log as one JSON line
 * (with its chain hash), so a lost Redis still leaves a trail in the logs and vice versa.
 *
 * Tamper evidence: each record carries `prev` (the hash of the record before it), `hash`
 * ({@link hashAuditRecord}) and, when this process holds K8S_HEALTH_PLAN_SECRET, `mac` = HMAC of the
 * hash. The chain head is kept in `<prefix>audit:head`. Anyone can recompute the hashes (so an edit or
 * a deletion shows as the first broken link: `k8s-health audit verify`); only a holder of the secret
 * can recompute the MACs, so someone who can write Redis but not read the secret cannot rewrite the
 * chain from the edit onwards without `audit verify` (given the secret) noticing.
 */
export function createAuditLog(redis: Redis, opts: { keyPrefix: string; log?: Logger; signer?: PlanSigner }): AuditLog {
  const stream = `${opts.keyPrefix}audit`;
  const headKey = `${opts.keyPrefix}audit:head`;
  return {
    async append(e) {
      // Logged first: a Redis that cannot be written still leaves the step in the logs.
      opts.log?.info({ audit: true, ...e }, `audit ${e.event}`);
      const json = JSON.stringify(e);
      for (let attempt = 0; attempt < 1000; attempt++) {
        const prev = (await redis.get(headKey)) ?? AUDIT_GENESIS;
        const hash = hashAuditRecord(prev, json);
        const mac = opts.signer?.ready ? opts.signer.sign('audit', { hash }) : '';
        if (await redis.eval(APPEND, 2, stream, headKey, prev, String(MAX_AUDIT_EVENTS), json, hash, mac)) return;
      }
      throw new K8sHealthError('E_APPROVAL_CONTENDED', 'audit append: too much contention on the chain head, gave up');
    },
    async list({ cluster, limit = 50 } = {}) {
      const out: (AuditEvent & { id: string })[] = [];
      let end = '+';
      // Page backwards until `limit` matching events are found (a cluster filter may skip many).
      for (;;) {
        const page = (await redis.xrevrange(stream, end, '-', 'COUNT', 500)) as [string, string[]][];
        for (const [id, fields] of page) {
          if (id === end) continue;
          const raw = auditFields(fields).event;
          if (!raw) continue;
          const e = JSON.parse(raw) as AuditEvent;
          if (cluster && e.cluster !== cluster) continue;
          out.push({ id, ...e });
          if (out.length >= limit) return out;
        }
        if (page.length < 500) return out;
        end = page[page.length - 1]![0];
      }
    },
  };
}

/** A stream entry's field list (`[name, value, name, value, …]`) as a record. */
export function auditFields(fields: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) out[fields[i]!] = fields[i + 1]!;
  return out;
}
