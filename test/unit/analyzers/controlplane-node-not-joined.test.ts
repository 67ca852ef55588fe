import { describe, expect, it } from '@jest/globals';
import { controlplaneNodeNotJoinedAnalyzer } from '../../../src/diagnose/analyzers/controlplane-node-not-joined.js';
import { fingerprint } from '../../../src/diagnose/fingerprint.js';
import { buildContext } from '../../support/build-snapshot.js';
import { s2Snapshot } from './s2-fixture.js';
import { stuckJoinSnapshot, UNSTARTED_ID } from './stuck-join-fixture.js';

describe('controlplane.node-not-joined', () => {
  it('seed S2: Running CP machine whose node has no role and no etcd pod; top memory user scaled, never system pods', () => {
    const [f, ...rest] = controlplaneNodeNotJoinedAnalyzer.analyze(buildContext(s2Snapshot()));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      subject: { kind: 'Machine', namespace: 'tkg-system', name: 'cp3' },
    });
    const ev = f!.evidence.join('\n');
    expect(ev).toMatch(/no node-role.kubernetes.io\/control-plane label/);
    expect(ev).toMatch(/no pod kube-system\/etcd-cp3/);
    expect(ev).toMatch(/Deployment shop\/cache requests 8Gi on cp0, cp1/);
    expect(ev).not.toMatch(/coredns|big/);
    expect(f!.cause).toContain('Do not delete existing control-plane machines (data loss)');
    expect(f!.remediations).toEqual([
      expect.objectContaining({
        action: 'deployment.scale',
        params: { namespace: 'shop', name: 'cache', replicas: 0 },
      }),
    ]);
    expect(f!.causedBy).toEqual([
      fingerprint('it-tkg-mgmt', 'etcd.member-mismatch', { kind: 'EtcdMember', name: 'cp3' }),
    ]);
  });
  it('quiet when every control-plane node joined', () => {
    const snap = s2Snapshot();
    snap.nodes = snap.nodes.map((n) => ({
      ...n,
      metadata: { ...n.metadata, labels: { 'node-role.kubernetes.io/control-plane': '' } },
    }));
    snap.pods = [
      ...snap.pods,
      { namespace: 'kube-system', name: 'etcd-cp3', pvcNames: [], conditions: [], containers: [] },
    ];
    expect(controlplaneNodeNotJoinedAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });

  it('defect class 7: a stale member blocking the join is the cause; proposes removing it, not scaling workloads', () => {
    const [f] = controlplaneNodeNotJoinedAnalyzer.analyze(buildContext(stuckJoinSnapshot(40)));
    expect(f!.remediations.map((r) => `${r.action} ${r.params.memberId ?? ''}`)).toEqual([
      `etcd.remove-member ${UNSTARTED_ID}`,
    ]);
    expect(f!.cause).toContain('Peer URLs already exists');
  });
});
