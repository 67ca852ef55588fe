import { describe, expect, it } from '@jest/globals';
import { etcdNoLeaderAnalyzer } from '../../../src/diagnose/analyzers/etcd-no-leader.js';
import { buildContext, buildSnapshot, etcd, s0Snapshot } from '../../support/build-snapshot.js';

describe('etcd.no-leader', () => {
  it.each([
    [
      'seed S1: survivor reports "etcdserver: no leader", 2 of 3 gone',
      buildSnapshot({
        etcd: etcd([
          { id: '1', name: 'a', ip: '10.0.0.1', status: { errors: ['etcdserver: no leader'] }, healthy: false },
          { id: '2', name: 'b', ip: '10.0.0.2', status: null },
          { id: '3', name: 'c', ip: '10.0.0.3', status: null },
        ]),
      }),
      /etcdserver: no leader/,
    ],
    [
      'only the API server tells (no etcd access)',
      buildSnapshot({
        apiserver: {
          reachable: true,
          ready: false,
          checks: [{ name: 'etcd', ok: false, message: 'etcdserver: no leader' }],
        },
      }),
      /API server/,
    ],
  ])('critical for %s', (_n, snap, evidence) => {
    const [f] = etcdNoLeaderAnalyzer.analyze(buildContext(snap));
    expect(f).toMatchObject({ severity: 'critical', subject: { kind: 'EtcdCluster', name: 'it-tkg-mgmt' } });
    expect(f!.evidence.join('\n')).toMatch(evidence);
    expect(f!.cause).toMatch(/running workloads are likely still serving/);
    expect(f!.cause).toMatch(/self-healing/);
  });

  it.each([
    [
      'healthy etcd',
      buildSnapshot({
        etcd: etcd([
          { id: '1', name: 'a', ip: '10.0.0.1', status: { leader: '1' } },
          { id: '2', name: 'b', ip: '10.0.0.2', status: { leader: '1' } },
          { id: '3', name: 'c', ip: '10.0.0.3', status: { leader: '1' } },
        ]),
      }),
    ],
    ['seed S0 (members still follow a dead leader: etcd.leader-unreachable instead)', s0Snapshot()],
    ['nothing known', buildSnapshot()],
  ])('quiet for %s', (_n, snap) => expect(etcdNoLeaderAnalyzer.analyze(buildContext(snap))).toEqual([]));
});
