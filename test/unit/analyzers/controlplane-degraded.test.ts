import { describe, expect, it } from '@jest/globals';
import { controlplaneDegradedAnalyzer } from '../../../src/diagnose/analyzers/controlplane-degraded.js';
import { buildContext, buildSnapshot, kcp, machine, node, s0Snapshot } from '../../support/build-snapshot.js';

const cp = (n: number, ready: number, o: { v1beta2?: boolean; replicas?: number } = {}) =>
  buildSnapshot({
    nodes: Array.from({ length: n }, (_, k) => node(`cp${k}`, { controlPlane: true, ready: k < ready })),
    capi: {
      kubeadmControlPlanes: [kcp({ replicas: o.replicas ?? n, v1beta2: o.v1beta2 })],
      machines: Array.from({ length: n }, (_, k) =>
        machine({ name: `cp${k}`, controlPlane: true, nodeName: `cp${k}`, v1beta2: o.v1beta2 }),
      ),
    },
  });

describe('controlplane.degraded', () => {
  it('seed S0: 2 of 3 Ready, caused by the unreachable etcd leader', () => {
    const [f] = controlplaneDegradedAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({
      subject: { kind: 'KubeadmControlPlane', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' },
    });
    expect(f!.cause).toMatch(/still follows leader it-tkg-mgmt-rg44c-sbv4f/);
    expect(f!.causedBy).toHaveLength(1);
  });
  it.each([
    ['1 of 3 Ready (below quorum)', cp(3, 1), 'critical'],
    ['4 of 5 Ready (above quorum), v1beta2', cp(5, 4, { v1beta2: true }), 'warning'],
    ['machines missing: 3 of 5 replicas', cp(3, 3, { replicas: 5 }), 'critical'],
  ])('%s → %s', (_n, snap, sev) =>
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(snap))[0]?.severity).toBe(sev),
  );
  it('quiet when every replica is Ready', () =>
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(cp(3, 3)))).toEqual([]));
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

describe('controlplane.degraded (v1beta2 first, never "0 of N" by default)', () => {
  const v2 = (name: string, o: { ready?: boolean; created?: number; noConditions?: boolean } = {}) => {
    const m = machine({
      name,
      controlPlane: true,
      nodeName: o.ready === false ? undefined : name,
      v1beta2: true,
      createdMinutesAgo: o.created ?? 600,
      phase: o.ready === false ? 'Provisioned' : 'Running',
    });
    if (o.noConditions) {
      m.status.conditions = [];
      m.status.deprecated = { v1beta1: { conditions: [] } };
    }
    return m;
  };
  const kcp3 = (ready?: number) => kcp({ replicas: 3, ready, updated: 3, v1beta2: true });

  it('no Nodes in the snapshot (management capture): Machine conditions decide → quiet when they say Ready', () => {
    const snap = buildSnapshot({ capi: { kubeadmControlPlanes: [kcp3(3)], machines: [v2('a'), v2('b'), v2('c')] } });
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });
  it('Machines with no readiness condition: KCP status readyReplicas decides, and missing says so', () => {
    const snap = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp3(2)],
        machines: [v2('a', { noConditions: true }), v2('b', { noConditions: true }), v2('c', { noConditions: true })],
      },
    });
    const [f] = controlplaneDegradedAnalyzer.analyze(buildContext(snap));
    expect(f?.evidence.join('\n')).toContain('2 of 3 control-plane nodes Ready (from kcp-status');
    expect(f?.missing?.[0]).toContain('count from KubeadmControlPlane status');
  });
  it('nothing reports readiness at all: no claim (unknown), never "0 of 3"', () => {
    const snap = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp3(undefined)],
        machines: [v2('a', { noConditions: true }), v2('b', { noConditions: true }), v2('c', { noConditions: true })],
      },
    });
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });
  it("Nodes of another cluster (the management cluster itself) are not this KCP's evidence", () => {
    const snap = buildSnapshot({
      nodes: [node('mgmt-control-plane', { controlPlane: true })],
      capi: { kubeadmControlPlanes: [kcp3(3)], machines: [v2('a'), v2('b'), v2('c')] },
    });
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(snap))).toEqual([]);
  });
  it('2 of 3 with the replacement starting inside nodeStartupTimeout → warning (self-healing), without it → critical', () => {
    const healing = buildSnapshot({
      capi: { kubeadmControlPlanes: [kcp3(2)], machines: [v2('a'), v2('b'), v2('new', { ready: false, created: 2 })] },
    });
    const [h] = controlplaneDegradedAnalyzer.analyze(buildContext(healing));
    expect(h?.severity).toBe('warning');
    expect(h?.cause).toContain('KCP is replacing the missing member');
    const stuck = buildSnapshot({
      capi: { kubeadmControlPlanes: [kcp3(2)], machines: [v2('a'), v2('b'), v2('new', { ready: false, created: 45 })] },
    });
    expect(controlplaneDegradedAnalyzer.analyze(buildContext(stuck))[0]?.severity).toBe('critical');
  });
});
