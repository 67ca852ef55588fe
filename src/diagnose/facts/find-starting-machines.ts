import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';
import { findMachineHealthCheck } from './find-machine-health-check.js';
import { machineInfo } from './machine-info.js';
import { readMachineHealth } from './read-machine-health.js';
import { DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS, readMhcStatus } from './read-mhc-status.js';

/** A Machine of a KubeadmControlPlane that is still starting, with one evidence line. */
export interface StartingMachine {
  machine: KubeObject;
  detail: string;
}

/**
 * Machines of `kcp` that are starting, not failing: not being deleted, no Ready Node yet, created
 * less than the nodeStartupTimeout of the MHC that covers them (10 min by default) ago. A rollout's
 * or a remediation's new machine looks like this for its first minutes (defect class 5).
 */
export function findStartingMachines(snapshot: Snapshot, kcp: KubeObject, now: Date): StartingMachine[] {
  const ns = kcp.metadata.namespace ?? 'default';
  const out: StartingMachine[] = [];
  for (const m of snapshot.capi.machines) {
    const i = machineInfo(m);
    if (i.namespace !== ns || i.kcpName !== kcp.metadata.name || i.deleting) continue;
    const node = i.nodeName ? snapshot.nodes.find((n) => n.metadata.name === i.nodeName) : undefined;
    if (readMachineHealth(m, node).status === 'True') continue;
    const age = ageMinutes(m.metadata.creationTimestamp, now);
    const mhc = findMachineHealthCheck(snapshot, m, 'Unknown');
    const startup = mhc ? readMhcStatus(mhc.mhc).nodeStartupTimeoutSeconds : DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS;
    if (age === undefined || age * 60 >= startup) continue;
    out.push({
      machine: m,
      detail: `Machine ${ns}/${i.name} created ${formatAge(age * 60000)} ago has no Ready Node yet: within the nodeStartupTimeout of ${formatAge(startup * 1000)}`,
    });
  }
  return out;
}
