import type { Redis } from 'ioredis';

/** A per-channel send limiter shared by every worker process (state in Redis). */
export interface ChannelLimiter {
  /** Reserve the channel's next send slot; resolves when it has come. */
  wait(channel: string): Promise<void>;
  /** Slack answered 429: no send to this channel before `ms` from now (Retry-After). */
  pause(channel: string, ms: number): Promise<void>;
}

/**
 * Reserve a slot: the key holds the next free time (Redis clock, ms); the caller gets how long to
 * sleep. Reserving (not just checking) keeps two workers from taking the same slot. BullMQ's
 * group rate limits are a Pro feature, hence this small limiter of our own.
 */
const RESERVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(now, nextFree)
local gap = tonumber(ARGV[1])
redis.call('SET', KEYS[1], at + gap, 'PX', at + gap - now + 60000)
return at - now
`;

const PAUSE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local nextFree = tonumber(redis.call('GET', KEYS[1]) or '0')
local untilMs = math.max(nextFree, now + tonumber(ARGV[1]))
redis.call('SET', KEYS[1], untilMs, 'PX', untilMs - now + 60000)
return untilMs - now
`;

/**
 * Slack allows about one message per second per channel (api.slack.com/apis/rate-limits,
 * chat.postMessage "special" tier); `intervalMs` defaults to that. Keys: `<keyPrefix>ratelimit:<channel>`.
 */
export function createChannelLimiter(
  redis: Redis,
  opts: { keyPrefix: string; intervalMs?: number; sleep?: (ms: number) => Promise<void> },
): ChannelLimiter {
  const gap = opts.intervalMs ?? 1000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const key = (channel: string) => `${opts.keyPrefix}ratelimit:${channel}`;
  return {
    async wait(channel) {
      const ms = Number(await redis.eval(RESERVE_SCRIPT, 1, key(channel), String(gap)));
      if (ms > 0) await sleep(ms);
    },
    async pause(channel, ms) {
      await redis.eval(PAUSE_SCRIPT, 1, key(channel), String(Math.max(0, Math.ceil(ms))));
    },
  };
}
