import { readFileSync } from 'node:fs';
import { connectRedis, describeRedisTarget } from '../store/connect-redis.js';
import { readEnvOptions } from '../config/read-env-options.js';
import { REDIS_PREFIX } from '../jobs/queue-names.js';
import { createPlanSigner, PLAN_SECRET_ENV } from '../approvals/plan-signer.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import { verifyAuditLog, type AuditRecordRef } from '../store/verify-audit-log.js';
import { verifyAuditAgainstLog } from '../store/verify-audit-against-log.js';
import type { CliIo } from './cli-io.js';
import { describeError } from '../errors/describe-error.js';

/**
 * `k8s-health audit verify [--json] [--log FILE]`: walk the audit chain (store/verify-audit-log.ts),
 * and with --log compare it with the bot's `audit: true` log lines (store/verify-audit-against-log.ts).
 * Exit 0 with "intact, N records", 1 naming the first broken link or difference, 2 when Redis or the
 * file cannot be read. With
 * K8S_HEALTH_PLAN_SECRET in the environment every record's MAC is checked too (else hashes only,
 * and it says so: hashes alone do not stop someone who can rewrite the whole chain).
 */
export async function runAuditVerify(opts: { json?: boolean; log?: string }, io: CliIo): Promise<number> {
  const env = readEnvOptions(io.env);
  const signer = env.planSecret ? createPlanSigner(env.planSecret) : undefined;
  if (signer && !signer.ready) {
    io.stderr.write(`k8s-health audit verify: ${signer.problem}\n`);
    return 2;
  }
  let logText: string | undefined;
  if (opts.log) {
    try {
      logText = readFileSync(opts.log, 'utf8');
    } catch (err) {
      io.stderr.write(
        `k8s-health audit verify: cannot read --log ${neutralizePlainText(opts.log)}: ${neutralizePlainText(describeError(err))}\n`,
      );
      return 2;
    }
  }
  const redis = connectRedis(env.redis, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const records: AuditRecordRef[] = [];
    const r = await verifyAuditLog(redis, { keyPrefix: REDIS_PREFIX, signer, records });
    // The log proves what Redis alone cannot: records cut from the end with an older head put back, a wipe.
    const logCheck = logText === undefined ? undefined : verifyAuditAgainstLog(logText, { result: r, records });
    const intact = r.intact && (logCheck?.ok ?? true);
    if (opts.json) io.stdout.write(`${JSON.stringify({ ...r, intact, ...(logCheck ? { log: logCheck } : {}) })}\n`);
    else if (r.intact && logCheck && !logCheck.ok) {
      io.stdout.write(
        `${neutralizePlainText(`does not match the log (${r.records} records intact in Redis, ${logCheck.matched} of ${logCheck.logRecords} logged records found): ${logCheck.reason}`)}\n`,
      );
    } else if (r.intact) {
      const notes = [
        r.macsChecked ? 'MACs verified' : `MACs not checked: ${PLAN_SECRET_ENV} is not set`,
        ...(r.trimmedStart ? [`records before #${r.firstSeq} trimmed by the stream cap`] : []),
        logCheck ? `all ${logCheck.logRecords} logged records found` : 'not compared with the log (--log FILE)',
      ];
      io.stdout.write(
        `intact, ${r.records} records${r.head ? ` (head #${r.lastSeq} ${neutralizePlainText(r.head.slice(0, 12))})` : ''}; ${notes.join('; ')}\n`,
      );
    } else {
      // The record id, and the hashes quoted in the reason, are read from Redis: whoever broke the
      // chain wrote them, so they must not add lines or terminal escapes to this verdict.
      io.stdout.write(
        `${neutralizePlainText(`broken at record ${r.broken!.id} (#${r.broken!.index} oldest first, after ${r.records} intact): ${r.broken!.reason}`)}\n`,
      );
    }
    return intact ? 0 : 1;
  } catch (err) {
    io.stderr.write(
      `k8s-health audit verify: cannot read the audit stream from Redis (${describeRedisTarget(env.redis)}): ${neutralizePlainText(describeError(err))}\n`,
    );
    return 2;
  } finally {
    redis.disconnect();
  }
}
