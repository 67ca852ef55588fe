import type { Cluster, Redis } from 'ioredis';

/**
 * Every key matching `match`, sorted. SCAN walks one server's keyspace: on a Redis Cluster (an ioredis
 * `Cluster` passed as a `Redis`, store/connect-redis.ts) each master is walked in turn, so no key is
 * missed whichever slot it hashed to.
 */
export async function scanKeys(redis: Redis, match: string): Promise<string[]> {
  const cluster = redis as unknown as Cluster;
  const servers: Redis[] = cluster.isCluster ? cluster.nodes('master') : [redis];
  const out = new Set<string>();
  for (const server of servers) {
    let cursor = '0';
    do {
      const [next, keys] = await server.scan(cursor, 'MATCH', match, 'COUNT', 500);
      for (const k of keys) out.add(k);
      cursor = next;
    } while (cursor !== '0');
  }
  return [...out].sort();
}
