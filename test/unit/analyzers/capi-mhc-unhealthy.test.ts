import { describe, expect, it } from '@jest/globals';
import { capiMhcUnhealthyAnalyzer } from '../../../src/diagnose/analyzers/capi-mhc-unhealthy.js';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { buildContext, buildSnapshot, s0Snapshot } from '../../support/build-snapshot.js';

const mhc = (cp: boolean, healthy: number | undefined, expected: number | undefined, extra: Record<string, unknown> = {}): KubeObject => ({
  kind: 'MachineHealthCheck',
  metadata: { name: 'mhc', namespace: 'ns' },
  spec: { selector: { matchLabels: cp ? { 'cluster.x-k8s.io/control-plane': '' } : { 'cluster.x-k8s.io/deployment-name': 'md-0' } } },
  status: { currentHealthy: healthy, expectedMachines: expected, ...extra },
});
const run = (o: KubeObject) => capiMhcUnhealthyAnalyzer.analyze(buildContext(buildSnapshot({ capi: { machineHealthChecks: [o] } })));

describe('capi.mhc-unhealthy', () => {
  it('seed S0: control-plane MHC 2 of 3, caused by the unreachable etcd leader', () => {
    const [f] = capiMhcUnhealthyAnalyzer.analyze(buildContext(s0Snapshot()));
    expect(f).toMatchObject({ severity: 'warning', subject: { kind: 'MachineHealthCheck', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c' } });
    expect(f!.causedBy).toHaveLength(1);
    expect(f!.evidence[0]).toBe('MachineHealthCheck tkg-system/it-tkg-mgmt-rg44c: expectedMachines=3, currentHealthy=2');
  });
  it.each([
    ['control plane below quorum', mhc(true, 1, 3), 'critical'],
    ['worker, remediation in progress', mhc(false, 2, 3), 'info'],
    [
      'worker, remediation blocked (v1beta2 shape)',
      mhc(false, 1, 3, { conditions: [{ type: 'RemediationAllowed', status: 'False', reason: 'TooManyUnhealthy', observedGeneration: 1 }] }),
      'warning',
    ],
  ])('%s → %s', (_n, o, sev) => expect(run(o)[0]?.severity).toBe(sev));
  it.each([
    ['all healthy', mhc(true, 3, 3)],
    ['no status yet', { ...mhc(true, 0, 0), status: undefined }],
    ['fields missing', mhc(true, undefined, 3)],
  ])('quiet: %s', (_n, o) => expect(run(o)).toEqual([]));
});
