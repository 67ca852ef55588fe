import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { REPLAY_TTL_SECONDS, SIGNATURE_WINDOW_SECONDS } from './slack-request-window.js';

/** Says whether a verified Slack request body was seen before (true = replay, drop it). */
export type ReplayGuard = (body: unknown) => Promise<boolean>;

/**
 * Bolt rejects forged signatures and timestamps older than 5 minutes (create-checked-receiver.ts
 * those more than 5 minutes ahead), but accepts the same signed request again inside that window.
 * A replayed body is byte-for-byte the original (any change breaks the signature), and
 * every real Slack request differs (trigger_id, action_ts), so a Redis set of body hashes — SET NX,
 * kept at least as long as the whole window accepts a request (slack-request-window.ts; a shorter
 * `ttlSeconds` is refused) — drops replays across replicas.
 * Fails open after `timeoutMs` when Redis is slow or down: the signature is still verified, and a
 * dead Redis must not cost the incident its answer (approvals are idempotent per user anyway).
 */
export function createReplayGuard(
  redis: Redis,
  opts: {
    keyPrefix: string;
    ttlSeconds?: number;
    timeoutMs?: number;
    onError?: (err: unknown) => void;
    onReplay?: () => void;
  },
): ReplayGuard {
  const ttl = opts.ttlSeconds ?? REPLAY_TTL_SECONDS;
  if (!(ttl >= SIGNATURE_WINDOW_SECONDS)) {
    throw new RangeError(
      `replay guard ttlSeconds ${ttl} is shorter than the ${SIGNATURE_WINDOW_SECONDS} s a signed Slack request is accepted: a replay could outlive it`,
    );
  }
  return async (body) => {
    const hash = createHash('sha256')
      .update(JSON.stringify(body) ?? '')
      .digest('base64url');
    const set = redis.set(`${opts.keyPrefix}slack-seen:${hash}`, '1', 'EX', ttl, 'NX');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), opts.timeoutMs ?? 500)),
    );
    try {
      const res = await Promise.race([set, timeout]);
      if (res === 'timeout') {
        set.catch(() => undefined);
        opts.onError?.(new Error(`replay check timed out after ${opts.timeoutMs ?? 500} ms`));
        return false;
      }
      if (res !== null) return false;
      opts.onReplay?.(); // NX refused: this exact body was seen before
      return true;
    } catch (err) {
      opts.onError?.(err);
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
}
