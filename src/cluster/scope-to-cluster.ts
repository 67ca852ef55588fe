import type { CapiClusterRef } from './choose-capi-cluster.js';
import type { CapiObjects, KubeObject, Snapshot } from './snapshot.js';

const CLUSTER_LABEL = 'cluster.x-k8s.io/cluster-name';

/** The kind of each CapiObjects array, for owner references and events (list items carry no kind). */
const KIND_OF: Record<keyof CapiObjects, string> = {
  clusters: 'Cluster',
  machines: 'Machine',
  machineSets: 'MachineSet',
  machineDeployments: 'MachineDeployment',
  kubeadmControlPlanes: 'KubeadmControlPlane',
  machineHealthChecks: 'MachineHealthCheck',
  tanzuKubernetesClusters: 'TanzuKubernetesCluster',
};

type Claim = 'mine' | 'other';

/**
 * Narrow a snapshot's management side to one Cluster, in place: the Cluster API objects and the
 * management events about them. An object belongs to the Cluster by evidence, strongest first: its
 * namespace (a Cluster's objects live in its namespace), the `cluster.x-k8s.io/cluster-name` label,
 * `spec.clusterName`, the Cluster's `controlPlaneRef`/`infrastructureRef`, then its owner references
 * (a Machine owned by a MachineSet of this Cluster, a KubeadmControlPlane owned by the Cluster).
 * Infrastructure machines and bootstrap configs are known through the Machines that reference them,
 * so events about them follow their Machine. What carries no evidence at all is kept only when the
 * management side knows no other Cluster (`alone`): then it can belong to nothing else.
 */
export function scopeToCluster(snapshot: Snapshot, ref: CapiClusterRef, alone: boolean): void {
  const claims = new Map<string, Claim>();
  const key = (kind: string | undefined, name: string | undefined) => `${kind ?? ''}/${name ?? ''}`;
  const entries: { kind: string; obj: KubeObject; claim?: Claim }[] = [];
  for (const [field, kind] of Object.entries(KIND_OF) as [keyof CapiObjects, string][]) {
    for (const obj of snapshot.capi[field]) entries.push({ kind, obj, claim: directClaim(kind, obj, ref) });
  }
  const record = (e: { kind: string; obj: KubeObject; claim?: Claim }) => {
    if (!e.claim) return;
    claims.set(key(e.kind, e.obj.metadata.name), e.claim);
    for (const r of referencesOf(e.obj)) if (!claims.has(key(r.kind, r.name))) claims.set(key(r.kind, r.name), e.claim);
  };
  entries.forEach(record);
  // Owner references and the Cluster's own references, to a fixed point (MachineDeployment → MachineSet → Machine).
  for (let changed = true; changed;) {
    changed = false;
    for (const e of entries) {
      if (e.claim) continue;
      const byRef = claims.get(key(e.kind, e.obj.metadata.name));
      const byOwner = (e.obj.metadata.ownerReferences ?? [])
        .map((o) => claims.get(key(o.kind, o.name)))
        .find((c) => c !== undefined);
      const claim = byRef ?? byOwner;
      if (claim) {
        e.claim = claim;
        record(e);
        changed = true;
      }
    }
  }
  const keep = (e: { claim?: Claim }) => e.claim === 'mine' || (e.claim === undefined && alone);
  for (const [field, kind] of Object.entries(KIND_OF) as [keyof CapiObjects, string][]) {
    snapshot.capi[field] = entries.filter((e) => e.kind === kind && keep(e)).map((e) => e.obj);
  }
  snapshot.events = snapshot.events.filter((ev) => {
    if (ev.origin !== 'management') return true;
    const ns = ev.involvedObject.namespace ?? ev.namespace;
    if (ref.namespace && ns && ns !== ref.namespace) return false;
    const claim = claims.get(key(ev.involvedObject.kind, ev.involvedObject.name));
    return claim === 'mine' || (claim === undefined && alone);
  });
}

/** What an object itself says about its Cluster: its namespace, name (Cluster, TKC), label or spec.clusterName. */
function directClaim(kind: string, obj: KubeObject, ref: CapiClusterRef): Claim | undefined {
  if (ref.namespace && obj.metadata.namespace && obj.metadata.namespace !== ref.namespace) return 'other';
  if (kind === 'Cluster' || kind === 'TanzuKubernetesCluster') return obj.metadata.name === ref.name ? 'mine' : 'other';
  const label = obj.metadata.labels?.[CLUSTER_LABEL];
  if (typeof label === 'string' && label) return label === ref.name ? 'mine' : 'other';
  const clusterName = obj.spec?.clusterName;
  if (typeof clusterName === 'string' && clusterName) return clusterName === ref.name ? 'mine' : 'other';
  return undefined;
}

/**
 * Objects an object names as its parts: a Cluster's control plane and infrastructure, a Machine's infrastructure
 * machine and bootstrap config.
 */
function referencesOf(obj: KubeObject): { kind: string; name: string }[] {
  const refs = [
    obj.spec?.controlPlaneRef,
    obj.spec?.infrastructureRef,
    obj.spec?.bootstrap?.configRef,
    obj.spec?.machineTemplate?.infrastructureRef,
  ];
  return refs.filter(
    (r): r is { kind: string; name: string } => !!r && typeof r.kind === 'string' && typeof r.name === 'string',
  );
}
