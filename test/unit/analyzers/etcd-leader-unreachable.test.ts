import { describe, expect, it } from '@jest/globals';
import { etcdLeaderUnreachableAnalyzer } from '../../../src/diagnose/analyzers/etcd-leader-unreachable.js';
import { QFHP2_ID, SBV4F_ID, buildContext, buildSnapshot, etcd, s0Snapshot } from '../../support/build-snapshot.js';

const healthy3 = () =>
  etcd([
    { id: '1', name: 'a', ip: '10.0.0.1', status: { leader: '2', applied: '10' } },
    { id: '2', name: 'b', ip: '10.0.0.2', status: { leader: '2', applied: '10' } },
    { id: '3', name: 'c', ip: '10.0.0.3', status: { leader: '2', applied: '10' } },
  ]);

describe('etcd.leader-unreachable', () => {
  it('seed S0: critical, names the leader, proposes move-leader to the reachable member with its exact id', () => {
    const [f] = etcdLeaderUnreachableAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({
      severity: 'critical',
      section: 'etcd',
      subject: { kind: 'EtcdMember', name: 'it-tkg-mgmt-rg44c-sbv4f' },
    });
    expect(f!.cause).toMatch(
      /it-tkg-mgmt-rg44c-qfhp2 still follows leader it-tkg-mgmt-rg44c-sbv4f \(172\.16\.52\.10\), which does not answer/,
    );
    expect(f!.remediations).toEqual([
      expect.objectContaining({
        action: 'etcd.move-leader',
        params: { targetMemberId: QFHP2_ID },
        label: 'Move etcd leader to it-tkg-mgmt-rg44c-qfhp2',
      }),
    ]);
    // Ids in text as etcdctl prints them (hex), exact decimal for machines (ids, params).
    expect(f!.evidence.join('\n')).toContain(BigInt(SBV4F_ID).toString(16));
    expect(f!.evidence.join('\n')).not.toContain(SBV4F_ID);
    expect(f!.ids).toEqual({ leaderMemberId: SBV4F_ID, targetMemberId: QFHP2_ID });
  });

  it('picks the member with the highest raftAppliedIndex, never a learner', () => {
    const snap = buildSnapshot({
      etcd: etcd([
        { id: '18249187646912138824', name: 'lag', ip: '10.0.0.1', status: { leader: '9', applied: '90' } },
        { id: '10501334649042878790', name: 'best', ip: '10.0.0.2', status: { leader: '9', applied: '100' } },
        { id: '7', name: 'learner', ip: '10.0.0.4', learner: true, status: { leader: '9', applied: '500' } },
        { id: '9', name: 'dead', ip: '10.0.0.3', status: null },
      ]),
    });
    const [f] = etcdLeaderUnreachableAnalyzer.analyze(buildContext(snap));
    expect(f!.remediations[0]!.params.targetMemberId).toBe('10501334649042878790');
  });

  it.each([
    ['a healthy 3-member etcd with one agreed leader', buildSnapshot({ etcd: healthy3() })],
    ['no etcd data', buildSnapshot()],
    [
      'survivor knows no leader (that is etcd.no-leader)',
      buildSnapshot({
        etcd: etcd([{ id: '1', name: 'a', ip: '10.0.0.1', status: { errors: ['etcdserver: no leader'] } }]),
      }),
    ],
  ])('quiet for %s', (_name, snap) => {
    expect(etcdLeaderUnreachableAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });

  it('fires when the leader answers but its Machine is being deleted', () => {
    const snap = buildSnapshot({ etcd: healthy3() });
    snap.nodes = [{ metadata: { name: 'b' } }];
    snap.capi.machines = [
      {
        metadata: { name: 'b', namespace: 'ns', deletionTimestamp: '2023-11-30T16:00:00Z' },
        status: { phase: 'Deleting', nodeRef: { name: 'b' } },
      },
    ];
    const [f] = etcdLeaderUnreachableAnalyzer.analyze(buildContext(snap));
    expect(f!.evidence[0]).toMatch(/being deleted/);
  });
});
