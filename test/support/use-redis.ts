import { afterAll, beforeAll } from '@jest/globals';
import { Redis } from 'ioredis';
import { startRedis, type RedisServer } from './start-redis.js';

/** The private redis-server of one describe block, and a client connected to it. */
export interface UsedRedis {
  readonly server: RedisServer;
  readonly redis: Redis;
}

/**
 * Call inside a describe: a private real redis-server (startRedis, a free loopback port) started in
 * beforeAll with one ioredis client on it; in afterAll the client is disconnected and the server stopped
 * by pid (RedisServer.stop, through signalPid). Read the fields inside tests: before beforeAll has run
 * they throw.
 */
export function useRedis(): UsedRedis {
  let server: RedisServer | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useRedis: redis-server is started in beforeAll; read it inside a test');
    return v;
  };
  return {
    get server() {
      return started(server);
    },
    get redis() {
      return started(redis);
    },
  };
}
