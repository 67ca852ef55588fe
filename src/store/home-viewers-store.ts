import type { Redis } from 'ioredis';

/**
 * Who opened the bot's App Home tab recently, so a cluster whose alerts change re-publishes
 * the Home of those users only: a small sorted set `<keyPrefix>home-viewers` (member: Slack user id,
 * score: last open in epoch ms), trimmed on every write to `maxUsers` and to `keepMs`.
 */
export interface HomeViewersStore {
  opened(user: string, at: Date): Promise<void>;
  /** Users who opened Home at or after `since`, most recent first. */
  recent(since: Date): Promise<string[]>;
}

export function createHomeViewersStore(
  redis: Redis,
  opts: { keyPrefix: string; maxUsers?: number; keepMs?: number },
): HomeViewersStore {
  const key = `${opts.keyPrefix}home-viewers`;
  const maxUsers = opts.maxUsers ?? 200;
  const keepMs = opts.keepMs ?? 24 * 3_600_000;
  return {
    async opened(user, at) {
      await redis
        .multi()
        .zadd(key, at.getTime(), user)
        .zremrangebyscore(key, '-inf', at.getTime() - keepMs)
        .zremrangebyrank(key, 0, -maxUsers - 1)
        .exec();
    },
    async recent(since) {
      return redis.zrevrangebyscore(key, '+inf', since.getTime());
    },
  };
}
