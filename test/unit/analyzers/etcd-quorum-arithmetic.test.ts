import { describe, expect, it } from '@jest/globals';
import type { EtcdState } from '../../../src/cluster/snapshot.js';
import { parseEndpointHealth, parseEndpointStatus } from '../../../src/cluster/parse/parse-etcdctl-json.js';
import { etcdNoLeaderAnalyzer } from '../../../src/diagnose/analyzers/etcd-no-leader.js';
import { etcdQuorumDegradedAnalyzer } from '../../../src/diagnose/analyzers/etcd-quorum-degraded.js';
import { reconcileEtcd } from '../../../src/diagnose/facts/reconcile-etcd.js';
import { buildContext, buildSnapshot, etcd } from '../../support/build-snapshot.js';

/** Quorum arithmetic over members answering and members known, and every etcd source reconciled by member. */
const cluster = (n: number, down: number, learners = 0) =>
  etcd(
    Array.from({ length: n + learners }, (_, i) => ({
      id: String(1000 + i),
      name: `m${i}`,
      ip: `10.0.0.${i + 1}`,
      learner: i >= n,
      // The first member leads; the last `down` voting members refuse connections.
      status: i >= n - down && i < n ? null : { leader: '1000' },
      healthy: !(i >= n - down && i < n),
    })),
  );
const withRefusals = (e: EtcdState, n: number, down: number): EtcdState => ({
  ...e,
  errors: Array.from({ length: down }, (_, k) => ({
    command: 'endpoint status' as const,
    endpoint: `https://10.0.0.${n - down + k + 1}:2379`,
    error: 'dial tcp: connect: connection refused',
  })),
  health: e.health.map((h, i) =>
    i >= n - down && i < n ? { ...h, error: 'failed to connect: dial tcp: connect: connection refused' } : h,
  ),
});

describe('quorum arithmetic for 1, 3, 5 and 7 voting members (learners excluded)', () => {
  const rows: [number, number, string][] = [
    [1, 0, 'none'],
    [3, 1, 'no further member may fail'],
    [5, 1, '1 more member may fail'],
    [5, 2, 'no further member may fail'],
    [7, 1, '2 more members may fail'],
    [7, 3, 'no further member may fail'],
  ];
  it.each(rows)('%i members, %i down: %s', (n, down, left) => {
    const snap = buildSnapshot({ etcd: withRefusals(cluster(n, down, 1), n, down) });
    const rec = reconcileEtcd(snap)!;
    expect(rec.voting.length).toBe(n);
    expect(rec.quorum).toBe(Math.floor(n / 2) + 1);
    expect(rec.up.length).toBe(n - down);
    const f = etcdQuorumDegradedAnalyzer.analyze(buildContext(snap));
    if (down === 0) {
      expect(f).toEqual([]);
      return;
    }
    expect(f.map((x) => x.severity)).toEqual(['warning']);
    expect(f[0]!.title).toContain(`${n - down} of ${n} members answer, quorum ${Math.floor(n / 2) + 1}; ${left}`);
    // The down members are named, the learner never counted.
    for (let k = n - down; k < n; k++) expect(f[0]!.title).toContain(`m${k} (`);
    expect(f[0]!.title).not.toContain(`m${n} (`);
    expect(etcdNoLeaderAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });

  it('3 of 5 down with nothing committing and every member asked: quorum lost, critical no-leader, not degraded', () => {
    const e = withRefusals(cluster(5, 3), 5, 3);
    e.endpoints = e.endpoints.map((s) => ({ ...s, leader: undefined, errors: ['etcdserver: no leader'] }));
    e.health = e.health.map((h) => ({ ...h, health: false, error: h.error ?? 'etcdserver: no leader' }));
    const snap = buildSnapshot({ etcd: e });
    expect(reconcileEtcd(snap)!.quorumHeld).toBe(false);
    expect(etcdQuorumDegradedAnalyzer.analyze(buildContext(snap))).toEqual([]);
    expect(etcdNoLeaderAnalyzer.analyze(buildContext(snap)).map((f) => f.severity)).toEqual(['critical']);
  });
});

describe('every etcd source reconciled by member id and endpoint', () => {
  it('one endpoint written three ways is one member, its facts named by source, never listed twice', () => {
    const snap = buildSnapshot({
      etcd: {
        source: 'etcdctl',
        members: [],
        endpoints: parseEndpointStatus(
          [
            '| ENDPOINT | ID | VERSION | DB SIZE | IS LEADER | RAFT TERM | RAFT INDEX |',
            '| 10.0.0.1:2379 | 3e8 | 3.3.27 | 20 kB | false | 2 | 9 |',
          ].join('\n'),
        ),
        health: parseEndpointHealth(
          'https://10.0.0.1:2379 is healthy: successfully committed proposal: took = 2ms\n10.0.0.2 is unhealthy: failed to connect: grpc: timed out when dialing\n',
        ),
        alarms: [],
        errors: [{ command: 'endpoint health', endpoint: '10.0.0.2:2379', error: 'grpc: timed out when dialing' }],
      },
    });
    const rec = reconcileEtcd(snap)!;
    const real = rec.members.filter((m) => m.key !== 'leader-not-asked');
    expect(real.map((m) => [m.label, m.facts])).toEqual([
      [
        '3e8 at 10.0.0.1:2379',
        [
          'endpoint status: answered, whom it follows not shown (raft term 2)',
          'endpoint health: committed a proposal (took 2ms)',
        ],
      ],
      ['10.0.0.2', ['endpoint health: failed: grpc: timed out when dialing']],
    ]);
    expect(rec.leaderProof).toMatch(/^endpoint health: a proposal committed through 3e8 at 10.0.0.1:2379/);
  });

  it('an auth refusal is an answer: up, not failing, not committed', () => {
    const health = parseEndpointHealth(
      '| ENDPOINT | HEALTH | TOOK | ERROR |\n| https://a:2379 | false | 47ms | etcdserver: user name is empty |',
    );
    const rec = reconcileEtcd(
      buildSnapshot({ etcd: { source: 'etcdctl', members: [], endpoints: [], health, alarms: [] } }),
    )!;
    expect(rec.members.map((m) => [m.up, m.failed, m.committed, m.authRefused])).toEqual([
      [true, undefined, false, 'etcdserver: user name is empty'],
    ]);
    expect(
      etcdNoLeaderAnalyzer.analyze(
        buildContext(buildSnapshot({ etcd: { source: 'etcdctl', members: [], endpoints: [], health, alarms: [] } })),
      ),
    ).toEqual([]);
  });
});

describe('endpoint health in each form etcdctl prints', () => {
  const want = [
    { endpoint: 'http://127.0.0.1:2379', health: true, took: '520.835µs' },
    { endpoint: 'http://127.0.0.1:32379', health: false, took: '5.0s', error: 'context deadline exceeded' },
  ];
  it('-w table (HEALTH, TOOK, ERROR columns), borders and the closing "Error: unhealthy cluster" skipped', () => {
    const table = [
      '+------------------------+--------+-----------+---------------------------+',
      '|        ENDPOINT        | HEALTH |   TOOK    |           ERROR           |',
      '+------------------------+--------+-----------+---------------------------+',
      '|  http://127.0.0.1:2379 |   true | 520.835µs |                           |',
      '| http://127.0.0.1:32379 |  false |      5.0s | context deadline exceeded |',
      '+------------------------+--------+-----------+---------------------------+',
      'Error: unhealthy cluster',
    ].join('\n');
    expect(parseEndpointHealth(table)).toEqual(want);
  });
  it('-w json, and the simple lines with zap and glog client warnings mixed in; an endpoint without a port kept as written', () => {
    expect(parseEndpointHealth(JSON.stringify(want))).toEqual(want);
    const simple = [
      '{"level":"warn","ts":"2020-06-21T06:58:55.119-0400","caller":"clientv3/retry_interceptor.go:62","msg":"retrying of unary invoker failed"}',
      '2017-06-08 13:25:45.138292 I | warning: ignoring ServerName for user-provided CA for backwards compatibility is deprecated',
      'http://127.0.0.1:2379 is healthy: successfully committed proposal: took = 520.835µs',
      '192.168.233.131 is unhealthy: failed to connect: grpc: timed out when dialing',
      '127.0.0.1:2379 is unhealthy: failed to commit proposal: etcdserver: user name is empty',
    ].join('\n');
    expect(parseEndpointHealth(simple)).toEqual([
      { endpoint: 'http://127.0.0.1:2379', health: true, took: '520.835µs' },
      { endpoint: '192.168.233.131', health: false, error: 'grpc: timed out when dialing' },
      { endpoint: '127.0.0.1:2379', health: false, error: 'etcdserver: user name is empty' },
    ]);
  });
});
