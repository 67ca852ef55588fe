import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import type { RemediationProposal } from '../finding.js';
import { findMachineHealthCheck } from './find-machine-health-check.js';
import { findClusterOf } from './find-rollout-scope.js';
import { labelOf } from './label-of.js';
import { readPaused } from './read-paused.js';

/**
 * The loop breaker: while machines of one owner are replaced again and again because of a
 * cause replacement cannot fix (a webhook refusing the CNI, the CNI itself, etcd), offer to pause the
 * MachineHealthCheck that keeps marking them for remediation: `mhc.pause-remediation` sets
 * `cluster.x-k8s.io/paused` on it, which the MHC controller honours since Cluster API v0.4 (it returns
 * before checking anything). Chosen over `cluster.x-k8s.io/skip-remediation` on the Machines, which the
 * controller honours too, because the loop's next replacement is a new Machine without that annotation:
 * only the MHC-wide pause stops the loop, and it is one object to resume. A remediation KCP or the
 * MachineSet already started finishes; no new one starts. No proposal when no MHC covers the owner's
 * machines, or it (or its Cluster) is already paused.
 */
export function proposePauseRemediation(
  snapshot: Snapshot,
  machines: KubeObject[],
  why: string,
): RemediationProposal[] {
  for (const m of machines) {
    const match = findMachineHealthCheck(snapshot, m, 'Unknown');
    if (!match) continue;
    // Already paused, itself or through its Cluster (a paused Cluster pauses its MachineHealthChecks too).
    const cluster = findClusterOf(snapshot, match.mhc);
    if (readPaused(match.mhc).paused || (cluster && readPaused(cluster).paused)) return [];
    const ns = match.mhc.metadata.namespace ?? 'default';
    return [
      {
        action: 'mhc.pause-remediation',
        params: { namespace: ns, name: match.mhc.metadata.name },
        label: labelOf('Pause remediation: ', match.mhc.metadata.name),
        risk: `While paused, no machine checked by MachineHealthCheck ${match.mhc.metadata.name} is replaced when it fails (a VM that really dies waits for a person); replacements cannot fix ${why} anyway. Resume once it is fixed.`,
      },
    ];
  }
  return [];
}
