import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import { redactRedisUrl } from './redact-redis-url.js';

/** Where Redis is (config/read-env-options.ts RedisEnv, or just a URL: tests, the sandbox). */
export interface RedisTarget {
  url: string;
  sentinels?: { host: string; port: number }[];
  sentinelMaster?: string;
  username?: string;
  password?: string;
  sentinelPassword?: string;
  tlsCaFile?: string;
}

/** The address log lines and Slack may show: the URL redacted, or the sentinels and master group; never a password. */
export function describeRedisTarget(target: string | RedisTarget): string {
  if (typeof target === 'string') return redactRedisUrl(target);
  if (target.sentinels?.length) return `sentinel master "${target.sentinelMaster}" via ${target.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
  return redactRedisUrl(target.url);
}

/**
 * A new ioredis client for the target with `extra` options (retry policy, lazyConnect…). A Sentinel
 * topology asks the sentinels for the current master and follows failovers by itself (ioredis), so
 * everything above sees one `Redis` whatever the topology. REDIS_USERNAME / REDIS_PASSWORD override the
 * URL's; REDIS_TLS_CA_FILE turns TLS on (to the sentinels too) trusting that CA.
 */
export function connectRedis(target: string | RedisTarget, extra: RedisOptions = {}): Redis {
  if (typeof target === 'string') return new Redis(target, extra);
  const auth: RedisOptions = {
    ...(target.username ? { username: target.username } : {}),
    ...(target.password ? { password: target.password } : {}),
  };
  const tls = target.tlsCaFile ? { tls: { ca: readFileSync(target.tlsCaFile) } } : {};
  if (target.sentinels?.length) {
    return new Redis({
      sentinels: target.sentinels,
      name: target.sentinelMaster,
      ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
      ...auth,
      ...tls,
      ...(target.tlsCaFile ? { enableTLSForSentinelMode: true, sentinelTLS: { ca: readFileSync(target.tlsCaFile) } } : {}),
      ...extra,
    });
  }
  return new Redis(target.url, { ...auth, ...tls, ...extra });
}
