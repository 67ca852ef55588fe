import type { Redis } from 'ioredis';
import { taggedKey } from './redis-prefix.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import { auditFields } from './audit-log.js';
import { AUDIT_GENESIS } from './audit-log.js';
import {
  hashAuditRecordV2,
  oldestKeptSeq,
  parseAuditHead,
  verifyAuditHeadMac,
  verifyAuditRecordMac,
  type AuditHead,
} from './audit-chain.js';

/** One stored record, as `audit verify --log` compares it with the log lines. */
export interface AuditRecordRef {
  chain: string;
  seq: number;
  hash: string;
}

/** What `k8s-health audit verify` found. */
export interface AuditVerifyResult {
  intact: boolean;
  /** Records checked. */
  records: number;
  /** The oldest records were trimmed by the stream's cap (exactly as many as the head says): not a break. */
  trimmedStart: boolean;
  /** MACs (records and head) were checked with K8S_HEALTH_PLAN_SECRET (false: hashes and links only). */
  macsChecked: boolean;
  /** The chain id, and the oldest and newest sequence numbers held. */
  chain?: string;
  firstSeq?: number;
  lastSeq?: number;
  /** Hash of the newest record. */
  head?: string;
  /** The first broken link: the record where the chain stops holding, and why. */
  broken?: { id: string; index: number; reason: string };
}

/**
 * Walk the audit stream oldest first against its head (store/audit-chain.ts) and report the FIRST
 * place where it does not hold:
 * - no head and no records: the trail was wiped (or nothing was ever audited on this Redis);
 * - a record without chain fields (unchained), of another chain, or whose sequence number skips;
 * - an edited record (its hash), a removed or inserted one (the next record's `prev` and number);
 * - records cut from the start: the oldest is newer than the head's number and cap allow;
 * - records cut from the end: the newest is not the one the head names;
 * - given the secret: a record or head MAC that does not verify (a chain recomputed without it).
 * `records` lists what was read, for the log comparison (verify-audit-against-log.ts).
 */
export async function verifyAuditLog(
  redis: Redis,
  opts: { keyPrefix: string; signer?: PlanSigner; records?: AuditRecordRef[] },
): Promise<AuditVerifyResult> {
  const stream = taggedKey(opts.keyPrefix, 'audit', 'audit');
  const macsChecked = !!opts.signer?.ready;
  const result: AuditVerifyResult = { intact: true, records: 0, trimmedStart: false, macsChecked };
  const fail = (id: string, index: number, reason: string): AuditVerifyResult => ({
    ...result,
    intact: false,
    broken: { id, index, reason },
  });
  const rawHead = await redis.get(taggedKey(opts.keyPrefix, 'audit', 'audit:head'));
  const head = parseAuditHead(rawHead);
  const length = await redis.xlen(stream);
  if (!rawHead && length === 0)
    return fail(
      '(head)',
      0,
      'no audit records and no head in Redis: the trail was wiped, or nothing was ever audited against this Redis (compare with --log)',
    );
  if (!head)
    return fail(
      '(head)',
      0,
      rawHead
        ? 'the head is not a signed chain head (removed, replaced, or from a version before signed heads with no record since)'
        : 'the head was removed',
    );
  result.chain = head.chain;
  let prev: { seq: number; hash: string } | undefined;
  let index = 0;
  let start = '-';
  for (;;) {
    const page = (await redis.xrange(stream, start, '+', 'COUNT', 1000)) as [string, string[]][];
    for (const [id, raw] of page) {
      index += 1;
      const f = auditFields(raw);
      const seq = Number(f.seq);
      if (f.hash === undefined || f.chain === undefined || !Number.isSafeInteger(seq) || f.event === undefined)
        return fail(id, index, 'record carries no chain fields (chain, seq, hash): unchained, inserted or rebuilt');
      if (f.chain !== head.chain)
        return fail(
          id,
          index,
          `record belongs to chain ${short(f.chain)}, the head to ${short(head.chain)}: the trail was restarted or rebuilt`,
        );
      if (!prev) {
        const oldest = oldestKeptSeq(head);
        if (seq === 1 && f.prev !== AUDIT_GENESIS)
          return fail(id, index, 'record #1 links to a predecessor: records were inserted before it');
        if (seq !== 1 && seq !== oldest)
          return fail(
            id,
            index,
            `the oldest record is #${seq}, but with head #${head.seq} and cap ${head.cap} it must be #${oldest}: records were removed from the start`,
          );
        result.trimmedStart = seq > 1;
        result.firstSeq = seq;
      } else {
        if (seq !== prev.seq + 1)
          return fail(
            id,
            index,
            `its number #${seq} does not follow #${prev.seq}: records were removed or inserted before it`,
          );
        if (f.prev !== prev.hash)
          return fail(
            id,
            index,
            `its prev ${short(f.prev)} is not the hash of the record before it (${short(prev.hash)}): a record was removed or inserted before it`,
          );
      }
      if (hashAuditRecordV2({ chain: f.chain, seq, prev: f.prev ?? '', event: f.event }) !== f.hash)
        return fail(id, index, 'its content does not match its hash: the record was changed');
      if (
        macsChecked &&
        !verifyAuditRecordMac(opts.signer!, { chain: f.chain, seq, prev: f.prev ?? '', hash: f.hash }, f.mac)
      ) {
        return fail(
          id,
          index,
          f.mac
            ? 'its MAC does not verify with K8S_HEALTH_PLAN_SECRET: the chain was rewritten from here by someone without the secret'
            : 'it has no MAC: written by a process without K8S_HEALTH_PLAN_SECRET, or rewritten',
        );
      }
      opts.records?.push({ chain: f.chain, seq, hash: f.hash });
      prev = { seq, hash: f.hash };
      result.records += 1;
      result.lastSeq = seq;
      result.head = f.hash;
    }
    if (page.length < 1000) break;
    start = `(${page[page.length - 1]![0]}`;
  }
  if (macsChecked && !verifyAuditHeadMac(opts.signer!, head))
    return fail(
      '(head)',
      index + 1,
      "the head's MAC does not verify with K8S_HEALTH_PLAN_SECRET: it was written by someone without the secret",
    );
  if (!prev || prev.seq !== head.seq || prev.hash !== head.hash) {
    return fail(
      '(end)',
      index + 1,
      `the head names record #${head.seq} (${short(head.hash)}) but the newest record is ${prev ? `#${prev.seq} (${short(prev.hash)})` : 'none'}: records were removed from the end`,
    );
  }
  return result;
}

/** The head as verify read it (for --log: which chain Redis holds, up to which number). */
export type { AuditHead };

function short(hash: string | undefined): string {
  return hash ? `${hash.slice(0, 12)}…` : '<genesis>';
}
