import { connectRedis, describeRedisTarget } from '../store/connect-redis.js';
import { readEnvOptions } from '../config/read-env-options.js';
import { REDIS_PREFIX } from '../jobs/queue-names.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import { createAuditLog } from '../store/audit-log.js';
import type { CliIo } from './cli-io.js';
import { describeError } from '../errors/describe-error.js';

/**
 * `k8s-health audit [--cluster NAME] [--limit N] [--json]`: the approval audit trail from the Redis
 * stream, newest first, one line per step (who, when, what, result). Exit 0, or 2 when Redis cannot
 * be read (one line naming REDIS_URL).
 */
export async function runAudit(opts: { cluster?: string; limit?: string; json?: boolean }, io: CliIo): Promise<number> {
  const limit = opts.limit === undefined ? 50 : Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1) {
    io.stderr.write(`k8s-health audit: --limit must be a positive integer (got "${opts.limit}")\n`);
    return 2;
  }
  const env = readEnvOptions(io.env);
  const redis = connectRedis(env.redis, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const events = await createAuditLog(redis, { keyPrefix: REDIS_PREFIX }).list({ cluster: opts.cluster, limit });
    for (const e of events) {
      if (opts.json) io.stdout.write(`${JSON.stringify(e)}\n`);
      // Details quote dry-run errors and plan labels from the cluster: one line, no terminal escapes.
      else
        io.stdout.write(
          `${neutralizePlainText(`${e.at}  ${e.cluster}  ${e.requestId}  ${String(e.event).padEnd(11)} ${e.action}${e.user ? `  by ${e.user}` : ''}${e.detail ? `  — ${e.detail}` : ''}`)}\n`,
        );
    }
    if (!events.length) io.stderr.write(`no audit events${opts.cluster ? ` for cluster ${opts.cluster}` : ''}\n`);
    return 0;
  } catch (err) {
    io.stderr.write(
      `k8s-health audit: cannot read the audit stream from Redis (${describeRedisTarget(env.redis)}): ${neutralizePlainText(describeError(err))}\n`,
    );
    return 2;
  } finally {
    redis.disconnect();
  }
}
