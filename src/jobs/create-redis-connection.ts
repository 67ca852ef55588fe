import type { Redis, RedisOptions } from 'ioredis';
import type { RedisEnv } from '../config/read-env-options.js';
import { connectRedis } from '../store/connect-redis.js';
import type { RedisOutageReporter } from '../store/create-redis-outage-reporter.js';

/**
 * An ioredis connection for BullMQ. Workers and QueueEvents block on Redis and must wait out a
 * disconnect instead of failing commands (docs/development.md, "Stack notes": `maxRetriesPerRequest: null` or BullMQ's
 * constructor throws); ioredis keeps reconnecting in the background. Errors are reported through
 * /readyz and the process's outage reporter, never thrown as unhandled 'error' events.
 */
export function createRedisConnection(
  url: string | RedisEnv,
  opts: { onError?: (err: Error) => void; outage?: RedisOutageReporter } = {},
): Redis {
  return watchRedis(
    connectRedis(url, {
      maxRetriesPerRequest: null,
      enableReadyCheck: true,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    }),
    opts,
  );
}

/**
 * A client of the bot's Redis with commands that fail fast instead of waiting out an outage (serve's
 * command path: a Slack request must be answered, not left hanging).
 */
export function createCommandRedis(
  url: string | RedisEnv,
  opts: { outage?: RedisOutageReporter; redis?: RedisOptions } = {},
): Redis {
  return watchRedis(
    connectRedis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      retryStrategy: (times) => Math.min(times * 200, 2000),
      ...opts.redis,
    }),
    opts,
  );
}

/**
 * Every client gets an 'error' listener (without one ioredis prints "[ioredis] Unhandled error event"
 * with a stack trace at every retry), and so does every duplicate made of it — by us or inside
 * BullMQ, whose workers duplicate the connection they are given for their blocking commands.
 */
export function watchRedis(
  redis: Redis,
  opts: { onError?: (err: Error) => void; outage?: RedisOutageReporter },
): Redis {
  redis.on('error', (err: Error) => {
    opts.onError?.(err);
    opts.outage?.error(err);
  });
  redis.on('ready', () => opts.outage?.ready());
  // A Cluster's duplicate takes (startupNodes, options), a Redis's (options): passed through as given.
  const duplicate = redis.duplicate.bind(redis) as (...args: unknown[]) => Redis;
  redis.duplicate = ((...args: unknown[]) => watchRedis(duplicate(...args), opts)) as Redis['duplicate'];
  return redis;
}
