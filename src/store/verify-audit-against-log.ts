import type { AuditRecordRef, AuditVerifyResult } from './verify-audit-log.js';

/** What the log lines said about the Redis trail. */
export interface AuditLogCheck {
  ok: boolean;
  /** Audit log lines with a chain position (stored records) read from the file. */
  logRecords: number;
  /** Of those, how many were found in Redis with the same hash. */
  matched: number;
  /** Why the Redis trail does not match the log (the first difference). */
  reason?: string;
}

/**
 * Prove the Redis trail against the log pipeline's copy: every `audit: true` JSON line the bot wrote
 * for a stored record (`auditChain`, `auditSeq`, `auditHash`) must be in Redis with the same hash —
 * unless the stream's cap trimmed it (older than the oldest record kept, in the same chain). This
 * catches what Redis alone cannot show: the newest records deleted together with an older signed
 * head put back, and a wiped or replaced trail (log records of a chain Redis does not hold).
 * Lines may carry a prefix (a timestamp from `kubectl logs --timestamps`); anything else is skipped.
 */
export function verifyAuditAgainstLog(
  logText: string,
  redis: { result: AuditVerifyResult; records: readonly AuditRecordRef[] },
): AuditLogCheck {
  const stored = new Map(redis.records.map((r) => [`${r.chain}#${r.seq}`, r.hash]));
  const check: AuditLogCheck = { ok: true, logRecords: 0, matched: 0 };
  const fail = (reason: string): AuditLogCheck => ({ ...check, ok: false, reason });
  for (const line of logText.split('\n')) {
    const at = line.indexOf('{');
    if (at < 0) continue;
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line.slice(at)) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (
      rec.audit !== true ||
      typeof rec.auditChain !== 'string' ||
      typeof rec.auditSeq !== 'number' ||
      typeof rec.auditHash !== 'string'
    )
      continue;
    check.logRecords += 1;
    const {
      auditChain: chain,
      auditSeq: seq,
      auditHash: hash,
    } = rec as { auditChain: string; auditSeq: number; auditHash: string };
    if (chain !== redis.result.chain)
      return fail(
        `the log has record #${seq} of chain ${chain.slice(0, 12)}, which Redis does not hold (it holds ${redis.result.chain ? `chain ${redis.result.chain.slice(0, 12)}` : 'no chain'}): the trail was wiped or replaced`,
      );
    if (seq > (redis.result.lastSeq ?? 0))
      return fail(
        `the log has record #${seq}, Redis ends at #${redis.result.lastSeq ?? 0}: records were removed from the end (and an older head put back)`,
      );
    const held = stored.get(`${chain}#${seq}`);
    if (held === undefined) {
      if (redis.result.trimmedStart && seq < (redis.result.firstSeq ?? 1)) continue; // trimmed by the cap
      return fail(`the log has record #${seq}, Redis does not: it was removed`);
    }
    if (held !== hash)
      return fail(`record #${seq} in Redis differs from the one logged when it was written: it was replaced`);
    check.matched += 1;
  }
  return check;
}
