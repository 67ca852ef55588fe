import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { startFakeSlackApi, type FakeSlackApi } from '../support/fake-slack-api.js';
import { startRedisSentinel, type RedisSentinelTopology } from '../support/start-redis-sentinel.js';
import {
  alertThreadsThroughFailover,
  approvalThroughFailover,
  parentInFlightThroughFailover,
  queuedScansThroughFailover,
  voteAndExecutionThroughFailover,
  type FailoverTopology,
} from './redis-failover-cases.js';

/**
 * The bot on a real Sentinel topology (a master, two replicas, three sentinels from Debian's
 * packages): configured only by REDIS_SENTINELS / REDIS_SENTINEL_MASTER / REDIS_PASSWORD, it scans,
 * opens alert threads, counts a two-person approval and executes the fix — and goes on through a
 * kill -9 of the master (the sentinels promote a replica; ioredis follows them). The failover cases are
 * the Redis Cluster suite's too (redis-failover-cases.ts): here every key's master is the one master.
 */
let shared: RedisSentinelTopology;
let slack: FakeSlackApi;

beforeAll(async () => {
  shared = await startRedisSentinel();
  slack = await startFakeSlackApi({ validToken: 'xoxb-sentinel' });
}, 60_000);

afterAll(async () => {
  await slack?.close();
  await shared?.stop();
});

/** The case's view of a topology: "the master holding a key" is its one master. */
function failoverTopology(t: RedisSentinelTopology): FailoverTopology {
  return {
    suite: 'redis-sentinel',
    env: t.env,
    client: () => t.client(),
    replicated: () => t.replicated(),
    killMasterOf: () => t.killMaster(),
  };
}

/** Run a failover case on a topology of its own (two kills use up a topology's replicas). */
async function onFreshTopology(run: (topo: FailoverTopology) => Promise<void>) {
  const fresh = await startRedisSentinel();
  try {
    await run(failoverTopology(fresh));
  } finally {
    await fresh.stop();
  }
}

describe('Redis Sentinel topology, in-process workers', () => {
  it('scans and alert threads through the sentinels, on through a master failover', async () => {
    await alertThreadsThroughFailover(failoverTopology(shared), { api: slack, token: 'xoxb-sentinel' });
  }, 120_000);

  it('the parent in flight at Slack when the master dies: every parent posted exactly once', async () => {
    await onFreshTopology((topo) => parentInFlightThroughFailover(topo, { api: slack, token: 'xoxb-sentinel' }));
  }, 120_000);

  it('scans queued while the scan worker is paused when the master dies: each runs once after the failover, its report stored', async () => {
    await onFreshTopology((topo) => queuedScansThroughFailover(topo));
  }, 120_000);
});

describe('Redis Sentinel topology, the built serve', () => {
  it('a two-person approval and its execution through the sentinels, with the master killed -9 after the first vote: counted once, run once', async () => {
    // The shared topology's second kill: its first replica was promoted by the case above.
    await approvalThroughFailover(failoverTopology(shared));
  }, 120_000);

  it('the vote acknowledged survives (a replica had it before the answer); the fix in flight when the master dies runs once, its result on the new master', async () => {
    await onFreshTopology((topo) => voteAndExecutionThroughFailover(topo));
  }, 150_000);
});
