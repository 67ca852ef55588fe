import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { collectEtcd } from '../../../src/cluster/etcd/collect-etcd.js';
import { createEtcdClient } from '../../../src/cluster/etcd/create-etcd-client.js';
import { loadDump } from '../../../src/cluster/dump/load-dump.js';
import { createEmptySnapshot } from '../../../src/cluster/snapshot.js';
import { writeDump } from '../../../src/cluster/dump/write-dump.js';
import { diagnoseEtcdState } from '../../support/diagnose-etcd-state.js';
import { eventually } from '../../support/eventually.js';
import { startEtcdCluster, type EtcdTestCluster } from '../../support/start-etcd-cluster.js';

/**
 * etcd evidence against a real 3-member etcd: a real NOSPACE alarm (a 2 MiB quota and a few writes) reaches
 * the live probe and becomes a critical etcd.alarm; then, quorum lost, what the probe could not read is
 * written by `dump` as etcdctl stderr (etcd/<command>.err) and read back into the same diagnosis.
 */
describe('live etcd: NOSPACE alarm, then quorum lost through a dump', () => {
  let cluster: EtcdTestCluster;
  let tmp: string;
  beforeAll(async () => {
    cluster = await startEtcdCluster({ size: 3, quotaBackendBytes: 2 * 1024 * 1024 });
    tmp = await mkdtemp(path.join(os.tmpdir(), 'etcd-alarm-dump-'));
  });
  afterAll(async () => {
    await cluster?.stopAll();
    await rm(tmp, { recursive: true, force: true });
  });
  const probe = () => collectEtcd({ endpoints: cluster.endpoints, timeoutMs: 3000 });

  it('fills the quota: etcd raises NOSPACE, the probe reports it and the bot says etcd.alarm (critical, steps, no write)', async () => {
    const client = createEtcdClient(cluster.endpoints[0]!, { timeoutMs: 5000 });
    let refused: string | undefined;
    try {
      const value = 'x'.repeat(256 * 1024);
      // Bounded: 2 MiB of quota is spent within ~10 writes of 256 KiB.
      for (let i = 0; i < 40 && !refused; i++) {
        try {
          await client.put(`fill-${i}`).value(value);
        } catch (e) {
          refused = (e as Error).message;
        }
      }
    } finally {
      client.close();
    }
    expect(refused).toMatch(/database space exceeded/);

    const { etcd, partial } = await eventually(probe, (r) => (r.etcd?.alarms.length ?? 0) > 0);
    expect(partial).toEqual([]);
    expect(etcd!.alarms.map((a) => a.alarm)).toContain('NOSPACE');
    expect(etcd!.members.map((m) => m.id)).toContain(etcd!.alarms[0]!.memberId);
    const { findings } = diagnoseEtcdState({ etcd, partial });
    expect(findings.map((f) => `${f.severity} ${f.id}`)).toEqual(['critical etcd.alarm']);
    expect(findings[0]).toMatchObject({ subject: { kind: 'EtcdAlarm', name: 'NOSPACE' }, remediations: [] });
    expect(findings[0]!.steps!.join('\n')).toMatch(/etcdctl alarm disarm/);
  });

  it('2 of 3 killed: dump writes what failed to etcd/*.err; the dump read back still says no leader, never healthy', async () => {
    await cluster.kill(1);
    await cluster.kill(2);
    const live = await eventually(probe, (r) => r.etcd?.endpoints[0]?.leader === undefined);
    expect(live.etcd!.errors?.map((e) => e.command)).toEqual(expect.arrayContaining(['endpoint status', 'alarm list']));

    const snap = createEmptySnapshot('etcd-lost', new Date().toISOString(), 'live');
    snap.etcd = live.etcd!;
    snap.partial = live.partial;
    const out = path.join(tmp, 'dump');
    await writeDump(snap, out);
    const statusErr = await readFile(path.join(out, 'etcd', 'endpoint-status.err'), 'utf8');
    expect(statusErr).toContain(`Failed to get the status of endpoint ${cluster.endpoints[1]} (`);

    const back = await loadDump(out);
    expect(back.etcd!.errors).toEqual(live.etcd!.errors);
    const { findings } = diagnoseEtcdState({ etcd: back.etcd, partial: back.partial });
    expect(findings.find((f) => f.id === 'etcd.no-leader')).toMatchObject({ severity: 'critical' });
    expect(findings.map((f) => f.id)).not.toContain('etcd.leader-unreachable');
  });
});
