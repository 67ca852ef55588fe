import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';
import { matchesLabelSelector } from './matches-label-selector.js';

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
export function findMachineHealthCheck(snapshot: Snapshot, machine: KubeObject, readyStatus: string): MachineHealthCheckMatch | undefined {
  const ns = machine.metadata?.namespace;
  const cluster = machine.spec?.clusterName ?? machine.metadata?.labels?.['cluster.x-k8s.io/cluster-name'];
  for (const mhc of snapshot.capi.machineHealthChecks) {
    if (mhc.metadata?.namespace !== ns) continue;
    if (cluster && mhc.spec?.clusterName && mhc.spec.clusterName !== cluster) continue;
    if (!mhc.spec?.selector || !matchesLabelSelector(mhc.spec.selector, machine.metadata?.labels)) continue;
    const entries: { type?: string; status?: string; timeout?: unknown; timeoutSeconds?: unknown }[] = [
      ...(Array.isArray(mhc.spec?.unhealthyConditions) ? mhc.spec.unhealthyConditions : []),
      ...(Array.isArray(mhc.spec?.checks?.unhealthyNodeConditions) ? mhc.spec.checks.unhealthyNodeConditions : []),
    ];
    const hit = entries.find((e) => e?.type === 'Ready' && String(e.status) === readyStatus);
    const out: MachineHealthCheckMatch = { mhc, remediationAllowed: true };
    const seconds = hit ? (typeof hit.timeoutSeconds === 'number' ? hit.timeoutSeconds : parseGoDuration(hit.timeout)) : undefined;
    if (seconds !== undefined) out.timeoutSeconds = seconds;
    const allowed = findCondition(mhc, 'RemediationAllowed');
    if (allowed && allowed.status === 'False') {
      out.remediationAllowed = false;
      out.blockedWhy = `condition RemediationAllowed=False reason=${allowed.reason ?? ''}${allowed.message ? ` "${allowed.message}"` : ''}`;
    }
    return out;
  }
  return undefined;
}

/** "5m", "5m0s", "300s", "1h30m" → seconds; numbers are seconds. */
function parseGoDuration(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string' || !v) return undefined;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  let total = 0;
  let matched = '';
  for (const m of v.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    total += Number(m[1]) * (units[m[2] as string] ?? 0);
    matched += m[0];
  }
  return matched === v ? total : undefined;
}
