import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectEtcd } from '../../../src/cluster/etcd/collect-etcd.js';
import { createEtcdClient } from '../../../src/cluster/etcd/create-etcd-client.js';
import { diagnoseEtcdState } from '../../support/diagnose-etcd-state.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';
import { eventually } from '../../support/eventually.js';

/** `etcdctl member list -w json` ids, read from the raw text: JSON.parse would round uint64 ids. */
function etcdctlMemberIds(endpoints: string[]): Map<string, string> {
  const raw = execFileSync('etcdctl', ['--endpoints', endpoints.join(','), 'member', 'list', '-w', 'json'], {
    env: { ...process.env, ETCDCTL_API: '3' },
  }).toString();
  const ids = new Map<string, string>();
  for (const m of raw.matchAll(/"ID":(\d+),"name":"([^"]+)"/g)) ids.set(m[2]!, m[1]!);
  return ids;
}

describe('collectEtcd against a real 3-member etcd', () => {
  let cluster: EtcdTestCluster;
  beforeAll(async () => {
    cluster = await startEtcdCluster({ size: 3 });
  });
  afterAll(async () => {
    await cluster?.stopAll();
  });
  const probe = () => collectEtcd({ endpoints: cluster.endpoints, timeoutMs: 2000 });
  // One long-lived client on member e2: etcd3's default breaker would open after 3 failures.
  const pinned = () => createEtcdClient(cluster.endpoints[1]!, { timeoutMs: 1000 });
  let e2Client: ReturnType<typeof pinned>;
  afterAll(() => e2Client?.close());

  it('healthy cluster: 3 members, one leader everywhere, ids exactly as etcdctl prints them', async () => {
    const { etcd, partial } = await probe();
    expect(partial).toEqual([]);
    expect(etcd?.source).toBe('live');
    expect(etcd!.members.map((m) => m.name).sort()).toEqual(['e1', 'e2', 'e3']);
    expect(etcd!.members.every((m) => m.isLearner === false)).toBe(true);

    const fromEtcdctl = etcdctlMemberIds(cluster.endpoints);
    expect(fromEtcdctl.size).toBe(3);
    for (const m of etcd!.members) expect(m.id).toBe(fromEtcdctl.get(m.name));

    expect(etcd!.endpoints.map((e) => e.endpoint)).toEqual(cluster.endpoints);
    const leaders = new Set(etcd!.endpoints.map((e) => e.leader));
    expect(leaders.size).toBe(1);
    expect(etcd!.members.map((m) => m.id)).toContain([...leaders][0]);
    // each endpoint answers for itself (one client per endpoint)
    expect(new Set(etcd!.endpoints.map((e) => e.memberId)).size).toBe(3);
    for (const e of etcd!.endpoints) {
      expect(e.errors).toEqual([]);
      expect(e.version).toMatch(/^3\.4\./);
      expect(e.raftTerm).toMatch(/^\d+$/);
      expect(e.dbSize).toBeGreaterThan(0);
    }
    expect(etcd!.health.map((h) => [h.endpoint, h.health])).toEqual(cluster.endpoints.map((e) => [e, true]));
    expect(etcd!.alarms).toEqual([]);
    // Benign look-alike: a healthy 3-member etcd with one agreed leader gives no etcd finding.
    expect(diagnoseEtcdState({ etcd, partial }).findings.filter((f) => f.id.startsWith('etcd.'))).toEqual([]);
  });

  it('2 of 3 killed: the survivor reports no leader, the dead are unhealthy, nothing throws', async () => {
    await cluster.kill(1);
    await cluster.kill(2);
    // The survivor steps down (or stays leaderless) once it notices it lost quorum.
    // Under load a probe can land while the survivor still times out instead of answering "no leader":
    // wait for the settled state (leader gone, the survivor's own answer), not the first leaderless probe.
    const { etcd, partial } = await eventually(
      probe,
      (r) =>
        r.etcd?.endpoints.length === 1 &&
        r.etcd.endpoints[0]?.leader === undefined &&
        r.etcd.endpoints[0]?.errors.join() === 'etcdserver: no leader',
    );

    expect(etcd!.endpoints).toHaveLength(1);
    const survivor = etcd!.endpoints[0]!;
    expect(survivor.endpoint).toBe(cluster.endpoints[0]);
    expect(survivor.leader).toBeUndefined();
    expect(survivor.errors).toEqual(['etcdserver: no leader']);
    // What the bot says about this live state: quorum lost, no leader to move to (seed S1).
    const diagnosis = diagnoseEtcdState({ etcd, partial });
    expect(diagnosis.errors).toEqual([]);
    expect(diagnosis.findings.find((f) => f.id === 'etcd.no-leader')).toMatchObject({
      severity: 'critical',
      subject: { kind: 'EtcdCluster', name: 'live-etcd' },
    });
    expect(diagnosis.findings.map((f) => f.id)).not.toContain('etcd.leader-unreachable');
    // member list is served locally, so it still comes back without quorum
    expect(etcd!.members).toHaveLength(3);

    const dead = etcd!.health.filter((h) => h.endpoint !== cluster.endpoints[0]);
    expect(dead).toHaveLength(2);
    for (const h of dead) {
      expect(h.health).toBe(false);
      expect(h.error).toMatch(/^unavailable: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    }
    // no quorum: the survivor cannot serve a linearizable read either
    expect(etcd!.health.find((h) => h.endpoint === cluster.endpoints[0])).toMatchObject({
      health: false,
      error: 'deadline exceeded',
    });

    expect(partial.map((p) => p.source)).toEqual([
      `etcd ${cluster.endpoints[1]}`,
      `etcd ${cluster.endpoints[2]}`,
      'etcd alarm list',
    ]);
    expect(JSON.stringify({ etcd, partial })).not.toMatch(/circuit/i);

    e2Client = pinned();
    for (let i = 0; i < 5; i++) {
      const err = await e2Client.maintenance.status().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.name).not.toBe('BrokenCircuitError');
      expect(err?.message).toMatch(/ECONNREFUSED/);
    }
  });

  it('probes keep working after failures: members restarted, the cluster is healthy again', async () => {
    await cluster.restart(1);
    await cluster.restart(2);
    // Healthy again means every member healthy AND all agree on one leader (a restarted member
    // may report the previous term's leader for a heartbeat or two).
    const { etcd, partial } = await eventually(
      probe,
      (r) =>
        r.etcd?.health.every((h) => h.health) === true &&
        r.etcd.endpoints.length === 3 &&
        new Set(r.etcd.endpoints.map((e) => e.leader)).size === 1,
    );
    expect(partial).toEqual([]);
    expect(etcd!.health.map((h) => h.health)).toEqual([true, true, true]);
    expect(new Set(etcd!.endpoints.map((e) => e.leader)).size).toBe(1);
    expect(etcd!.endpoints[0]!.leader).toBeDefined();
    // the same client that failed 5 times in a row answers again: no circuit was opened
    const back = await e2Client.maintenance.status();
    expect(back.header.member_id).toBe(etcd!.endpoints[1]!.memberId);
  });
});

describe('collectEtcd without a cluster', () => {
  it('a missing TLS file is a partial entry naming the file and key, not a false "etcd down"', async () => {
    const r = await collectEtcd({
      endpoints: ['https://127.0.0.1:1'],
      caFile: '/nonexistent/etcd-ca.crt',
      timeoutMs: 500,
    });
    expect(r.etcd).toBeUndefined();
    expect(r.partial).toEqual([
      {
        source: 'etcd caFile /nonexistent/etcd-ca.crt',
        error: 'cannot read /nonexistent/etcd-ca.crt (ENOENT): fix etcd.caFile in the config',
      },
    ]);
  });

  it('nothing listening: every endpoint unhealthy, no member list, no throw', async () => {
    const r = await collectEtcd({ endpoints: ['http://127.0.0.1:1'], timeoutMs: 1000 });
    expect(r.etcd?.members).toEqual([]);
    expect(r.etcd?.endpoints).toEqual([]);
    expect(r.etcd?.health).toEqual([expect.objectContaining({ endpoint: 'http://127.0.0.1:1', health: false })]);
    expect(r.partial.map((p) => p.source)).toEqual(['etcd http://127.0.0.1:1', 'etcd member list', 'etcd alarm list']);
  });
});
