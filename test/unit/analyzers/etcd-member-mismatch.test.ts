import { describe, expect, it } from '@jest/globals';
import { etcdMemberMismatchAnalyzer } from '../../../src/diagnose/analyzers/etcd-member-mismatch.js';
import { buildContext, buildSnapshot, etcd, machine } from '../../support/build-snapshot.js';
import { stuckJoinSnapshot, UNSTARTED_ID } from './stuck-join-fixture.js';

const cps = ['cp0', 'cp1', 'cp2'].map((n, k) =>
  machine({ name: n, controlPlane: true, nodeName: n, addresses: [`10.0.0.${k + 1}`] }),
);
const member = (
  id: string,
  name: string,
  ip: string,
  extra: { learner?: boolean; leader?: string; dead?: boolean } = {},
) => ({
  id,
  name,
  ip,
  learner: extra.learner,
  status: extra.dead ? null : { leader: extra.leader ?? '1', applied: '10' },
});

describe('etcd.member-mismatch', () => {
  it('seed S2: a learner never promoted → warning, no removal offered, warns against deleting CP machines', () => {
    const snap = buildSnapshot({
      etcd: etcd([
        member('1', 'cp0', '10.0.0.1'),
        member('2', 'cp1', '10.0.0.2'),
        member('3', 'cp2', '10.0.0.3', { learner: true }),
      ]),
      capi: { machines: cps },
    });
    const [f] = etcdMemberMismatchAnalyzer.analyze(buildContext(snap));
    expect(f).toMatchObject({ severity: 'warning', subject: { kind: 'EtcdMember', name: 'cp2' }, remediations: [] });
    expect(f!.cause).toContain('Do not delete existing control-plane machines (data loss)');
  });
  it('stale member matching no machine → etcd.remove-member with the exact uint64 id', () => {
    const snap = buildSnapshot({
      etcd: etcd([
        member('1', 'cp0', '10.0.0.1'),
        member('2', 'cp1', '10.0.0.2'),
        member('3', 'cp2', '10.0.0.3'),
        member('17237436991929493444', 'old-cp', '10.0.0.9', { dead: true }),
      ]),
      capi: { machines: cps },
    });
    const [f] = etcdMemberMismatchAnalyzer.analyze(buildContext(snap));
    expect(f!.subject.name).toBe('old-cp');
    expect(f!.remediations).toEqual([
      expect.objectContaining({ action: 'etcd.remove-member', params: { memberId: '17237436991929493444' } }),
    ]);
  });
  it('never proposes removing the leader or a member whose removal loses quorum', () => {
    const snap = buildSnapshot({
      etcd: etcd([
        member('1', 'cp0', '10.0.0.1', { leader: '9', dead: true }),
        member('9', 'ghost', '10.0.0.9', { leader: '9' }),
        member('2', 'cp1', '10.0.0.2', { leader: '9' }),
      ]),
      capi: { machines: cps.slice(0, 2) },
    });
    const [f] = etcdMemberMismatchAnalyzer.analyze(buildContext(snap));
    expect(f!.subject.name).toBe('ghost');
    expect(f!.remediations).toEqual([]);
  });
  it('a Running control-plane machine with no member is reported', () => {
    const snap = buildSnapshot({
      etcd: etcd([member('1', 'cp0', '10.0.0.1'), member('2', 'cp1', '10.0.0.2')]),
      capi: { machines: cps },
    });
    expect(etcdMemberMismatchAnalyzer.analyze(buildContext(snap)).map((f) => f.subject.name)).toEqual(['cp2']);
  });
  it.each([
    [
      'members match machines',
      buildSnapshot({
        etcd: etcd([member('1', 'cp0', '10.0.0.1'), member('2', 'cp1', '10.0.0.2'), member('3', 'cp2', '10.0.0.3')]),
        capi: { machines: cps },
      }),
    ],
    ['no CAPI machines known', buildSnapshot({ etcd: etcd([member('1', 'x', '10.0.0.1')]) })],
  ])('quiet: %s', (_n, s) => expect(etcdMemberMismatchAnalyzer.analyze(buildContext(s))).toEqual([]));

  // Defect class 7: the stuck-join fix.
  describe("a member left by a failed join that holds the new machine's peer URL", () => {
    it('unstarted member at the address of a new machine 40 min old that never joined → stale, remove-member of exactly it', () => {
      const fs = etcdMemberMismatchAnalyzer.analyze(buildContext(stuckJoinSnapshot(40)));
      expect(fs.map((f) => f.subject.name)).toEqual(['e38f7103cfd379b6']);
      expect(fs[0]!.title).toContain('holds the peer URL of control-plane machine tkg-system/cp3 and blocks its join');
      expect(fs[0]!.remediations).toEqual([
        expect.objectContaining({ action: 'etcd.remove-member', params: { memberId: UNSTARTED_ID } }),
      ]);
      expect(fs[0]!.evidence[0]).toContain('was never started');
    });
    it('the same member while the new machine is 3 min old: a join in progress, left alone', () => {
      expect(etcdMemberMismatchAnalyzer.analyze(buildContext(stuckJoinSnapshot(3)))).toEqual([]);
    });
    it('an unnamed learner whose machine is gone (cluster-api#13667) → stale and removable, never the voting members', () => {
      const snap = buildSnapshot({
        etcd: {
          ...etcd([member('1', 'cp0', '10.0.0.1'), member('2', 'cp1', '10.0.0.2'), member('3', 'cp2', '10.0.0.3')]),
        },
        capi: { machines: cps },
      });
      snap.etcd!.members.push({
        id: '99',
        name: '',
        peerURLs: ['https://10.0.0.77:2380'],
        clientURLs: [],
        isLearner: true,
      });
      const fs = etcdMemberMismatchAnalyzer.analyze(buildContext(snap));
      expect(fs.map((f) => f.remediations.map((r) => r.params.memberId))).toEqual([['99']]);
      expect(fs[0]!.evidence[0]).toContain('belongs to no current control-plane Machine or Node');
    });
    it('an unnamed learner while a young machine has no address yet: maybe that join, left alone', () => {
      const snap = buildSnapshot({
        etcd: etcd([member('1', 'cp0', '10.0.0.1'), member('2', 'cp1', '10.0.0.2'), member('3', 'cp2', '10.0.0.3')]),
        capi: {
          machines: [...cps, machine({ name: 'cp3', controlPlane: true, phase: 'Provisioning', createdMinutesAgo: 2 })],
        },
      });
      snap.etcd!.members.push({
        id: '99',
        name: '',
        peerURLs: ['https://10.0.0.77:2380'],
        clientURLs: [],
        isLearner: true,
      });
      expect(etcdMemberMismatchAnalyzer.analyze(buildContext(snap))).toEqual([]);
    });
  });
});
