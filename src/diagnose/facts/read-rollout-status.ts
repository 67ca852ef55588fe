import type { KubeObject } from '../../cluster/snapshot.js';

/** Replica counts of a KubeadmControlPlane or MachineDeployment, for CAPI v1beta1 and v1beta2. */
export interface RolloutStatus {
  version?: string;
  replicas?: number;
  /** v1beta1 updatedReplicas, v1beta2 upToDateReplicas. */
  updatedReplicas?: number;
  readyReplicas?: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function readRolloutStatus(obj: KubeObject): RolloutStatus {
  const spec = obj.spec ?? {};
  const status = obj.status ?? {};
  const old = status.deprecated?.v1beta1 ?? {};
  return {
    version: typeof spec.version === 'string' ? spec.version : typeof spec.template?.spec?.version === 'string' ? spec.template.spec.version : undefined,
    replicas: num(spec.replicas) ?? num(status.replicas),
    updatedReplicas: num(status.upToDateReplicas) ?? num(status.updatedReplicas) ?? num(old.updatedReplicas),
    // v1beta2 readyReplicas counts Ready machines; v1beta1 readyReplicas likewise (deprecated copy kept as fallback).
    readyReplicas: num(status.readyReplicas) ?? num(old.readyReplicas),
  };
}
