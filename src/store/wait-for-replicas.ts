import type { Cluster, Redis } from 'ioredis';

/** How long the replica count of a connection is trusted before INFO is asked again. */
const RECHECK_MS = 10_000;
const known = new WeakMap<Redis, { replicas: number; at: number }>();

/**
 * After a write that must survive a failover (an approval request created, a vote counted, an
 * execution claimed): wait until at least one replica has it (WAIT 1), when the master has replicas.
 * Replication is asynchronous, so without this a master killed right after acknowledging a vote can
 * take it along, and a claim lost that way would let the promoted replica run the fix again. A
 * standalone Redis (no replica) costs one INFO every 10 s and no wait; a replica that does not answer
 * within `timeoutMs` only delays the answer (the write stands on the master).
 */
export async function waitForReplicas(redis: Redis, timeoutMs = 1000): Promise<void> {
  // On a Redis Cluster the write went to its slot's master over that node's own connection, and WAIT
  // counts the writes of the connection it is sent on: each master's connection is asked, and those
  // that did not write answer at once.
  const cluster = redis as unknown as Cluster;
  const servers: Redis[] = cluster.isCluster ? cluster.nodes('master') : [redis];
  await Promise.all(servers.map((server) => withDeadline(waitOn(server, timeoutMs), timeoutMs + 1000)));
}

/**
 * WAIT bounds its wait on the server, not a connection whose server is gone without closing it (a host
 * lost rather than a process killed): no reply comes until TCP gives up, minutes later. The wait is given
 * up after its deadline, and the write stands on the master as before.
 */
async function withDeadline(p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitOn(redis: Redis, timeoutMs: number): Promise<void> {
  try {
    let k = known.get(redis);
    if (!k || Date.now() - k.at > RECHECK_MS) {
      const info = await redis.info('replication');
      k = { replicas: Number(/connected_slaves:(\d+)/.exec(info)?.[1] ?? 0), at: Date.now() };
      known.set(redis, k);
    }
    if (k.replicas > 0) await redis.wait(1, timeoutMs);
  } catch {
    // INFO or WAIT refused (some managed Redis): the write stands on the master as before.
  }
}
