import { K8sHealthError } from '../errors/k8s-health-error.js';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Release only our own lock (a lock that expired and was taken by another worker is left alone). */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Extend only our own lock, while its holder still works. */
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/** Default lock lifetime: a holder killed mid-post (kill -9) blocks its thread for at most this long. */
export const ALERT_LOCK_TTL_MS = 15_000;

/** The lock could not be taken in time: the notify job fails and BullMQ retries it with backoff. */
export class AlertLockTimeoutError extends K8sHealthError {
  override readonly name = 'AlertLockTimeoutError';
  declare readonly code: 'E_ALERT_LOCK_TIMEOUT';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_ALERT_LOCK_TIMEOUT', message, options);
  }
}

/**
 * Run `fn` holding the Redis lock `<keyPrefix>alert-lock:<name>` (SET NX PX with a random token),
 * so one thread is posted by one worker at a time: replies stay in order and none is posted twice.
 * The lock lives `ttlMs` (default {@link ALERT_LOCK_TTL_MS}) and is renewed every third of that while
 * `fn` runs (a slow Slack call, a 429 wait), so a holder that dies (kill -9) frees its thread within
 * `ttlMs` — the fleet's failover (docs/fleet.md) then continues the thread within its lease TTL —
 * while a live one keeps it however long it posts. Waiting for it gives up after `waitMs` (default
 * `ttlMs`) with {@link AlertLockTimeoutError}: the notify job is retried with backoff.
 */
export async function withAlertLock<T>(
  redis: Redis,
  opts: { keyPrefix: string; name: string; ttlMs?: number; waitMs?: number },
  fn: () => Promise<T>,
): Promise<T> {
  const key = `${opts.keyPrefix}alert-lock:${opts.name}`;
  const token = randomBytes(12).toString('hex');
  const ttl = opts.ttlMs ?? ALERT_LOCK_TTL_MS;
  const deadline = Date.now() + (opts.waitMs ?? ttl);
  for (;;) {
    if ((await redis.set(key, token, 'PX', ttl, 'NX')) === 'OK') break;
    if (Date.now() > deadline)
      throw new AlertLockTimeoutError(
        `alert thread ${opts.name} is locked by another worker for too long; the job will be retried`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
  const renew = setInterval(
    () => void redis.eval(RENEW_SCRIPT, 1, key, token, String(ttl)).catch(() => undefined),
    Math.max(100, Math.floor(ttl / 3)),
  );
  renew.unref();
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await redis.eval(RELEASE_SCRIPT, 1, key, token).catch(() => undefined);
  }
}
