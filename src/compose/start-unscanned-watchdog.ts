import { WebClient } from '@slack/web-api';
import type { Registry } from 'prom-client';
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import { createCommandRedis } from '../jobs/create-redis-connection.js';
import { startScanWatchdog, type ScanWatchdog } from '../jobs/start-scan-watchdog.js';
import { createChannelLimiter } from '../slack/post/create-channel-limiter.js';
import { postNotice } from '../slack/post/post-notice.js';
import type { RedisEnv } from '../config/read-env-options.js';
import type { RedisOutageReporter } from '../store/create-redis-outage-reporter.js';

/** A `worker` process's scan watchdog and what it owns (a Redis connection, a Slack client). */
export interface UnscannedWatchdog {
  watchdog: ScanWatchdog;
  /** Stop checking and drop the connection (it only reads and posts: nothing to finish). */
  close(): void;
}

/**
 * The scan watchdog of a `worker` process (jobs/start-scan-watchdog.ts; `serve` runs its own, posting
 * through its Bolt app). Every worker runs it whatever `--only` says, so clusters nobody scans show on
 * the worker's /readyz and /metrics and are announced even when no `serve` runs, or when `serve` and the
 * workers are deployed and scaled apart: the alert's SET NX key is shared by every serve and worker, so
 * each episode is posted once among them all. Without a bot token it only lists and exports. The alert
 * waits for the channel's send slot of the limiter every poster shares (one message per second per
 * channel), so a whole fleet unscanned at once does not run into Slack's rate limit.
 */
export function startUnscannedWatchdog(opts: {
  config: Config;
  redisUrl: string | RedisEnv;
  outage?: RedisOutageReporter;
  /** Redis key prefix with its trailing colon (`k8s-health:`). */
  keyPrefix: string;
  registry: Registry;
  slack?: { token?: string; apiUrl?: string };
  log: Logger;
  now?: () => number;
}): UnscannedWatchdog {
  const redis = createCommandRedis(opts.redisUrl, { outage: opts.outage });
  redis.connect().catch(() => undefined); // reconnects by itself; a check while it is down is skipped
  const token = opts.slack?.token;
  const client = token
    ? new WebClient(token, {
        ...(opts.slack?.apiUrl ? { slackApiUrl: opts.slack.apiUrl } : {}),
        retryConfig: { retries: 2 },
        timeout: 10_000,
      })
    : undefined;
  const limiter = createChannelLimiter(redis, { keyPrefix: opts.keyPrefix });
  const watchdog = startScanWatchdog({
    config: opts.config,
    redis,
    keyPrefix: opts.keyPrefix,
    registry: opts.registry,
    log: opts.log,
    now: opts.now,
    post: client ? (channel, text) => postNotice(client, channel, text, limiter) : undefined,
  });
  return {
    watchdog,
    close() {
      watchdog.stop();
      redis.disconnect();
    },
  };
}
