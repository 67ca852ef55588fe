import { connectRedis, describeRedisTarget } from '../store/connect-redis.js';
import { readEnvOptions } from '../config/read-env-options.js';
import { REDIS_PREFIX } from '../store/redis-prefix.js';
import { buildTimeline } from '../timeline/build-timeline.js';
import { createAlertStateStore } from '../alerts/alert-state-store.js';
import { createAuditLog } from '../store/audit-log.js';
import { createRedisBaselineStore } from '../store/baseline-store.js';
import { describeError } from '../errors/describe-error.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import type { CliIo } from './cli-io.js';
import { parseSince } from './parse-since.js';
import { pickCluster, resolveConfig } from './resolve-config.js';

/**
 * `k8s-health timeline <cluster> [--since DURATION|ISO] [--config FILE]`: a Markdown incident
 * timeline of one cluster from what the bot keeps in Redis ($REDIS_URL) — the alert state (findings first
 * seen, changed, resolved), the "what changed since last healthy" log, and the approval audit trail (who
 * proposed, approved, ran what, with results) — rendered by report/render-timeline.ts. With a config file
 * (--config, $K8S_HEALTH_CONFIG or config/config.yaml) the cluster must be one of its clusters.
 * Exit 0; 2 on bad usage or when Redis cannot be read (one line naming REDIS_URL).
 */
export async function runTimeline(
  cluster: string,
  opts: { since?: string; config?: string },
  io: CliIo,
): Promise<number> {
  const now = (io.now ?? (() => new Date()))();
  const since = opts.since === undefined ? undefined : parseSince(opts.since, now);
  const { config, file } = await resolveConfig(opts.config, io.env, false);
  // With fleets the cluster may be a discovered one (docs/fleet.md): Redis decides whether it has a timeline.
  if (file && !config.fleets.length) pickCluster(config, cluster, file);
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
    const sources = {
      alerts: createAlertStateStore(redis, { keyPrefix: REDIS_PREFIX }),
      baselines: createRedisBaselineStore(redis, { keyPrefix: REDIS_PREFIX }),
      audit: createAuditLog(redis, { keyPrefix: REDIS_PREFIX }),
    };
    io.stdout.write(await buildTimeline(sources, cluster, { now, ...(since ? { since } : {}) }));
    return 0;
  } catch (err) {
    io.stderr.write(
      `k8s-health timeline: cannot read the bot's records from Redis (${describeRedisTarget(env.redis)}): ${neutralizePlainText(describeError(err))}\n`,
    );
    return 2;
  } finally {
    redis.disconnect();
  }
}
