import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectEtcd } from '../../../src/cluster/etcd/collect-etcd.js';
import { diagnoseEtcdState } from '../../support/diagnose-etcd-state.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';

// Seed S0 (CAPV "etcd invalid state"): followers still point at a leader that no longer answers.
// A long election timeout keeps the paused leader "leader" in the followers' eyes while we probe.
describe('collectEtcd with an unreachable (paused) leader', () => {
  let cluster: EtcdTestCluster;
  let leaderIndex = -1;
  beforeAll(async () => {
    cluster = await startEtcdCluster({ size: 3, electionTimeoutMs: 20000, heartbeatMs: 2000 });
  });
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
      expect(etcd!.health.find((h) => h.endpoint === leaderUrl)).toMatchObject({
        health: false,
        error: 'deadline exceeded',
      });
      expect(partial).toContainEqual({ source: `etcd ${leaderUrl}`, error: 'deadline exceeded' });
      expect(etcd!.members.map((m) => m.id)).toContain(leaderId);
      expect(JSON.stringify({ etcd, partial })).not.toMatch(/circuit/i);
    }
  });

  it('diagnosis of that live state: etcd.leader-unreachable, move the leader to a reachable in-sync member', async () => {
    // The leader is still paused (previous test).
    const live = await probe();
    const leaderId = live.etcd!.endpoints[0]!.leader!;
    const { findings, errors } = diagnoseEtcdState(live);
    expect(errors).toEqual([]);
    const f = findings.find((x) => x.id === 'etcd.leader-unreachable');
    expect(f?.severity).toBe('critical');
    const leaderName = live.etcd!.members.find((m) => m.id === leaderId)!.name;
    expect(f?.subject).toEqual({ kind: 'EtcdMember', name: leaderName });
    expect(findings.map((x) => x.id)).not.toContain('etcd.no-leader');
    const move = f!.remediations.find((r) => r.action === 'etcd.move-leader');
    const followers = live.etcd!.endpoints.map((e) => e.memberId);
    expect(followers).toContain(String(move?.params.targetMemberId));
    expect(move?.params.targetMemberId).not.toBe(leaderId);
  });
});
