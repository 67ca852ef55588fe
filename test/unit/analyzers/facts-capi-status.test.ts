import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { findCondition } from '../../../src/diagnose/facts/find-condition.js';
import { readCapiStatus } from '../../../src/diagnose/facts/read-capi-status.js';
import { readMachineHealth } from '../../../src/diagnose/facts/read-machine-health.js';
import { readMhcStatus } from '../../../src/diagnose/facts/read-mhc-status.js';
import { summarizeControlPlane } from '../../../src/report/summarize-control-plane.js';
import { summarizeUpgrades } from '../../../src/report/summarize-upgrades.js';
import { buildSnapshot, kcp, machine, node } from '../../support/build-snapshot.js';

/** Defect class 4: one reader of CAPI status, v1beta2 first, v1beta1 as fallback. */
describe('readCapiStatus', () => {
  it('v1beta2 KCP (CAPI 1.11+): the new counters, not the deprecated copies', () => {
    const k: KubeObject = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'k' },
      spec: { replicas: 3, remediation: { maxRetry: 5, retryPeriodSeconds: 120, minHealthyPeriodSeconds: 7200 } },
      status: {
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        upToDateReplicas: 2,
        lastRemediation: { machine: 'm1', retryCount: 1, time: 't' },
        deprecated: { v1beta1: { readyReplicas: 1, updatedReplicas: 1, unavailableReplicas: 2 } },
        initialization: { controlPlaneInitialized: true },
      },
    };
    const st = readCapiStatus(k);
    expect(st.apiVersion).toBe('v1beta2');
    expect(st.replicas).toEqual({ desired: 3, current: 3, ready: 3, available: 3, upToDate: 2, from: 'v1beta2' });
    expect(st.lastRemediation).toEqual({ machine: 'm1', retryCount: 1, time: 't' });
    expect(st.remediationLimits).toEqual({ maxRetry: 5, retryPeriodSeconds: 120, minHealthyPeriodSeconds: 7200 });
    expect(st.initialized).toBe(true);
  });
  it('v1beta1 KCP served by CAPI 1.9/1.10: status.v1beta2 first, v1beta1 fields as fallback; remediationStrategy durations', () => {
    const k: KubeObject = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'k' },
      spec: { replicas: 3, remediationStrategy: { maxRetry: 3, retryPeriod: '2m0s', minHealthyPeriod: '2h' } },
      status: {
        replicas: 3,
        readyReplicas: 2,
        updatedReplicas: 3,
        unavailableReplicas: 1,
        initialized: true,
        v1beta2: { readyReplicas: 2, availableReplicas: 2 },
      },
    };
    const st = readCapiStatus(k);
    expect(st.apiVersion).toBe('v1beta1');
    expect(st.replicas).toEqual({ desired: 3, current: 3, ready: 2, available: 2, upToDate: 3, from: 'v1beta2' });
    expect(st.remediationLimits).toEqual({ maxRetry: 3, retryPeriodSeconds: 120, minHealthyPeriodSeconds: 7200 });
  });
  it('plain v1beta1 (CAPI ≤ 1.8): v1beta1 counters; available = replicas − unavailableReplicas', () => {
    const st = readCapiStatus({
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'k' },
      spec: { replicas: 3 },
      status: { replicas: 3, readyReplicas: 3, updatedReplicas: 3, unavailableReplicas: 0 },
    });
    expect(st.replicas).toEqual({ desired: 3, current: 3, ready: 3, available: 3, upToDate: 3, from: 'v1beta1' });
    expect(st.remediationLimits?.minHealthyPeriodSeconds).toBe(3600);
  });
  it('a counter the object does not carry stays undefined, never 0; odd types read as absent', () => {
    const st = readCapiStatus({
      kind: 'KubeadmControlPlane',
      metadata: { name: 'k' },
      spec: { replicas: '3' },
      status: { readyReplicas: null },
    });
    expect(st.replicas).toEqual({
      desired: undefined,
      current: undefined,
      ready: undefined,
      available: undefined,
      upToDate: undefined,
      from: 'none',
    });
  });
});

describe('findCondition, v1beta2 first', () => {
  it('a v1beta1 object carrying status.v1beta2 answers with the v1beta2 condition of the same type', () => {
    const m: KubeObject = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: { name: 'm' },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        v1beta2: { conditions: [{ type: 'Ready', status: 'False', reason: 'NotReady' }] },
      },
    };
    expect(findCondition(m, 'Ready')).toMatchObject({ status: 'False', reason: 'NotReady' });
    expect(findCondition(m, 'NodeHealthy')).toBeUndefined();
  });
});

describe('readMachineHealth', () => {
  it('the Node when read; else NodeReady, NodeHealthy, Ready in that order; else unknown', () => {
    const m = machine({ name: 'm', v1beta2: true, nodeName: 'm' });
    expect(readMachineHealth(m, node('m', { ready: false })).status).toBe('Unknown');
    expect(readMachineHealth(m).source).toBe('Machine condition NodeReady');
    const v1 = machine({ name: 'm', nodeName: 'm' });
    expect(readMachineHealth(v1)).toMatchObject({ status: 'True', source: 'Machine condition NodeHealthy' });
    expect(readMachineHealth({ kind: 'Machine', metadata: { name: 'x' }, status: { phase: 'Running' } })).toEqual({});
  });
});

describe('readMhcStatus', () => {
  it('v1beta2 checks, v1beta1 durations, and the 600 s default', () => {
    const v2 = readMhcStatus({
      kind: 'MachineHealthCheck',
      metadata: { name: 'a' },
      spec: {
        checks: {
          nodeStartupTimeoutSeconds: 900,
          unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
        },
        selector: { matchLabels: { 'cluster.x-k8s.io/control-plane': '' } },
      },
      status: { currentHealthy: 2, expectedMachines: 3, targets: ['a', 'b', 'c'] },
    });
    expect(v2).toMatchObject({
      nodeStartupTimeoutSeconds: 900,
      nodeStartupTimeoutDefaulted: false,
      controlPlane: true,
      currentHealthy: 2,
      expectedMachines: 3,
      unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
    });
    const v1 = readMhcStatus({
      kind: 'MachineHealthCheck',
      metadata: { name: 'b' },
      spec: { nodeStartupTimeout: '20m', unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout: '5m0s' }] },
    });
    expect(v1).toMatchObject({
      nodeStartupTimeoutSeconds: 1200,
      unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
      controlPlane: false,
    });
    expect(readMhcStatus({ kind: 'MachineHealthCheck', metadata: { name: 'c' } })).toMatchObject({
      nodeStartupTimeoutSeconds: 600,
      nodeStartupTimeoutDefaulted: true,
      targets: [],
    });
  });
});

describe('section lines from the same reader', () => {
  it('controlplane: a v1beta2 KCP without Nodes reads from Machine conditions, never "0 of 3"', () => {
    const s = buildSnapshot({
      capi: {
        kubeadmControlPlanes: [kcp({ ready: 3, updated: 3, v1beta2: true })],
        machines: ['a', 'b', 'c'].map((n) => machine({ name: n, controlPlane: true, nodeName: n, v1beta2: true })),
      },
    });
    expect(summarizeControlPlane(s)).toEqual({
      summary: '3 of 3 control-plane machines Ready (from Machine conditions)',
      hasData: true,
      counted: { ready: 3, total: 3 },
    });
  });
  it('controlplane: nothing reports readiness → says so, no data', () => {
    const s = buildSnapshot({ capi: { kubeadmControlPlanes: [kcp({ v1beta2: true })] } });
    const out = summarizeControlPlane(s);
    expect(out.hasData).toBe(false);
    expect(out.summary).toMatch(/^readiness not reported/);
  });
  it('upgrades: v1beta2 upToDateReplicas and RollingOut', () => {
    const k = kcp({ updated: 1, v1beta2: true, version: 'v1.35.0' });
    k.status.conditions = [{ type: 'RollingOut', status: 'True', reason: 'RollingOut' }];
    expect(summarizeUpgrades(buildSnapshot({ capi: { kubeadmControlPlanes: [k] } })).summary).toBe(
      'KCP it-tkg-mgmt-rg44c: 1 of 3 at v1.35.0, rolling out',
    );
  });
});

describe('a capture of Cluster objects only (test/fixtures/real/argocd-pr25661-*)', () => {
  // Shapes of the real Clusters of Argo CD PR #25661: CAPI v1.10 keeps the v1beta2 counters under
  // status.v1beta2 of a v1beta1 Cluster, CAPI v1.11+ at status.controlPlane / status.workers.
  const rolling = {
    type: 'RollingOut',
    status: 'True',
    reason: 'RollingOut',
    lastTransitionTime: '2025-12-09T11:27:03Z',
  };
  const v110 = (cp: Record<string, number>): KubeObject => ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Cluster',
    metadata: { name: 'cluster-qf-mathieu', namespace: 'cluster-qf-mathieu' },
    spec: { topology: { class: 'vsphere-v1.1.0', version: 'v1.34.2' } },
    status: {
      conditions: [{ type: 'Ready', status: 'True' }],
      controlPlaneReady: true,
      v1beta2: {
        conditions: [rolling],
        controlPlane: cp,
        workers: { desiredReplicas: 3, replicas: 3, readyReplicas: 3, availableReplicas: 3, upToDateReplicas: 3 },
      },
    },
  });
  const v111: KubeObject = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'cluster-foo' },
    spec: {},
    status: {
      conditions: [rolling],
      controlPlane: { desiredReplicas: 3, replicas: 3, readyReplicas: 3, availableReplicas: 3, upToDateReplicas: 3 },
      workers: { desiredReplicas: 6, replicas: 6, readyReplicas: 5, availableReplicas: 5, upToDateReplicas: 4 },
    },
  };

  it('readCapiStatus: a Cluster counts its control plane and workers, v1beta2 first wherever the version keeps them', () => {
    expect(readCapiStatus(v111).controlPlane).toEqual({
      desired: 3,
      current: 3,
      ready: 3,
      available: 3,
      upToDate: 3,
      from: 'v1beta2',
    });
    expect(readCapiStatus(v111).workers).toMatchObject({ desired: 6, ready: 5, upToDate: 4 });
    expect(
      readCapiStatus(
        v110({ desiredReplicas: 3, replicas: 4, readyReplicas: 3, availableReplicas: 3, upToDateReplicas: 1 }),
      ).controlPlane,
    ).toMatchObject({ desired: 3, current: 4, ready: 3, upToDate: 1 });
    // CAPI ≤ 1.8: a v1beta1 Cluster counts nothing — never read as 0.
    expect(
      readCapiStatus({
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Cluster',
        metadata: { name: 'old' },
        status: { controlPlaneReady: true },
      }).controlPlane,
    ).toBeUndefined();
  });

  it('controlplane line: read from the Cluster when no KCP and no control-plane Node is in the capture; degraded below desired', () => {
    expect(summarizeControlPlane(buildSnapshot({ capi: { clusters: [v111] } }))).toEqual({
      summary: '3 of 3 control-plane machines Ready (from Cluster status)',
      hasData: true,
      counted: { ready: 3, total: 3 },
    });
    expect(
      summarizeControlPlane(
        buildSnapshot({
          capi: { clusters: [v110({ desiredReplicas: 3, replicas: 4, readyReplicas: 3, upToDateReplicas: 1 })] },
        }),
      ),
    ).toEqual({
      summary: '3 of 3 control-plane machines Ready (from Cluster status; 4 machines while rolling out)',
      hasData: true,
      counted: { ready: 3, total: 3 },
    });
    expect(
      summarizeControlPlane(
        buildSnapshot({
          capi: { clusters: [v110({ desiredReplicas: 3, replicas: 4, readyReplicas: 2, upToDateReplicas: 3 })] },
        }),
      ),
    ).toEqual({
      summary: '2 of 3 control-plane machines Ready (from Cluster status; 4 machines while rolling out)',
      hasData: true,
      counted: { ready: 2, total: 3 },
      degraded: true,
    });
    // A KCP in the capture wins over its Cluster's counters; a Cluster that counts nothing adds nothing.
    const withKcp = buildSnapshot({
      capi: { clusters: [v111], kubeadmControlPlanes: [kcp({ ready: 2, updated: 3, v1beta2: true })] },
    });
    expect(summarizeControlPlane(withKcp).summary).toBe(
      '2 of 3 control-plane machines Ready (from KubeadmControlPlane status)',
    );
    expect(
      summarizeControlPlane(
        buildSnapshot({ capi: { clusters: [{ kind: 'Cluster', metadata: { name: 'old' }, status: {} }] } }),
      ).hasData,
    ).toBe(false);
  });

  it('upgrades line: the Cluster counts what the capture does not hold, with its topology version and RollingOut', () => {
    expect(
      summarizeUpgrades(
        buildSnapshot({
          capi: { clusters: [v110({ desiredReplicas: 3, replicas: 4, readyReplicas: 3, upToDateReplicas: 1 })] },
        }),
      ).summary,
    ).toBe(
      'Cluster cluster-qf-mathieu (topology v1.34.2): control plane 1 of 3 up to date, workers 3 of 3 up to date, rolling out',
    );
    expect(summarizeUpgrades(buildSnapshot({ capi: { clusters: [v111] } })).summary).toBe(
      'Cluster cluster-foo: control plane 3 of 3 up to date, workers 4 of 6 up to date, rolling out',
    );
  });
});
