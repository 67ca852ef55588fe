import type { KubeObject } from '../../cluster/snapshot.js';

/** The Machine fields analyzers rely on, read the same way for CAPI v1beta1 and v1beta2. */
export interface MachineInfo {
  namespace: string;
  name: string;
  phase?: string;
  nodeName?: string;
  version?: string;
  controlPlane: boolean;
  /** Name of the owning KubeadmControlPlane (owner reference or control-plane-name label). */
  kcpName?: string;
  /** Name of the owning MachineDeployment (deployment-name label). */
  deploymentName?: string;
  deleting: boolean;
  /** v1beta1 status.infrastructureReady, v1beta2 status.initialization.infrastructureProvisioned. */
  infraReady: boolean;
  providerID?: string;
  addresses: string[];
}

/** Read a Machine defensively: any field may be absent (status in particular). */
export function machineInfo(m: KubeObject): MachineInfo {
  const labels = m.metadata.labels ?? {};
  const kcpOwner = (m.metadata.ownerReferences ?? []).find((o) => o.kind === 'KubeadmControlPlane');
  const kcpName = kcpOwner?.name ?? labels['cluster.x-k8s.io/control-plane-name'];
  const status = m.status ?? {};
  const addresses = Array.isArray(status.addresses)
    ? status.addresses
        .map((a: { address?: string }) => a?.address)
        .filter((a: unknown): a is string => typeof a === 'string')
    : [];
  return {
    namespace: m.metadata.namespace ?? 'default',
    name: m.metadata.name,
    phase: typeof status.phase === 'string' ? status.phase : undefined,
    nodeName: typeof status.nodeRef?.name === 'string' ? status.nodeRef.name : undefined,
    version: typeof m.spec?.version === 'string' ? m.spec.version : undefined,
    // Seed S0: control-plane machines carry the cluster.x-k8s.io/control-plane label.
    controlPlane: 'cluster.x-k8s.io/control-plane' in labels || !!kcpOwner,
    kcpName,
    deploymentName: labels['cluster.x-k8s.io/deployment-name'],
    deleting: !!m.metadata.deletionTimestamp || status.phase === 'Deleting',
    infraReady: status.infrastructureReady === true || status.initialization?.infrastructureProvisioned === true,
    providerID: typeof m.spec?.providerID === 'string' ? m.spec.providerID : undefined,
    addresses,
  };
}
