/**
 * Builders for the blocker tests (what blocks a Machine deletion or a rollout): Machines being deleted
 * in the v1beta2 shape Cluster API writes (the `Deleting` condition with its reason and message,
 * `status.deletion` start times, v1beta1 conditions under status.deprecated), PodDisruptionBudgets,
 * VolumeAttachments, MachineDeployments. Messages follow kubernetes-sigs/cluster-api
 * (core/reconcilers/machine/machine_controller.go, drain/drain.go ConditionMessage).
 */
import type { KubeObject, PodProjection } from '../../src/cluster/snapshot.js';
import { ago } from './build-snapshot.js';
import { pod } from './snapshot-b.js';

export type Stage = 'WaitingForPreDrainHook' | 'DrainingNode' | 'WaitingForVolumeDetach' | 'WaitingForPreTerminateHook';

export interface DeletingMachineOpts {
  name?: string;
  ns?: string;
  node?: string;
  /** Minutes since deletionTimestamp. */
  deletingMin: number;
  stage?: Stage;
  /** Minutes since the stage started (status.deletion start time); default deletingMin - 1. */
  stageMin?: number;
  message?: string;
  annotations?: Record<string, string>;
  /** v1beta1 Machine with the old DrainingSucceeded / PreDrainDeleteHookSucceeded … conditions instead. */
  v1beta1?: boolean;
  drainTimeoutSeconds?: number;
  controlPlane?: boolean;
}

const V1BETA1: Record<Stage, [string, string]> = {
  WaitingForPreDrainHook: ['PreDrainDeleteHookSucceeded', 'WaitingExternalHook'],
  DrainingNode: ['DrainingSucceeded', 'Draining'],
  WaitingForVolumeDetach: ['VolumeDetachSucceeded', 'WaitingForVolumeDetach'],
  WaitingForPreTerminateHook: ['PreTerminateDeleteHookSucceeded', 'WaitingExternalHook'],
};
const START_FIELD: Record<Stage, string> = {
  WaitingForPreDrainHook: 'waitForPreDrainHookStartTime',
  DrainingNode: 'nodeDrainStartTime',
  WaitingForVolumeDetach: 'waitForNodeVolumeDetachStartTime',
  WaitingForPreTerminateHook: 'waitForPreTerminateHookStartTime',
};

/** A worker Machine of MachineDeployment c1-md-0 being deleted, stuck in `stage`. */
export function deletingMachine(o: DeletingMachineOpts): KubeObject {
  const name = o.name ?? 'c1-md-0-7d9f8-x2bq4';
  const node = o.node ?? name;
  const stageStart = ago(o.stageMin ?? o.deletingMin - 1);
  const labels: Record<string, string> = { 'cluster.x-k8s.io/cluster-name': 'c1' };
  if (o.controlPlane)
    Object.assign(labels, { 'cluster.x-k8s.io/control-plane': '', 'cluster.x-k8s.io/control-plane-name': 'c1-cp' });
  else labels['cluster.x-k8s.io/deployment-name'] = 'c1-md-0';
  const owner = o.controlPlane
    ? {
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
        kind: 'KubeadmControlPlane',
        name: 'c1-cp',
        controller: true,
      }
    : { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', name: 'c1-md-0-7d9f8', controller: true };
  const status: Record<string, unknown> = {
    phase: 'Deleting',
    nodeRef: { name: node },
    initialization: { infrastructureProvisioned: true, bootstrapDataSecretCreated: true },
  };
  const v1conds: unknown[] = [];
  if (o.stage) {
    status['deletion'] = {
      [START_FIELD[o.stage]]: stageStart,
      ...(o.stage !== 'DrainingNode' && o.stage !== 'WaitingForPreDrainHook'
        ? { nodeDrainStartTime: ago(o.deletingMin - 0.5) }
        : {}),
    };
    const [type, reason] = V1BETA1[o.stage];
    v1conds.push({
      type,
      status: 'False',
      reason,
      severity: 'Info',
      message: o.message ?? '',
      lastTransitionTime: stageStart,
    });
  }
  if (o.v1beta1) {
    status['conditions'] = v1conds;
  } else {
    status['conditions'] = o.stage
      ? [
          {
            type: 'Deleting',
            status: 'True',
            reason: o.stage,
            message: o.message ?? '',
            observedGeneration: 3,
            lastTransitionTime: stageStart,
          },
        ]
      : [];
    status['deprecated'] = { v1beta1: { conditions: v1conds } };
  }
  const spec: Record<string, unknown> = { clusterName: 'c1', version: 'v1.31.4' };
  if (o.drainTimeoutSeconds !== undefined) {
    if (o.v1beta1) spec['nodeDrainTimeout'] = `${o.drainTimeoutSeconds}s`;
    else spec['deletion'] = { nodeDrainTimeoutSeconds: o.drainTimeoutSeconds };
  }
  return {
    apiVersion: o.v1beta1 ? 'cluster.x-k8s.io/v1beta1' : 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name,
      namespace: o.ns ?? 'ns1',
      uid: `uid-${name}`,
      creationTimestamp: ago(3000),
      deletionTimestamp: ago(o.deletingMin),
      finalizers: ['machine.cluster.x-k8s.io'],
      labels,
      annotations: o.annotations ?? {},
      ownerReferences: [owner],
    },
    spec,
    status,
  };
}

/**
 * "Drain not completed yet (started at …):" + one line per cause, as drain.EvictionResult.ConditionMessage writes it.
 */
export function drainMessage(startedMin: number, lines: string[]): string {
  return [`Drain not completed yet (started at ${ago(startedMin).replace(/\.\d+Z$/, 'Z')}):`, ...lines].join('\n');
}

export function pdbRefusalLine(pods: string[], budget: string, needs: number, has: number): string {
  return `* Pod${pods.length > 1 ? 's' : ''} ${pods.join(', ')}: cannot evict pod as it would violate the pod's disruption budget. The disruption budget ${budget} needs ${needs} healthy pods and has ${has} currently`;
}

/** policy/v1 PodDisruptionBudget with its computed status. */
export function pdb(
  ns: string,
  name: string,
  o: {
    matchLabels: Record<string, string>;
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    allowed: number;
    healthy?: number;
    desired?: number;
    expected?: number;
  },
): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: ns, uid: `uid-pdb-${name}`, creationTimestamp: ago(10000) },
    spec: {
      selector: { matchLabels: o.matchLabels },
      ...(o.minAvailable !== undefined ? { minAvailable: o.minAvailable } : {}),
      ...(o.maxUnavailable !== undefined ? { maxUnavailable: o.maxUnavailable } : {}),
    },
    status: {
      disruptionsAllowed: o.allowed,
      currentHealthy: o.healthy ?? 2,
      desiredHealthy: o.desired ?? 2,
      expectedPods: o.expected ?? 2,
      observedGeneration: 1,
    },
  };
}

/** A ReplicaSet-owned pod on a node. */
export function appPod(
  ns: string,
  name: string,
  node: string,
  labels: Record<string, string>,
  o: Partial<PodProjection> = {},
): PodProjection {
  return pod(ns, name, {
    nodeName: node,
    labels,
    ownerReferences: [{ kind: 'ReplicaSet', name: `${name.replace(/-[a-z0-9]+$/, '')}`, controller: true }],
    ...o,
  });
}

/** storage.k8s.io/v1 VolumeAttachment of a CSI volume. */
export function volumeAttachment(
  name: string,
  node: string,
  pv: string,
  o: { attached?: boolean; detachError?: string; attacher?: string } = {},
): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name, uid: `uid-${name}`, creationTimestamp: ago(3000) },
    spec: { attacher: o.attacher ?? 'csi.vsphere.vmware.com', nodeName: node, source: { persistentVolumeName: pv } },
    status: {
      attached: o.attached ?? true,
      ...(o.detachError ? { detachError: { message: o.detachError, time: ago(5) } } : {}),
    },
  };
}

export function pvc(ns: string, name: string, pv: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: ns },
    spec: { volumeName: pv, accessModes: ['ReadWriteOnce'] },
    status: { phase: 'Bound' },
  };
}

/** A v1beta2 MachineDeployment c1-md-0 rolling out to `version`. */
export function machineDeployment(
  o: {
    name?: string;
    replicas?: number;
    upToDate?: number;
    version?: string;
    paused?: boolean | 'annotation';
    maxUnavailable?: number;
    drainTimeoutSeconds?: number;
    pausedSince?: string;
  } = {},
): KubeObject {
  const name = o.name ?? 'c1-md-0';
  const conditions = o.paused
    ? [
        {
          type: 'Paused',
          status: 'True',
          reason: 'Paused',
          observedGeneration: 4,
          lastTransitionTime: o.pausedSince ?? ago(90),
        },
      ]
    : [];
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: {
      name,
      namespace: 'ns1',
      uid: `uid-${name}`,
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1' },
      ...(o.paused === 'annotation' ? { annotations: { 'cluster.x-k8s.io/paused': '' } } : {}),
    },
    spec: {
      clusterName: 'c1',
      replicas: o.replicas ?? 3,
      ...(o.paused === true ? { paused: true } : {}),
      ...(o.maxUnavailable !== undefined
        ? {
            rollout: {
              strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: o.maxUnavailable, maxSurge: 1 } },
            },
          }
        : {}),
      template: {
        spec: {
          clusterName: 'c1',
          version: o.version ?? 'v1.31.4',
          ...(o.drainTimeoutSeconds !== undefined
            ? { deletion: { nodeDrainTimeoutSeconds: o.drainTimeoutSeconds } }
            : {}),
        },
      },
    },
    status: {
      replicas: o.replicas ?? 3,
      upToDateReplicas: o.upToDate ?? o.replicas ?? 3,
      readyReplicas: o.replicas ?? 3,
      conditions,
    },
  };
}

/** A v1beta2 worker Machine of c1-md-0, Running with a Node, or new without infrastructure. */
export function mdMachine(
  name: string,
  o: {
    node?: string;
    version?: string;
    createdMin?: number;
    noInfra?: string;
    annotations?: Record<string, string>;
  } = {},
): KubeObject {
  const status: Record<string, unknown> =
    o.noInfra !== undefined
      ? {
          phase: 'Provisioning',
          initialization: { bootstrapDataSecretCreated: true },
          conditions: [
            {
              type: 'InfrastructureReady',
              status: 'False',
              reason: 'NotReady',
              message: o.noInfra,
              observedGeneration: 1,
              lastTransitionTime: ago((o.createdMin ?? 60) - 1),
            },
            { type: 'NodeReady', status: 'Unknown', reason: 'NodeDoesNotExist', observedGeneration: 1 },
          ],
        }
      : {
          phase: 'Running',
          nodeRef: { name: o.node ?? name },
          initialization: { infrastructureProvisioned: true, bootstrapDataSecretCreated: true },
          conditions: [{ type: 'NodeReady', status: 'True', reason: 'NodeReady', observedGeneration: 1 }],
        };
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name,
      namespace: 'ns1',
      uid: `uid-${name}`,
      creationTimestamp: ago(o.createdMin ?? 3000),
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1', 'cluster.x-k8s.io/deployment-name': 'c1-md-0' },
      annotations: o.annotations ?? {},
      ownerReferences: [{ kind: 'MachineSet', name: 'c1-md-0-7d9f8', controller: true }],
    },
    spec: { clusterName: 'c1', version: o.version ?? 'v1.31.4' },
    status,
  };
}
