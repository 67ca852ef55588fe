import { describe, expect, it } from '@jest/globals';
import { controlplaneDegradedAnalyzer } from '../../../src/diagnose/analyzers/controlplane-degraded.js';
import { buildContext, buildSnapshot, kcp, machine, node, s0Snapshot } from '../../support/build-snapshot.js';

const cp = (n: number, ready: number, o: { v1beta2?: boolean; replicas?: number } = {}) =>
  buildSnapshot({
    nodes: Array.from({ length: n }, (_, k) => node(`cp${k}`, { controlPlane: true, ready: k < ready })),
    capi: {
      kubeadmControlPlanes: [kcp({ replicas: o.replicas ?? n, v1beta2: o.v1beta2 })],
      machines: Array.from({ length: n }, (_, k) => machine({ name: `cp${k}`, controlPlane: true, nodeName: `cp${k}`, v1beta2: o.v1beta2 })),
    },
  });

describe('controlplane.degraded', () => {
  it('seed S0: 2 of 3 Ready, caused by the unreachable etcd leader', () => {
    const [f] = controlplaneDegradedAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({ subject: { kind: 'KubeadmControlPlane', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' } });
    expect(f!.cause).toMatch(/still follows leader it-tkg-mgmt-rg44c-sbv4f/);
    expect(f!.causedBy).toHaveLength(1);
  });
  it.each([
    ['1 of 3 Ready (below quorum)', cp(3, 1), 'critical'],
    ['4 of 5 Ready (above quorum), v1beta2', cp(5, 4, { v1beta2: true }), 'warning'],
    ['machines missing: 3 of 5 replicas', cp(3, 3, { replicas: 5 }), 'critical'],
  ])('%s → %s', (_n, snap, sev) => expect(controlplaneDegradedAnalyzer.analyze(buildContext(snap))[0]?.severity).toBe(sev));
  it('quiet when every replica is Ready', () => expect(controlplaneDegradedAnalyzer.analyze(buildContext(cp(3, 3)))).toEqual([]));
  it('falls back to KCP status when no nodes or machines are known', () => {
    const snap = buildSnapshot({ capi: { kubeadmControlPlanes: [kcp({ replicas: 3, ready: 3 })] } });
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });
});

describe('controlplane.degraded, seed S2', () => {
  it('a Ready node without the control-plane role does not count: 2 of 3 → critical (at quorum)', () => {
    const s = cp(3, 3);
    s.nodes[2]!.metadata.labels = {};
    const [f] = controlplaneDegradedAnalyzer.analyze(buildContext(s));
    expect(f).toMatchObject({ severity: 'critical' });
    expect(f!.evidence.join('\n')).toMatch(/2 of 3 control-plane nodes Ready/);
  });
});
