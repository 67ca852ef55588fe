import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { matchesLabelSelector } from './matches-label-selector.js';
import { readMhcStatus } from './read-mhc-status.js';

/** The MachineHealthCheck that covers a Machine, and what it will do about a NotReady node. */
export interface MachineHealthCheckMatch {
  mhc: KubeObject;
  /** Timeout of the unhealthy-node condition matching the node's Ready status, when one matches. */
  timeoutSeconds?: number;
  /** False when the MHC says remediation is not allowed (maxUnhealthy / unhealthyRange exceeded). */
  remediationAllowed: boolean;
  /** Quoted reason when remediation is not allowed. */
  blockedWhy?: string;
}

/**
 * The MHC selecting `machine` (same namespace and cluster, selector matching the Machine's labels).
 * Reads v1beta1 spec.unhealthyConditions[{type,status,timeout:"5m0s"}] and v1beta2
 * spec.checks.unhealthyNodeConditions[{type,status,timeoutSeconds}].
 */
export function findMachineHealthCheck(
  snapshot: Snapshot,
  machine: KubeObject,
  readyStatus: string,
): MachineHealthCheckMatch | undefined {
  const ns = machine.metadata?.namespace;
  const cluster = machine.spec?.clusterName ?? machine.metadata?.labels?.['cluster.x-k8s.io/cluster-name'];
  for (const mhc of snapshot.capi.machineHealthChecks) {
    if (mhc.metadata?.namespace !== ns) continue;
    if (cluster && mhc.spec?.clusterName && mhc.spec.clusterName !== cluster) continue;
    if (!mhc.spec?.selector || !matchesLabelSelector(mhc.spec.selector, machine.metadata?.labels)) continue;
    const checks = readMhcStatus(mhc);
    const hit = checks.unhealthyNodeConditions.find((e) => e.type === 'Ready' && e.status === readyStatus);
    const out: MachineHealthCheckMatch = { mhc, remediationAllowed: true };
    if (hit?.timeoutSeconds !== undefined) out.timeoutSeconds = hit.timeoutSeconds;
    const allowed = checks.remediationAllowed;
    if (allowed && allowed.status === 'False') {
      out.remediationAllowed = false;
      out.blockedWhy = `condition RemediationAllowed=False reason=${allowed.reason ?? ''}${allowed.message ? ` "${allowed.message}"` : ''}`;
    }
    return out;
  }
  return undefined;
}
