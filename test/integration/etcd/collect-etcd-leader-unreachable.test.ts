import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectEtcd } from '../../../src/cluster/collect-etcd.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';

// Seed S0 (CAPV "etcd invalid state"): followers still point at a leader that no longer answers.
// A long election timeout keeps the paused leader "leader" in the followers' eyes while we probe.
describe('collectEtcd with an unreachable (paused) leader', () => {
  let cluster: EtcdTestCluster;
  let leaderIndex = -1;
  beforeAll(async () => { cluster = await startEtcdCluster({ size: 3, electionTimeoutMs: 20000, heartbeatMs: 2000 }); });
  afterAll(async () => {
    if (leaderIndex >= 0) cluster.resume(leaderIndex);
    await cluster?.stopAll();
  });
  const probe = () => collectEtcd({ endpoints: cluster.endpoints, timeoutMs: 1500 });

  it('followers still name the paused leader; its endpoint is unhealthy and left out of status', async () => {
    const before = await probe();
    const leaderId = before.etcd!.endpoints[0]!.leader!;
    leaderIndex = before.etcd!.endpoints.findIndex((e) => e.memberId === leaderId);
    expect(leaderIndex).toBeGreaterThanOrEqual(0);
    const leaderUrl = cluster.endpoints[leaderIndex]!;

    cluster.pause(leaderIndex);
    for (let round = 0; round < 2; round++) {
      // Second round: a repeated probe after a timeout still reaches the members (no broken circuit).
      const { etcd, partial } = await probe();
      expect(etcd!.endpoints.map((e) => e.endpoint)).toEqual(cluster.endpoints.filter((e) => e !== leaderUrl));
      for (const follower of etcd!.endpoints) {
        expect(follower.leader).toBe(leaderId);
        expect(follower.errors).toEqual([]);
      }
      expect(etcd!.health.find((h) => h.endpoint === leaderUrl)).toMatchObject({ health: false, error: 'deadline exceeded' });
      expect(partial).toContainEqual({ source: `etcd ${leaderUrl}`, error: 'deadline exceeded' });
      expect(etcd!.members.map((m) => m.id)).toContain(leaderId);
      expect(JSON.stringify({ etcd, partial })).not.toMatch(/circuit/i);
    }
  });
});
