import { describe, expect, it } from '@jest/globals';
import { AlertLockTimeoutError, withAlertLock } from '../../src/alerts/alert-lock.js';
import { useRedis } from '../support/use-redis.js';

/**
 * The alert thread lock (one poster per thread) against a real Redis: a live holder keeps it however
 * long it works (renewed), a dead holder (it stops renewing: kill -9) frees it within its TTL, and a
 * waiter gives up with AlertLockTimeoutError when the holder keeps it longer than the wait.
 */
describe('alert thread lock (real Redis)', () => {
  const db = useRedis();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('is renewed while its holder works: nobody else gets it past its TTL', async () => {
    const order: string[] = [];
    const holder = withAlertLock(db.redis, { keyPrefix: 'l1:', name: 'c:f', ttlMs: 300 }, async () => {
      order.push('a:start');
      await sleep(1000); // more than three TTLs
      order.push('a:end');
    });
    await sleep(50);
    const waiter = withAlertLock(
      db.redis,
      { keyPrefix: 'l1:', name: 'c:f', ttlMs: 300, waitMs: 5000 },
      async () => void order.push('b'),
    );
    await Promise.all([holder, waiter]);
    expect(order).toEqual(['a:start', 'a:end', 'b']);
  });

  it('a holder that died (no renewal, lock left behind) frees the thread within the TTL', async () => {
    await db.redis.set('l2:alert-lock:c:f', 'dead-holder', 'PX', 400);
    let ran = false;
    await withAlertLock(
      db.redis,
      { keyPrefix: 'l2:', name: 'c:f', ttlMs: 400, waitMs: 3000 },
      async () => void (ran = true),
    );
    expect(ran).toBe(true);
  });

  it('a waiter gives up after waitMs with AlertLockTimeoutError; the holder is unaffected', async () => {
    const holder = withAlertLock(db.redis, { keyPrefix: 'l3:', name: 'c:f', ttlMs: 300 }, () => sleep(900));
    await sleep(50);
    await expect(
      withAlertLock(db.redis, { keyPrefix: 'l3:', name: 'c:f', ttlMs: 300, waitMs: 400 }, async () => undefined),
    ).rejects.toBeInstanceOf(AlertLockTimeoutError);
    await holder;
    expect(await db.redis.exists('l3:alert-lock:c:f')).toBe(0);
  });
});
