import type { KubeObject } from '../../cluster/snapshot.js';
import { readCapiStatus } from './read-capi-status.js';

/** Replica counts of a KubeadmControlPlane or MachineDeployment, for CAPI v1beta2 and v1beta1. */
export interface RolloutStatus {
  version?: string;
  replicas?: number;
  /** v1beta2 upToDateReplicas, v1beta1 updatedReplicas. */
  updatedReplicas?: number;
  readyReplicas?: number;
}

/** The rollout view of readCapiStatus (v1beta2 counters first): target version and counters. */
export function readRolloutStatus(obj: KubeObject): RolloutStatus {
  const spec = obj.spec ?? {};
  const r = readCapiStatus(obj).replicas;
  return {
    version:
      typeof spec.version === 'string'
        ? spec.version
        : typeof spec.template?.spec?.version === 'string'
          ? spec.template.spec.version
          : undefined,
    replicas: r.desired ?? r.current,
    updatedReplicas: r.upToDate,
    readyReplicas: r.ready,
  };
}
