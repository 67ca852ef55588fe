import { describe, expect, it } from '@jest/globals';
import { apiserverUnreachableAnalyzer } from '../../../src/diagnose/analyzers/apiserver-unreachable.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import { buildContext, buildSnapshot } from '../../support/build-snapshot.js';

describe('apiserver.unreachable', () => {
  it('unreachable: critical, quotes the error, says workloads likely still serve', () => {
    const [f] = apiserverUnreachableAnalyzer.analyze(
      buildContext(
        buildSnapshot({ apiserver: { reachable: false, checks: [], error: 'connect ECONNREFUSED 172.16.53.10:6443' } }),
      ),
    );
    expect(f).toMatchObject({
      severity: 'critical',
      section: 'apiserver',
      subject: { kind: 'Cluster', name: 'it-tkg-mgmt' },
    });
    expect(f!.evidence[0]).toContain('ECONNREFUSED');
    expect(f!.cause).toMatch(/workloads are likely still serving.*self-healing.*kubectl are down/);
  });

  it('readyz failing on etcd: quotes the failed check and links etcd.no-leader', () => {
    const snap = buildSnapshot({
      apiserver: {
        reachable: true,
        ready: false,
        checks: [
          { name: 'ping', ok: true },
          { name: 'etcd', ok: false, message: 'etcdserver: no leader' },
        ],
      },
    });
    const [f] = apiserverUnreachableAnalyzer.analyze(buildContext(snap));
    expect(f!.evidence).toContain('[-]etcd failed: etcdserver: no leader');
    expect(f!.causedBy).toEqual([
      fingerprint('it-tkg-mgmt', 'etcd.no-leader', { kind: 'EtcdCluster', name: 'it-tkg-mgmt' }),
    ]);
  });

  it.each([
    ['ready', buildSnapshot({ apiserver: { reachable: true, ready: true, checks: [{ name: 'etcd', ok: true }] } })],
    ['not probed', buildSnapshot()],
  ])('quiet when %s', (_n, snap) => expect(apiserverUnreachableAnalyzer.analyze(buildContext(snap))).toEqual([]));
});
