import { describe, expect, it } from '@jest/globals';
import { createEmptySnapshot, type KubeObject } from '../../src/cluster/snapshot.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { recordScan } from '../../src/diagnose/record-scan.js';

const NOW = new Date('2025-03-01T10:00:00.000Z');

function machine(name: string, extra: Partial<KubeObject['metadata']> = {}, status: object = {}): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: { name, namespace: 'ns-prod', ...extra },
    spec: {},
    status,
  };
}

function finding(id: Finding['id'], severity: Finding['severity'], fingerprint: string): Finding {
  return {
    id,
    severity,
    section: 'machines',
    title: id,
    subject: { kind: 'Machine', name: 'x' },
    evidence: [],
    remediations: [],
    confidence: 'high',
    fingerprint,
  };
}

describe('recordScan', () => {
  it('records machines with their controller owner, deployment, control-plane flag, phase, node and deletion', () => {
    const s = createEmptySnapshot('prod', NOW.toISOString(), 'dump');
    s.capi.machines.push(
      machine(
        'md-0-abc',
        {
          uid: 'u1',
          creationTimestamp: '2025-03-01T09:50:00Z',
          labels: { 'cluster.x-k8s.io/deployment-name': 'md-0' },
          ownerReferences: [
            { kind: 'MachineDeployment', name: 'md-0' },
            { kind: 'MachineSet', name: 'md-0-7d9f', controller: true },
          ],
          deletionTimestamp: '2025-03-01T09:58:00Z',
        },
        { phase: 'Deleting', nodeRef: { kind: 'Node', name: 'md-0-abc' } },
      ),
      machine(
        'cp-1',
        {
          labels: { 'cluster.x-k8s.io/control-plane': '' },
          ownerReferences: [{ kind: 'KubeadmControlPlane', name: 'prod-cp', controller: true }],
        },
        { phase: 'Provisioning' },
      ),
      machine('orphan'),
    );
    const r = recordScan(s, [], NOW);
    expect(r.at).toBe('2025-03-01T10:00:00.000Z');
    expect(r.machines).toEqual([
      {
        namespace: 'ns-prod',
        name: 'cp-1',
        owner: 'KubeadmControlPlane/prod-cp',
        controlPlane: true,
        phase: 'Provisioning',
        deleting: false,
      },
      {
        namespace: 'ns-prod',
        name: 'md-0-abc',
        uid: 'u1',
        owner: 'MachineSet/md-0-7d9f',
        deployment: 'md-0',
        controlPlane: false,
        phase: 'Deleting',
        nodeName: 'md-0-abc',
        creationTimestamp: '2025-03-01T09:50:00Z',
        deleting: true,
      },
      { namespace: 'ns-prod', name: 'orphan', owner: '', controlPlane: false, deleting: false },
    ]);
  });

  it('records rollouts from v1beta1 and v1beta2 status field names', () => {
    const s = createEmptySnapshot('prod', NOW.toISOString(), 'dump');
    s.capi.kubeadmControlPlanes.push({
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'prod-cp', namespace: 'ns-prod' },
      spec: { replicas: 3, version: 'v1.30.2' },
      status: { replicas: 4, updatedReplicas: 1, readyReplicas: 3, version: 'v1.29.4' },
    });
    s.capi.machineDeployments.push(
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        metadata: { name: 'md-0', namespace: 'ns-prod' },
        spec: { replicas: 3, template: { spec: { version: 'v1.34.3' } } },
        status: {
          replicas: 3,
          upToDateReplicas: 2,
          readyReplicas: 3,
          deprecated: { v1beta1: { updatedReplicas: 9, readyReplicas: 9 } },
        },
      },
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        metadata: { name: 'md-1', namespace: 'ns-prod' },
        spec: { template: { spec: {} } },
        status: { replicas: 2, deprecated: { v1beta1: { updatedReplicas: 1, readyReplicas: 2 } } },
      },
    );
    expect(recordScan(s, [], NOW).rollouts).toEqual([
      {
        kind: 'KubeadmControlPlane',
        namespace: 'ns-prod',
        name: 'prod-cp',
        version: 'v1.30.2',
        replicas: 3,
        updatedReplicas: 1,
        readyReplicas: 3,
      },
      {
        kind: 'MachineDeployment',
        namespace: 'ns-prod',
        name: 'md-0',
        version: 'v1.34.3',
        replicas: 3,
        updatedReplicas: 2,
        readyReplicas: 3,
      },
      {
        kind: 'MachineDeployment',
        namespace: 'ns-prod',
        name: 'md-1',
        replicas: 2,
        updatedReplicas: 1,
        readyReplicas: 2,
      },
    ]);
  });

  it('keeps only warning and critical findings', () => {
    const s = createEmptySnapshot('prod', NOW.toISOString(), 'dump');
    const r = recordScan(
      s,
      [
        finding('etcd.no-leader', 'critical', 'f1'),
        finding('capi.mhc-unhealthy', 'info', 'f2'),
        finding('node.not-ready', 'warning', 'f3'),
      ],
      NOW,
    );
    expect(r.findings).toEqual([
      { id: 'etcd.no-leader', fingerprint: 'f1', severity: 'critical' },
      { id: 'node.not-ready', fingerprint: 'f3', severity: 'warning' },
    ]);
    expect(r.machines).toEqual([]);
    expect(r.rollouts).toEqual([]);
  });
});
