import { K8sHealthError } from '../errors/k8s-health-error.js';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Release only our own lock (a lock that expired and was taken by another worker is left alone). */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

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
 * The lock expires after `ttlMs` should its holder die.
 */
export async function withAlertLock<T>(redis: Redis, opts: { keyPrefix: string; name: string; ttlMs?: number; waitMs?: number }, fn: () => Promise<T>): Promise<T> {
  const key = `${opts.keyPrefix}alert-lock:${opts.name}`;
  const token = randomBytes(12).toString('hex');
  const ttl = opts.ttlMs ?? 120_000;
  const deadline = Date.now() + (opts.waitMs ?? ttl);
  for (;;) {
    if ((await redis.set(key, token, 'PX', ttl, 'NX')) === 'OK') break;
    if (Date.now() > deadline) throw new AlertLockTimeoutError(`alert thread ${opts.name} is locked by another worker for too long; the job will be retried`);
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return await fn();
  } finally {
    await redis.eval(RELEASE_SCRIPT, 1, key, token).catch(() => undefined);
  }
}
