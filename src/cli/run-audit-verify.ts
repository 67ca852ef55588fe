import { Redis } from 'ioredis';
import { readEnvOptions } from '../config/read-env-options.js';
import { REDIS_PREFIX } from '../jobs/queue-names.js';
import { createPlanSigner, PLAN_SECRET_ENV } from '../approvals/plan-signer.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import { verifyAuditLog } from '../store/verify-audit-log.js';
import type { CliIo } from './cli-io.js';
import { describeError } from '../errors/describe-error.js';

/**
 * `k8s-health audit verify [--json]`: walk the audit chain (store/verify-audit-log.ts). Exit 0 with
 * "intact, N records", 1 naming the first broken link, 2 when Redis cannot be read. With
 * K8S_HEALTH_PLAN_SECRET in the environment every record's MAC is checked too (else hashes only,
 * and it says so: hashes alone do not stop someone who can rewrite the whole chain).
 */
export async function runAuditVerify(opts: { json?: boolean }, io: CliIo): Promise<number> {
  const env = readEnvOptions(io.env);
  const signer = env.planSecret ? createPlanSigner(env.planSecret) : undefined;
  if (signer && !signer.ready) {
    io.stderr.write(`k8s-health audit verify: ${signer.problem}\n`);
    return 2;
  }
  const redis = new Redis(env.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const r = await verifyAuditLog(redis, { keyPrefix: REDIS_PREFIX, signer });
    if (opts.json) io.stdout.write(`${JSON.stringify(r)}\n`);
    else if (r.intact) {
      const notes = [
        r.macsChecked ? 'MACs verified' : `MACs not checked: ${PLAN_SECRET_ENV} is not set`,
        ...(r.trimmedStart ? ['older records trimmed by the stream cap'] : []),
        ...(r.unchained ? [`${r.unchained} older unchained record(s) not checked`] : []),
      ];
      io.stdout.write(`intact, ${r.records} records${r.head ? ` (head ${neutralizePlainText(r.head.slice(0, 12))})` : ''}; ${notes.join('; ')}\n`);
    } else {
      // The record id, and the hashes quoted in the reason, are read from Redis: whoever broke the
      // chain wrote them, so they must not add lines or terminal escapes to this verdict.
      io.stdout.write(`${neutralizePlainText(`broken at record ${r.broken!.id} (#${r.broken!.index} oldest first, after ${r.records} intact): ${r.broken!.reason}`)}\n`);
    }
    return r.intact ? 0 : 1;
  } catch (err) {
    io.stderr.write(`k8s-health audit verify: cannot read the audit stream from REDIS_URL ${env.redisUrl}: ${neutralizePlainText(describeError(err))}\n`);
    return 2;
  } finally {
    redis.disconnect();
  }
}
