import type { KubeObject, Snapshot } from '../cluster/snapshot.js';
import { readRolloutStatus } from './facts/read-rollout-status.js';
import type { Finding } from './finding.js';
import type { MachineSighting, RolloutSighting, ScanRecord } from './history.js';

const DEPLOYMENT_LABEL = 'cluster.x-k8s.io/deployment-name';
const CONTROL_PLANE_LABEL = 'cluster.x-k8s.io/control-plane';

/**
 * What this scan saw, reduced to what time-based detectors compare across scans (recreation loops,
 * stuck provisioning/deleting, stalled rollouts). Pure; sorted so the same snapshot gives the same record.
 */
export function recordScan(snapshot: Snapshot, findings: Finding[], now: Date): ScanRecord {
  return {
    at: now.toISOString(),
    machines: snapshot.capi.machines.map(toMachineSighting).sort(byNamespaceName),
    rollouts: [
      ...snapshot.capi.kubeadmControlPlanes.map((o) => toRolloutSighting('KubeadmControlPlane', o, o.spec?.version)),
      ...snapshot.capi.machineDeployments.map((o) =>
        toRolloutSighting('MachineDeployment', o, o.spec?.template?.spec?.version),
      ),
    ].sort((a, b) => a.kind.localeCompare(b.kind) || byNamespaceName(a, b)),
    // info findings are not incidents; keeping them would only grow every record.
    findings: findings
      .filter((f) => f.severity === 'critical' || f.severity === 'warning')
      .map((f) => ({ id: f.id, fingerprint: f.fingerprint, severity: f.severity })),
  };
}

function toMachineSighting(m: KubeObject): MachineSighting {
  const meta = m.metadata;
  const controller = meta.ownerReferences?.find((r) => r.controller);
  const labels = meta.labels ?? {};
  const sighting: MachineSighting = {
    namespace: meta.namespace ?? '',
    name: meta.name,
    owner: controller ? `${controller.kind}/${controller.name}` : '',
    // CAPI sets the control-plane label with an empty value; its presence is what counts.
    controlPlane: CONTROL_PLANE_LABEL in labels,
    deleting: Boolean(meta.deletionTimestamp),
  };
  if (meta.uid) sighting.uid = meta.uid;
  if (labels[DEPLOYMENT_LABEL]) sighting.deployment = labels[DEPLOYMENT_LABEL];
  if (typeof m.status?.phase === 'string') sighting.phase = m.status.phase;
  if (typeof m.status?.nodeRef?.name === 'string') sighting.nodeName = m.status.nodeRef.name;
  if (meta.creationTimestamp) sighting.creationTimestamp = meta.creationTimestamp;
  return sighting;
}

/** Counters through readRolloutStatus (the one reader of CAPI status, v1beta2 first). */
function toRolloutSighting(kind: RolloutSighting['kind'], o: KubeObject, version: unknown): RolloutSighting {
  const st = readRolloutStatus(o);
  const sighting: RolloutSighting = { kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name };
  if (typeof version === 'string') sighting.version = version;
  if (st.replicas !== undefined) sighting.replicas = st.replicas;
  if (st.updatedReplicas !== undefined) sighting.updatedReplicas = st.updatedReplicas;
  if (st.readyReplicas !== undefined) sighting.readyReplicas = st.readyReplicas;
  return sighting;
}

function byNamespaceName(a: { namespace: string; name: string }, b: { namespace: string; name: string }): number {
  return a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);
}
