import { Redis } from 'ioredis';

/**
 * An ioredis connection for BullMQ. Workers and QueueEvents block on Redis and must wait out a
 * disconnect instead of failing commands (docs/development.md, "Stack notes": `maxRetriesPerRequest: null` or BullMQ's
 * constructor throws); ioredis keeps reconnecting in the background. Errors are reported through
 * /readyz, not thrown as unhandled 'error' events.
 */
export function createRedisConnection(url: string, opts: { onError?: (err: Error) => void } = {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, retryStrategy: (times) => Math.min(times * 200, 2000) });
  redis.on('error', (err: Error) => opts.onError?.(err));
  return redis;
}
