import type { KubeObject, Snapshot } from '../cluster/snapshot.js';
import { findClusterOf } from '../diagnose/facts/find-rollout-scope.js';
import { readCapiStatus } from '../diagnose/facts/read-capi-status.js';

/**
 * The `upgrades` line: per KubeadmControlPlane, machines up to date out of spec.replicas at its
 * version (v1beta2 upToDateReplicas, v1beta1 updatedReplicas), and how many MachineDeployments are
 * fully up to date; a rollout in progress (v1beta2 RollingOut=True) is named. A Cluster whose control
 * plane or MachineDeployments are not in the capture adds what its own v1beta2 status counts of them
 * (status.controlPlane / status.workers upToDateReplicas).
 */
export function summarizeUpgrades(s: Snapshot): {
  summary: string;
  hasData: boolean;
  counted?: { ready: number; total: number };
} {
  const parts: string[] = [];
  for (const kcp of s.capi.kubeadmControlPlanes) {
    const r = readCapiStatus(kcp).replicas;
    const v = typeof kcp.spec?.version === 'string' ? kcp.spec.version : '?';
    if (r.desired !== undefined && r.upToDate !== undefined)
      parts.push(`KCP ${kcp.metadata.name}: ${r.upToDate} of ${r.desired} at ${v}${rollingOut(kcp)}`);
  }
  const mds = s.capi.machineDeployments;
  const counted = mds
    .map((md) => readCapiStatus(md).replicas)
    .filter((r) => r.desired !== undefined && r.upToDate !== undefined);
  if (counted.length) {
    const behind = counted.filter((r) => r.upToDate! < r.desired!).length;
    const rolling = mds.filter((md) => rollingOut(md)).length;
    parts.push(
      `${counted.length - behind} of ${counted.length} MachineDeployments up to date${rolling ? ` (${rolling} rolling out)` : ''}`,
    );
  }
  for (const c of s.capi.clusters) {
    const st = readCapiStatus(c);
    const own: string[] = [];
    const cp = st.controlPlane;
    if (
      cp?.upToDate !== undefined &&
      cp.desired !== undefined &&
      !s.capi.kubeadmControlPlanes.some((k) => findClusterOf(s, k) === c)
    ) {
      own.push(`control plane ${cp.upToDate} of ${cp.desired} up to date`);
    }
    const w = st.workers;
    if (w?.upToDate !== undefined && w.desired !== undefined && !mds.some((md) => findClusterOf(s, md) === c))
      own.push(`workers ${w.upToDate} of ${w.desired} up to date`);
    if (!own.length) continue;
    const version = typeof c.spec?.topology?.version === 'string' ? ` (topology ${c.spec.topology.version})` : '';
    parts.push(`Cluster ${c.metadata.name}${version}: ${own.join(', ')}${rollingOut(c)}`);
  }
  if (!parts.length) return { summary: 'no Cluster API rollouts read', hasData: false };
  // Counted: the rollouts whose progress was read (a rollout in progress is not trouble; upgrade.stuck says when it
  // is).
  return { summary: parts.join('; '), hasData: true, counted: { ready: parts.length, total: parts.length } };
}

function rollingOut(o: KubeObject): string {
  return readCapiStatus(o).condition('RollingOut')?.status === 'True' ? ', rolling out' : '';
}
