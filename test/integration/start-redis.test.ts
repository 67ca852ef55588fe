import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from '../support/start-redis.js';

describe('private redis-server for tests', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('serves on its own loopback port, not the shared 6379', async () => {
    expect(redis.port).not.toBe(6379);
    const client = new Redis(redis.url);
    await client.set('k', 'v');
    expect(await client.get('k')).toBe('v');
    client.disconnect();
  });
});
