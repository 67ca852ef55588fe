import { describe, expect, it } from '@jest/globals';
import { pidAlive } from '../support/signal-pid.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { startTogether } from '../support/start-together.js';

describe('startTogether', () => {
  it('stops the services that started when another one fails, and rethrows its error', async () => {
    let redis: RedisServer | undefined;
    const failing = async (): Promise<RedisServer> => {
      throw new Error('etcd test cluster has no common leader');
    };
    await expect(
      startTogether<[RedisServer, RedisServer]>([async () => (redis = await startRedis()), failing], (s) => s.stop()),
    ).rejects.toThrow('no common leader');
    expect(redis).toBeDefined();
    // stop() waits for the process to exit: nothing is left running.
    expect(pidAlive(redis!.pid)).toBe(false);
  });

  it('returns every service in order when all start', async () => {
    const [a, b] = await startTogether<[RedisServer, RedisServer]>([() => startRedis(), () => startRedis()], (s) =>
      s.stop(),
    );
    try {
      expect(a.port).not.toBe(b.port);
      expect(pidAlive(a.pid) && pidAlive(b.pid)).toBe(true);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
