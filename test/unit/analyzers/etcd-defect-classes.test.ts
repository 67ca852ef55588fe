import { describe, expect, it } from '@jest/globals';
import type { ControlPlaneLog, EtcdState } from '../../../src/cluster/snapshot.js';
import { etcdAlarmAnalyzer } from '../../../src/diagnose/analyzers/etcd-alarm.js';
import { etcdLeaderUnreachableAnalyzer } from '../../../src/diagnose/analyzers/etcd-leader-unreachable.js';
import { etcdMembersNotQueriedAnalyzer } from '../../../src/diagnose/analyzers/etcd-members-not-queried.js';
import { etcdNoLeaderAnalyzer } from '../../../src/diagnose/analyzers/etcd-no-leader.js';
import { etcdQuorumDegradedAnalyzer } from '../../../src/diagnose/analyzers/etcd-quorum-degraded.js';
import { summarizeSection } from '../../../src/report/summarize-section.js';
import { buildContext, buildSnapshot, etcd, node } from '../../support/build-snapshot.js';

/** Defect classes 1–3: no leader never looks healthy, unqueried is not unreachable, alarms are critical. */

// The etcdctl README's cluster: infra3 (18249187646912138824 = fd422379fda50e48) leads.
const INFRA = [
  { id: '9372538179322589801', name: 'infra1', ip: '10.0.0.1' },
  { id: '10501334649042878790', name: 'infra2', ip: '10.0.0.2' },
  { id: '18249187646912138824', name: 'infra3', ip: '10.0.0.3' },
];
/** Only infra1 asked (status and health), naming infra3 as leader. */
function oneAsked(extra: Partial<EtcdState> = {}): EtcdState {
  const e = etcd(INFRA.map((m, i) => ({ ...m, status: i === 0 ? { leader: INFRA[2]!.id } : null })));
  return { ...e, health: [{ endpoint: 'https://10.0.0.1:2379', health: true, took: '2ms' }], ...extra };
}
const ids = (state: EtcdState) =>
  [etcdNoLeaderAnalyzer, etcdLeaderUnreachableAnalyzer, etcdMembersNotQueriedAnalyzer, etcdAlarmAnalyzer].flatMap((a) =>
    a.analyze(buildContext(buildSnapshot({ etcd: state }))),
  );

describe('defect 2: unqueried is not unreachable', () => {
  it('a leader nobody asked: info etcd.members-not-queried with "leader not queried", no leader-unreachable, no move-leader', () => {
    const found = ids(oneAsked());
    expect(found.map((f) => `${f.severity} ${f.id}`)).toEqual(['info etcd.members-not-queried']);
    const f = found[0]!;
    expect(f.missing).toEqual(['leader not queried: infra3 (fd422379fda50e48)', '2 of 3 voting members not queried']);
    expect(f.ids).toEqual({
      leaderMemberId: '18249187646912138824',
      notQueriedMemberIds: '10501334649042878790,18249187646912138824',
    });
    expect(f.remediations).toEqual([]);
    expect(f.evidence.join('\n')).not.toMatch(/18249187646912138824|18249187646912140000/);
  });

  it('the same leader asked and silent (health false) is unreachable, with the exact target id', () => {
    const state = oneAsked({
      health: [
        { endpoint: 'https://10.0.0.1:2379', health: true },
        { endpoint: 'https://10.0.0.3:2379', health: false, error: 'context deadline exceeded' },
      ],
    });
    const [f] = etcdLeaderUnreachableAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })));
    expect(f).toMatchObject({
      severity: 'critical',
      ids: { leaderMemberId: '18249187646912138824', targetMemberId: '9372538179322589801' },
    });
    expect(f!.missing).toEqual(['infra2 (91bc3c398fb3c146) not queried']);
  });

  it('an endpoint error naming the leader counts as asked (live probe: status failed)', () => {
    const state = oneAsked({
      errors: [{ command: 'endpoint status', endpoint: 'https://10.0.0.3:2379', error: 'deadline exceeded' }],
    });
    expect(etcdLeaderUnreachableAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })))).toHaveLength(1);
  });

  it('a leader absent from status but healthy is not unreachable', () => {
    const state = oneAsked({ health: INFRA.map((m) => ({ endpoint: `http://${m.ip}:2379`, health: true })) });
    expect(ids(state)).toEqual([]);
  });

  it('members sharing one host are told apart by port (etcd docs: 127.0.0.1:2379/22379/32379)', () => {
    const e = oneAsked();
    e.members = e.members.map((m, i) => ({ ...m, clientURLs: [`http://127.0.0.1:${['2379', '22379', '32379'][i]}`] }));
    e.endpoints = [{ ...e.endpoints[0]!, endpoint: '127.0.0.1:2379', memberId: undefined }];
    e.health = [{ endpoint: 'http://127.0.0.1:32379', health: true }];
    const found = ids(e);
    expect(found.map((f) => f.id)).toEqual(['etcd.members-not-queried']);
    // infra2 only: infra3 answered health on :32379
    expect(found[0]!.missing).toEqual(['1 of 3 voting members not queried']);
  });
});

describe('defect 1: no leader never looks healthy', () => {
  it('no member list, member list failed with no leader: critical, says the list is missing', () => {
    const state: EtcdState = {
      source: 'etcdctl',
      members: [],
      endpoints: [],
      health: [],
      alarms: [],
      errors: [{ command: 'member list', error: 'etcdserver: no leader' }],
    };
    const [f] = etcdNoLeaderAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })));
    expect(f).toMatchObject({
      severity: 'critical',
      missing: ['member list unavailable: etcdserver: no leader'],
      confidence: 'medium',
    });
    const line = summarizeSection('etcd', buildSnapshot({ etcd: state }));
    expect(line).toEqual({
      summary: 'member list unavailable: etcdserver: no leader, endpoint status not taken: leader unknown',
      hasData: false,
      counted: { ready: 0, total: 0 },
    });
  });

  it('no member list and every endpoint health false: critical, low confidence', () => {
    const state: EtcdState = {
      source: 'etcdctl',
      members: [],
      endpoints: [],
      health: ['1', '2', '3'].map((i) => ({
        endpoint: `https://10.0.0.${i}:2379`,
        health: false,
        error: 'context deadline exceeded',
      })),
      alarms: [],
      errors: [{ command: 'member list', error: 'context deadline exceeded' }],
    };
    const [f] = etcdNoLeaderAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })));
    expect(f).toMatchObject({ severity: 'critical', confidence: 'low' });
  });

  it('endpoints failing only from the bot while the API server reads etcd fine: no finding (our access, not quorum)', () => {
    const state: EtcdState = {
      source: 'live',
      members: [],
      endpoints: [],
      health: [{ endpoint: 'https://10.0.0.1:2379', health: false, error: 'deadline exceeded' }],
      alarms: [],
    };
    const snap = buildSnapshot({
      etcd: state,
      apiserver: { reachable: true, ready: true, checks: [{ name: 'etcd', ok: true }] },
    });
    expect(etcdNoLeaderAnalyzer.analyze(buildContext(snap))).toEqual([]);
    expect(summarizeSection('etcd', snap).hasData).toBe(false);
  });

  it('one member says no leader, the others never asked: a warning that says what is missing, not quorum lost', () => {
    const state = etcd(INFRA.map((m, i) => ({ ...m, status: i === 0 ? { errors: ['etcdserver: no leader'] } : null })));
    state.health = [];
    const [f] = etcdNoLeaderAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })));
    expect(f).toMatchObject({ severity: 'warning', confidence: 'low' });
    expect(f!.missing![0]).toMatch(/infra2 \(91bc3c398fb3c146\), infra3 \(fd422379fda50e48\) not queried/);
  });

  it('a member cut off while two agree on a leader: warning, never critical (etcd 3.6 capture shape)', () => {
    const state = etcd([
      { ...INFRA[0]!, status: { leader: INFRA[0]!.id } },
      { ...INFRA[1]!, status: { leader: INFRA[0]!.id } },
      { ...INFRA[2]!, status: { errors: ['etcdserver: no leader'] }, healthy: false },
    ]);
    // The two others committed proposals: a leader and a quorum are proven, so this is no "no leader" finding
    // but a degraded quorum naming the member cut off and how many more may fail.
    expect(etcdNoLeaderAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })))).toEqual([]);
    const [f] = etcdQuorumDegradedAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state })));
    expect(f).toMatchObject({ severity: 'warning' });
    expect(f!.title).toMatch(
      /infra3 \([0-9a-f]+\) does not answer \(2 of 3 members answer, quorum 2; no further member may fail\)/,
    );
    expect(f!.evidence.join('\n')).toMatch(/endpoint status: etcdserver: no leader/);
  });

  it('logs only: the etcd log ends in an election it never wins → critical; the same with served objects → warning', () => {
    const logs: ControlPlaneLog[] = [
      {
        namespace: 'kube-system',
        pod: 'etcd-cp-1',
        component: 'etcd',
        signals: [
          { kind: 'leader', line: 'elected leader a at term 2' },
          { kind: 'no-leader', line: 'a lost leader b at term 3', time: '2020-06-21T05:43:24Z' },
        ],
      },
    ];
    const [f] = etcdNoLeaderAnalyzer.analyze(buildContext(buildSnapshot({ controlPlaneLogs: logs })));
    expect(f).toMatchObject({ severity: 'critical', confidence: 'medium' });
    expect(f!.missing![0]).toMatch(/judged from the end of the etcd pod logs \(last line 2020-06-21T05:43:24Z\)/);
    const [served] = etcdNoLeaderAnalyzer.analyze(
      buildContext(buildSnapshot({ controlPlaneLogs: logs, nodes: [node('cp-1', { controlPlane: true })] })),
    );
    expect(served).toMatchObject({ severity: 'warning' });
  });

  it('logs that end with a leader elected are quiet', () => {
    const logs: ControlPlaneLog[] = [
      {
        namespace: 'kube-system',
        pod: 'etcd-cp-1',
        component: 'etcd',
        signals: [
          { kind: 'no-leader', line: 'lost leader' },
          { kind: 'leader', line: 'elected leader a at term 4' },
        ],
      },
    ];
    expect(etcdNoLeaderAnalyzer.analyze(buildContext(buildSnapshot({ controlPlaneLogs: logs })))).toEqual([]);
  });
});

describe('defect 3: etcd alarms', () => {
  it('NOSPACE from endpoint status errors: critical, steps compact → defrag → disarm, no automatic write', () => {
    const state = etcd([
      {
        id: '15300616325842721311',
        name: 'solo',
        ip: '127.0.0.1',
        status: { leader: '15300616325842721311', errors: ['memberID:15300616325842721311 alarm:NOSPACE '] },
      },
    ]);
    state.alarms = [{ memberId: '15300616325842721311', alarm: 'NOSPACE' }];
    const found = ids(state);
    expect(found.map((f) => `${f.severity} ${f.id} ${f.subject.name}`)).toEqual(['critical etcd.alarm NOSPACE']);
    const f = found[0]!;
    expect(f.remediations).toEqual([]);
    expect(f.ids).toEqual({ alarmMemberIds: '15300616325842721311' });
    expect(f.title).toContain('solo (d456b57b7265da1f)');
    const steps = f.steps!.join('\n');
    expect(steps.indexOf('etcdctl compact')).toBeLessThan(steps.indexOf('etcdctl defrag'));
    expect(steps.indexOf('etcdctl defrag')).toBeLessThan(steps.indexOf('etcdctl alarm disarm'));
    // The alarm is not a failing member: nothing else fires on it.
    expect(summarizeSection('etcd', buildSnapshot({ etcd: state })).summary).toContain('alarm NOSPACE');
  });

  it('CORRUPT: critical, do not disarm first', () => {
    const [f] = etcdAlarmAnalyzer.analyze(
      buildContext(
        buildSnapshot({
          etcd: {
            source: 'live',
            members: [],
            endpoints: [],
            health: [],
            alarms: [{ memberId: '1', alarm: 'CORRUPT' }],
          },
        }),
      ),
    );
    expect(f).toMatchObject({ severity: 'critical', subject: { kind: 'EtcdAlarm', name: 'CORRUPT' } });
    expect(f!.steps![0]).toMatch(/Do not disarm yet/);
  });

  it('"Active Alarm(s): NOSPACE" in endpoint health (etcdctl 3.5) without an alarm list', () => {
    const state: EtcdState = {
      source: 'etcdctl',
      members: [],
      endpoints: [],
      health: [{ endpoint: 'https://10.0.0.1:2379', health: false, error: 'Active Alarm(s): NOSPACE ' }],
      alarms: [],
    };
    expect(etcdAlarmAnalyzer.analyze(buildContext(buildSnapshot({ etcd: state }))).map((f) => f.subject.name)).toEqual([
      'NOSPACE',
    ]);
  });

  it('from pod logs only when the dump has no etcd data, saying the alarm may be gone', () => {
    const logs: ControlPlaneLog[] = [
      {
        namespace: 'kube-system',
        pod: 'etcd-cp-1',
        component: 'etcd',
        signals: [{ kind: 'nospace', line: 'err is etcdserver: no space' }],
      },
    ];
    const [f] = etcdAlarmAnalyzer.analyze(buildContext(buildSnapshot({ controlPlaneLogs: logs })));
    expect(f).toMatchObject({ severity: 'critical', confidence: 'medium' });
    expect(f!.missing![0]).toMatch(/may have been disarmed/);
    const withEtcd = buildSnapshot({
      controlPlaneLogs: logs,
      etcd: etcd(INFRA.map((m) => ({ ...m, status: { leader: INFRA[0]!.id } }))),
    });
    expect(etcdAlarmAnalyzer.analyze(buildContext(withEtcd))).toEqual([]);
  });
});
