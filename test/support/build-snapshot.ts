/**
 * Tiny builders for analyzer unit tests: small, readable snapshots in real Kubernetes / CAPI shapes.
 * Every builder takes overrides so a table row states only what it is about.
 */
import type { AnalysisContext } from '../../src/diagnose/analyzer.js';
import { createEmptySnapshot, type EtcdState, type KubeObject, type Snapshot } from '../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { EMPTY_HISTORY, type HistoryView } from '../../src/diagnose/history.js';

export const NOW = '2023-11-30T17:00:00Z';

/** ISO time `minutes` before NOW (negative = in the future, for clock-skew cases). */
export function ago(minutes: number): string {
  return new Date(Date.parse(NOW) - minutes * 60000).toISOString();
}

export function buildSnapshot(
  parts: Partial<Omit<Snapshot, 'capi'>> & { capi?: Partial<Snapshot['capi']> } = {},
): Snapshot {
  const base = createEmptySnapshot('it-tkg-mgmt', NOW, 'dump');
  const { capi, ...rest } = parts;
  return { ...base, ...rest, capi: { ...base.capi, ...capi } };
}

export function buildContext(snapshot: Snapshot, history: HistoryView = EMPTY_HISTORY): AnalysisContext {
  return { snapshot, history, thresholds: DEFAULT_THRESHOLDS, now: new Date(NOW) };
}

export interface MachineOpts {
  name: string;
  namespace?: string;
  controlPlane?: boolean;
  kcp?: string;
  deployment?: string;
  phase?: string;
  nodeName?: string;
  createdMinutesAgo?: number;
  deletingMinutesAgo?: number;
  version?: string;
  annotations?: Record<string, string>;
  addresses?: string[];
  /** CAPI v1beta2 shape (conditions with observedGeneration, old ones under deprecated.v1beta1). */
  v1beta2?: boolean;
  noStatus?: boolean;
}

export function machine(o: MachineOpts): KubeObject {
  const labels: Record<string, string> = { 'cluster.x-k8s.io/cluster-name': 'it-tkg-mgmt' };
  if (o.controlPlane) {
    labels['cluster.x-k8s.io/control-plane'] = '';
    labels['cluster.x-k8s.io/control-plane-name'] = o.kcp ?? 'it-tkg-mgmt-rg44c';
  }
  if (o.deployment) labels['cluster.x-k8s.io/deployment-name'] = o.deployment;
  const nodeCond = {
    type: 'NodeHealthy',
    status: o.nodeName ? 'True' : 'False',
    reason: o.nodeName ? undefined : 'NodeProvisioning',
    lastTransitionTime: ago((o.createdMinutesAgo ?? 60) - 2),
  };
  const status = o.v1beta2
    ? {
        phase: o.phase ?? 'Running',
        nodeRef: o.nodeName ? { name: o.nodeName } : undefined,
        initialization: { infrastructureProvisioned: true, bootstrapDataSecretCreated: true },
        conditions: [
          {
            type: 'NodeReady',
            status: nodeCond.status,
            reason: o.nodeName ? 'NodeReady' : 'NodeDoesNotExist',
            observedGeneration: 3,
            lastTransitionTime: nodeCond.lastTransitionTime,
          },
        ],
        deprecated: { v1beta1: { conditions: [nodeCond] } },
        addresses: (o.addresses ?? []).map((address) => ({ type: 'InternalIP', address })),
      }
    : {
        phase: o.phase ?? 'Running',
        nodeRef: o.nodeName ? { apiVersion: 'v1', kind: 'Node', name: o.nodeName } : undefined,
        infrastructureReady: true,
        conditions: [nodeCond],
        addresses: (o.addresses ?? []).map((address) => ({ type: 'ExternalIP', address })),
      };
  return {
    apiVersion: o.v1beta2 ? 'cluster.x-k8s.io/v1beta2' : 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: o.name,
      namespace: o.namespace ?? 'tkg-system',
      creationTimestamp: ago(o.createdMinutesAgo ?? 60 * 24),
      deletionTimestamp: o.deletingMinutesAgo !== undefined ? ago(o.deletingMinutesAgo) : undefined,
      labels,
      annotations: o.annotations,
      ownerReferences: o.controlPlane
        ? [{ kind: 'KubeadmControlPlane', name: o.kcp ?? 'it-tkg-mgmt-rg44c', controller: true }]
        : [],
    },
    spec: { clusterName: 'it-tkg-mgmt', version: o.version ?? 'v1.27.5+vmware.1', providerID: `vsphere://${o.name}` },
    status: o.noStatus ? undefined : status,
  };
}

export function node(
  name: string,
  o: { ready?: boolean; controlPlane?: boolean; notReadyMinutes?: number; address?: string } = {},
): KubeObject {
  const ready = o.ready ?? true;
  return {
    kind: 'Node',
    metadata: { name, labels: o.controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : {} },
    status: {
      addresses: o.address ? [{ type: 'InternalIP', address: o.address }] : [],
      conditions: [
        ready
          ? { type: 'Ready', status: 'True', reason: 'KubeletReady' }
          : {
              type: 'Ready',
              status: 'Unknown',
              reason: 'NodeStatusUnknown',
              message: 'Kubelet stopped posting node status.',
              lastTransitionTime: ago(o.notReadyMinutes ?? 30),
            },
      ],
    },
  };
}

export function kcp(
  o: { name?: string; replicas?: number; version?: string; updated?: number; ready?: number; v1beta2?: boolean } = {},
): KubeObject {
  const status = o.v1beta2
    ? {
        replicas: o.replicas ?? 3,
        readyReplicas: o.ready,
        upToDateReplicas: o.updated,
        deprecated: { v1beta1: { updatedReplicas: o.updated } },
      }
    : { replicas: o.replicas ?? 3, readyReplicas: o.ready, updatedReplicas: o.updated };
  return {
    kind: 'KubeadmControlPlane',
    metadata: { name: o.name ?? 'it-tkg-mgmt-rg44c', namespace: 'tkg-system' },
    spec: { replicas: o.replicas ?? 3, version: o.version ?? 'v1.27.5+vmware.1' },
    status,
  };
}

/** etcd as etcdctl prints it: members, endpoint status (leader as seen by each), endpoint health. */
export function etcd(
  members: {
    id: string;
    name: string;
    ip: string;
    learner?: boolean;
    status?: { leader?: string; applied?: string; errors?: string[] } | null;
    healthy?: boolean;
  }[],
): EtcdState {
  return {
    source: 'etcdctl',
    members: members.map((m) => ({
      id: m.id,
      name: m.name,
      peerURLs: [`https://${m.ip}:2380`],
      clientURLs: [`https://${m.ip}:2379`],
      isLearner: !!m.learner,
    })),
    endpoints: members
      .filter((m) => m.status !== null)
      .map((m) => ({
        endpoint: `https://${m.ip}:2379`,
        memberId: m.id,
        leader: m.status?.leader,
        raftAppliedIndex: m.status?.applied,
        errors: m.status?.errors ?? [],
      })),
    health: members.map((m) => ({ endpoint: `https://${m.ip}:2379`, health: m.healthy ?? m.status !== null })),
    alarms: [],
  };
}

export const QFHP2_ID = '11885770545065989989';
export const SBV4F_ID = '13179411261655136190';

/** Seed S0 in miniature: qfhp2 still follows sbv4f (172.16.52.10), which does not answer; vrkvg hangs Provisioned. */
export function s0Snapshot(): Snapshot {
  return buildSnapshot({
    nodes: [
      node('it-tkg-mgmt-rg44c-qfhp2', { controlPlane: true }),
      node('it-tkg-mgmt-rg44c-sbv4f', { controlPlane: true }),
    ],
    etcd: etcd([
      {
        id: QFHP2_ID,
        name: 'it-tkg-mgmt-rg44c-qfhp2',
        ip: '172.16.52.14',
        status: { leader: SBV4F_ID, applied: '900' },
        healthy: false,
      },
      { id: SBV4F_ID, name: 'it-tkg-mgmt-rg44c-sbv4f', ip: '172.16.52.10', status: null },
    ]),
    capi: {
      kubeadmControlPlanes: [kcp({ replicas: 3, ready: 2, updated: 3 })],
      machines: [
        machine({
          name: 'it-tkg-mgmt-rg44c-qfhp2',
          controlPlane: true,
          nodeName: 'it-tkg-mgmt-rg44c-qfhp2',
          addresses: ['172.16.52.14'],
        }),
        machine({
          name: 'it-tkg-mgmt-rg44c-sbv4f',
          controlPlane: true,
          nodeName: 'it-tkg-mgmt-rg44c-sbv4f',
          addresses: ['172.16.52.10'],
        }),
        machine({
          name: 'it-tkg-mgmt-rg44c-vrkvg',
          controlPlane: true,
          phase: 'Provisioned',
          createdMinutesAgo: 134,
          addresses: ['172.16.52.16'],
          annotations: {
            'controlplane.cluster.x-k8s.io/remediation-for':
              '{"machine":"it-tkg-mgmt-rg44c-gn5sw","timestamp":"2023-11-30T14:39:33Z","retryCount":819}',
          },
        }),
      ],
      machineHealthChecks: [
        {
          kind: 'MachineHealthCheck',
          metadata: { name: 'it-tkg-mgmt-rg44c', namespace: 'tkg-system' },
          spec: { selector: { matchLabels: { 'cluster.x-k8s.io/control-plane': '' } } },
          status: { expectedMachines: 3, currentHealthy: 2 },
        },
      ],
    },
    events: [
      {
        origin: 'management',
        namespace: 'tkg-system',
        reason: 'DetectedUnhealthy',
        type: 'Normal',
        message: 'Machine tkg-system/it-tkg-mgmt-rg44c/it-tkg-mgmt-rg44c-vrkvg/ has unhealthy node',
        count: 23,
        firstTimestamp: ago(5.4),
        lastTimestamp: ago(0.25),
        involvedObject: { kind: 'Machine', namespace: 'tkg-system', name: 'it-tkg-mgmt-rg44c-vrkvg' },
        source: 'machinehealthcheck-controller',
      },
    ],
  });
}
