import { describe, expect, it } from '@jest/globals';
import { controlplaneNotSelfHealingAnalyzer } from '../../../src/diagnose/analyzers/controlplane-not-self-healing.js';
import { buildContext, buildSnapshot, kcp, machine, node } from '../../support/build-snapshot.js';

const snap = (total: number, notReadyMinutes: number, extraMachines: ReturnType<typeof machine>[] = []) =>
  buildSnapshot({
    nodes: Array.from({ length: total }, (_, k) =>
      node(`cp${k}`, { controlPlane: true, ready: k !== 0, notReadyMinutes }),
    ),
    capi: {
      kubeadmControlPlanes: [kcp({ replicas: total })],
      machines: [
        ...Array.from({ length: total }, (_, k) => machine({ name: `cp${k}`, controlPlane: true, nodeName: `cp${k}` })),
        ...extraMachines,
      ],
    },
  });

describe('controlplane.not-self-healing', () => {
  it('seed S1: kubelet stopped on 1 of 3 → remaining 2 at quorum → critical, quoting the node condition', () => {
    const [f] = controlplaneNotSelfHealingAnalyzer.analyze(buildContext(snap(3, 30)));
    expect(f).toMatchObject({ severity: 'critical', subject: { kind: 'Node', name: 'cp0' } });
    expect(f!.evidence[0]).toMatch(
      /Ready=Unknown reason=NodeStatusUnknown message="Kubelet stopped posting node status."/,
    );
    expect(f!.title).toMatch(/Cluster API will not replace it/);
  });
  it('1 of 5 NotReady leaves 4 Ready above quorum → warning', () => {
    expect(controlplaneNotSelfHealingAnalyzer.analyze(buildContext(snap(5, 30)))[0]?.severity).toBe('warning');
  });
  it.each([
    ['NotReady for under the grace period', snap(3, 0.5)],
    [
      'a replacement machine is already provisioning',
      snap(3, 30, [machine({ name: 'cp-new', controlPlane: true, phase: 'Provisioning', createdMinutesAgo: 3 })]),
    ],
  ])('quiet: %s', (_n, s) => expect(controlplaneNotSelfHealingAnalyzer.analyze(buildContext(s))).toEqual([]));
});

describe('controlplane.not-self-healing benign look-alike (seed S3)', () => {
  it('a node NotReady because the CNI never started is left to node.cni-not-initialized', () => {
    const s = snap(3, 30);
    s.nodes[0]!.status.conditions[0] = {
      type: 'Ready',
      status: 'False',
      reason: 'KubeletNotReady',
      message:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    };
    expect(controlplaneNotSelfHealingAnalyzer.analyze(buildContext(s))).toEqual([]);
  });
});
