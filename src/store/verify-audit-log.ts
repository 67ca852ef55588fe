import type { Redis } from 'ioredis';
import type { PlanSigner } from '../approvals/plan-signer.js';
import { AUDIT_GENESIS, auditFields, hashAuditRecord } from './audit-log.js';

/** What `k8s-health audit verify` found. */
export interface AuditVerifyResult {
  intact: boolean;
  /** Chained records checked. */
  records: number;
  /** Records from before the chain existed, all at the start of the stream (not checked). */
  unchained: number;
  /** The oldest chained record links to one the stream cap (MAXLEN) trimmed: its own `prev` cannot be checked. */
  trimmedStart: boolean;
  /** MACs were checked with K8S_HEALTH_PLAN_SECRET (false: hashes only). */
  macsChecked: boolean;
  /** Hash of the newest record. */
  head?: string;
  /** The first broken link: the record where the chain stops holding, and why. */
  broken?: { id: string; index: number; reason: string };
}

/**
 * Walk the audit stream oldest first and check every link (store/audit-log.ts): each record's hash is
 * sha256(prev + its event JSON), each `prev` is the hash of the record before it, the head key names
 * the newest record's hash, and — given a ready signer — each MAC verifies. Reports the FIRST record
 * where that fails: an edited record fails its own hash; a removed one breaks the next record's
 * `prev`; records removed from the end break the head; a chain rewritten without the secret fails
 * the MACs. Records from before the chain existed may only precede it.
 */
export async function verifyAuditLog(redis: Redis, opts: { keyPrefix: string; signer?: PlanSigner }): Promise<AuditVerifyResult> {
  const stream = `${opts.keyPrefix}audit`;
  const macsChecked = !!opts.signer?.ready;
  const result: AuditVerifyResult = { intact: true, records: 0, unchained: 0, trimmedStart: false, macsChecked };
  const fail = (id: string, index: number, reason: string): AuditVerifyResult => ({ ...result, intact: false, broken: { id, index, reason } });
  let prev: string | undefined;
  let index = 0;
  let start = '-';
  for (;;) {
    const page = (await redis.xrange(stream, start, '+', 'COUNT', 1000)) as [string, string[]][];
    for (const [id, raw] of page) {
      index += 1;
      const f = auditFields(raw);
      if (f.hash === undefined) {
        if (prev !== undefined) return fail(id, index, 'record carries no chain hash after the chain began (inserted or rewritten)');
        result.unchained += 1;
        continue;
      }
      if (prev === undefined) result.trimmedStart = f.prev !== AUDIT_GENESIS;
      else if (f.prev !== prev) return fail(id, index, `its prev ${short(f.prev)} is not the hash of the record before it (${short(prev)}): a record was removed or inserted before it`);
      if (hashAuditRecord(f.prev ?? '', f.event ?? '') !== f.hash) return fail(id, index, 'its content does not match its hash: the record was changed');
      if (macsChecked && !opts.signer!.verify('audit', { hash: f.hash }, f.mac)) {
        return fail(id, index, f.mac ? 'its MAC does not verify with K8S_HEALTH_PLAN_SECRET: the chain was rewritten from here by someone without the secret' : 'it has no MAC: written by a process without K8S_HEALTH_PLAN_SECRET, or rewritten');
      }
      prev = f.hash;
      result.records += 1;
    }
    if (page.length < 1000) break;
    start = `(${page[page.length - 1]![0]}`;
  }
  result.head = prev;
  const head = await redis.get(`${opts.keyPrefix}audit:head`);
  if ((head ?? undefined) !== prev) {
    return fail('(end)', index + 1, `the chain head ${short(head ?? '<none>')} is not the newest record's hash ${short(prev ?? '<none>')}: records were removed from the end`);
  }
  return result;
}

function short(hash: string | undefined): string {
  return hash ? `${hash.slice(0, 12)}…` : '<genesis>';
}
