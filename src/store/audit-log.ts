import { createHash } from 'node:crypto';
import { taggedKey } from './redis-prefix.js';
import type { Redis } from 'ioredis';
import type { AuditEvent, AuditLog } from '../approvals/approval-stores.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import type { Logger } from '../log/logger.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import {
  hashAuditRecordV2,
  MAX_AUDIT_EVENTS,
  newAuditChainId,
  parseAuditHead,
  signAuditHead,
  signAuditRecord,
} from './audit-chain.js';

export type { AuditEvent, AuditLog };

export { MAX_AUDIT_EVENTS } from './audit-chain.js';

/** `prev` of the first record of a chain. */
export const AUDIT_GENESIS = '';

/**
 * The link of a record in the older format (no sequence number, unsigned head): sha256 of the
 * previous record's hash and this record's event JSON. Kept to read streams archived from it.
 */
export function hashAuditRecord(prev: string, eventJson: string): string {
  return createHash('sha256').update(`${prev}\n${eventJson}`).digest('hex');
}

/**
 * Append only if the head is still exactly ARGV[1] (KEYS[2]; absent = ''), then move the head, in one
 * atomic step: two concurrent appends can never both take the same sequence number (a fork); the
 * loser re-reads the head and tries again. The cap is exact, so the oldest record kept follows from
 * the head alone. A head in the older format (a bare hash) has its stream renamed to KEYS[3] first:
 * the new chain starts empty, the old records stay readable there. Returns the new entry id, or nil.
 */
const APPEND = `
local head = redis.call('GET', KEYS[2])
if not head then head = '' end
if head ~= ARGV[1] then return false end
if string.len(head) == 64 and string.match(head, '^%x+$') and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('RENAME', KEYS[1], KEYS[3])
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], '*', 'event', ARGV[3], 'chain', ARGV[4], 'seq', ARGV[5], 'prev', ARGV[6], 'hash', ARGV[7], 'mac', ARGV[8])
redis.call('SET', KEYS[2], ARGV[9])
return id`;

/**
 * Every step goes to the Redis stream `<prefix>audit` AND to the structured log as one JSON line
 * (`audit: true`, with its chain, sequence number and hash once stored), so a lost or rewritten
 * Redis still leaves a trail that `k8s-health audit verify --log FILE` checks the stream against.
 *
 * Tamper evidence: the chain format of store/audit-chain.ts — sequence numbers, links, MACs over
 * each record and over the head — checked by `k8s-health audit verify`. Someone who can write Redis
 * but not read K8S_HEALTH_PLAN_SECRET cannot change, insert, remove or cut records at either end
 * without verify (given the secret) noticing, except by putting back an older signed head together
 * with the records up to it: that shows only against the log lines.
 */
export function createAuditLog(
  redis: Redis,
  opts: { keyPrefix: string; log?: Logger; signer?: PlanSigner; cap?: number },
): AuditLog {
  const stream = taggedKey(opts.keyPrefix, 'audit', 'audit');
  const headKey = taggedKey(opts.keyPrefix, 'audit', 'audit:head');
  const archiveKey = taggedKey(opts.keyPrefix, 'audit', 'audit:v1');
  const cap = opts.cap ?? MAX_AUDIT_EVENTS;
  return {
    async append(e) {
      const json = JSON.stringify(e);
      try {
        for (let attempt = 0; attempt < 1000; attempt++) {
          const raw = (await redis.get(headKey)) ?? '';
          const head = parseAuditHead(raw);
          // No head (a new Redis, or one whose head was removed) starts a new chain: verify reports
          // the break, and the log lines show what came before.
          const chain = head?.chain ?? newAuditChainId();
          const seq = head ? head.seq + 1 : 1;
          const prev = head?.hash ?? AUDIT_GENESIS;
          const hash = hashAuditRecordV2({ chain, seq, prev, event: json });
          const mac = signAuditRecord(opts.signer, { chain, seq, prev, hash });
          const next = signAuditHead(opts.signer, { chain, seq, hash, cap });
          if (
            await redis.eval(
              APPEND,
              3,
              stream,
              headKey,
              archiveKey,
              raw,
              String(cap),
              json,
              chain,
              String(seq),
              prev,
              hash,
              mac,
              JSON.stringify(next),
            )
          ) {
            opts.log?.info(
              { audit: true, ...e, auditChain: chain, auditSeq: seq, auditHash: hash },
              `audit ${e.event}`,
            );
            return;
          }
        }
        throw new K8sHealthError(
          'E_APPROVAL_CONTENDED',
          'audit append: too much contention on the chain head, gave up',
        );
      } catch (err) {
        // A Redis that cannot be written still leaves the step in the logs.
        opts.log?.info({ audit: true, ...e, auditStored: false }, `audit ${e.event} (not stored in Redis)`);
        throw err;
      }
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
