import { describe, expect, it } from '@jest/globals';
import { capiMhcUnhealthyAnalyzer } from '../../../src/diagnose/analyzers/capi-mhc-unhealthy.js';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { buildContext, buildSnapshot, machine, s0Snapshot } from '../../support/build-snapshot.js';

const mhc = (
  cp: boolean,
  healthy: number | undefined,
  expected: number | undefined,
  extra: Record<string, unknown> = {},
): KubeObject => ({
  kind: 'MachineHealthCheck',
  metadata: { name: 'mhc', namespace: 'ns' },
  spec: {
    selector: {
      matchLabels: cp ? { 'cluster.x-k8s.io/control-plane': '' } : { 'cluster.x-k8s.io/deployment-name': 'md-0' },
    },
  },
  status: { currentHealthy: healthy, expectedMachines: expected, ...extra },
});
const run = (o: KubeObject) =>
  capiMhcUnhealthyAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machineHealthChecks: [o] } })));

describe('capi.mhc-unhealthy', () => {
  it('seed S0: control-plane MHC 2 of 3, caused by the unreachable etcd leader', () => {
    const [f] = capiMhcUnhealthyAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({
      severity: 'warning',
      subject: { kind: 'MachineHealthCheck', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' },
    });
    expect(f!.causedBy).toHaveLength(1);
    expect(f!.evidence[0]).toBe(
      'MachineHealthCheck tkg-system/it-tkg-mgmt-rg44c: expectedMachines=3, currentHealthy=2',
    );
  });
  it.each([
    ['control plane below quorum', mhc(true, 1, 3), 'critical'],
    ['worker, remediation in progress', mhc(false, 2, 3), 'info'],
    [
      'worker, remediation blocked (v1beta2 shape)',
      mhc(false, 1, 3, {
        conditions: [
          { type: 'RemediationAllowed', status: 'False', reason: 'TooManyUnhealthy', observedGeneration: 1 },
        ],
      }),
      'warning',
    ],
  ])('%s → %s', (_n, o, sev) => expect(run(o)[0]?.severity).toBe(sev));
  it.each([
    ['all healthy', mhc(true, 3, 3)],
    ['no status yet', { ...mhc(true, 0, 0), status: undefined }],
    ['fields missing', mhc(true, undefined, 3)],
  ])('quiet: %s', (_n, o) => expect(run(o)).toEqual([]));

  // Defect class 5: rollouts are not outages.
  describe('rollouts and new machines inside nodeStartupTimeout', () => {
    const v2mhc = (healthy: number, expected: number, cp = false, startup?: number): KubeObject => ({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineHealthCheck',
      metadata: { name: 'mhc', namespace: 'tkg-system' },
      spec: {
        clusterName: 'it-tkg-mgmt',
        selector: {
          matchLabels: cp ? { 'cluster.x-k8s.io/control-plane': '' } : { 'cluster.x-k8s.io/deployment-name': 'md-0' },
        },
        checks: {
          ...(startup !== undefined ? { nodeStartupTimeoutSeconds: startup } : {}),
          unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
        },
      },
      status: { currentHealthy: healthy, expectedMachines: expected },
    });
    const cps = (extra: ReturnType<typeof machine>[]) => [
      machine({ name: 'cp-a', controlPlane: true, nodeName: 'cp-a', v1beta2: true }),
      machine({ name: 'cp-b', controlPlane: true, nodeName: 'cp-b', v1beta2: true }),
      machine({ name: 'cp-c', controlPlane: true, nodeName: 'cp-c', v1beta2: true }),
      ...extra,
    ];
    const runWith = (o: KubeObject, machines: ReturnType<typeof machine>[]) =>
      capiMhcUnhealthyAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machineHealthChecks: [o], machines } })));

    it('KCP rollout: a 4th control-plane machine 3 min old without a Node explains 3 of 4 → nothing', () => {
      expect(
        runWith(
          v2mhc(3, 4, true),
          cps([
            machine({ name: 'cp-new', controlPlane: true, phase: 'Provisioning', createdMinutesAgo: 3, v1beta2: true }),
          ]),
        ),
      ).toEqual([]);
    });
    it('an old machine being deleted by the rollout is not a failure', () => {
      expect(
        runWith(
          v2mhc(3, 4, true),
          cps([
            machine({ name: 'cp-old', controlPlane: true, nodeName: 'cp-old', deletingMinutesAgo: 1, v1beta2: true }),
          ]),
        ),
      ).toEqual([]);
    });
    it('the same machine past nodeStartupTimeoutSeconds (600 default) is unhealthy → warning', () => {
      const [f] = runWith(
        v2mhc(3, 4, true),
        cps([
          machine({ name: 'cp-new', controlPlane: true, phase: 'Provisioning', createdMinutesAgo: 25, v1beta2: true }),
        ]),
      );
      expect(f?.severity).toBe('warning');
    });
    it('a shorter nodeStartupTimeoutSeconds of the MHC is honoured', () => {
      const [f] = runWith(
        v2mhc(3, 4, true, 120),
        cps([
          machine({ name: 'cp-new', controlPlane: true, phase: 'Provisioning', createdMinutesAgo: 3, v1beta2: true }),
        ]),
      );
      expect(f?.severity).toBe('warning');
    });
    it('one starting machine does not explain two missing: still reported, with the starting one in evidence', () => {
      const [f] = runWith(
        v2mhc(2, 4, true),
        cps([
          machine({ name: 'cp-new', controlPlane: true, phase: 'Provisioning', createdMinutesAgo: 3, v1beta2: true }),
        ]),
      );
      expect(f?.severity).toBe('warning');
      expect(f!.evidence.join('\n')).toMatch(
        /cp-new created 3m ago has no Node yet: within the MHC nodeStartupTimeout of 10m \(default\)/,
      );
    });
    it('MachineDeployment rollout (v1beta1 MHC, nodeStartupTimeout "10m"): new worker without a Node → nothing', () => {
      const v1: KubeObject = {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'MachineHealthCheck',
        metadata: { name: 'mhc-md', namespace: 'tkg-system' },
        spec: {
          clusterName: 'it-tkg-mgmt',
          nodeStartupTimeout: '10m',
          selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'md-0' } },
        },
        status: { currentHealthy: 3, expectedMachines: 4, targets: ['w1', 'w2', 'w3', 'w4'] },
      };
      const ws = ['w1', 'w2', 'w3'].map((n) => machine({ name: n, deployment: 'md-0', nodeName: n }));
      expect(
        runWith(v1, [...ws, machine({ name: 'w4', deployment: 'md-0', phase: 'Provisioned', createdMinutesAgo: 6 })]),
      ).toEqual([]);
    });
    it('without the Machines it checks, it says so in missing', () => {
      const [f] = run(mhc(true, 2, 3));
      expect(f?.missing?.[0]).toContain('the Machines it checks were not read');
    });
  });
});
