import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { ageMinutes, formatAge } from './age.js';
import { findCondition } from './find-condition.js';
import { matchesLabelSelector } from './matches-label-selector.js';
import type { MhcStatus } from './read-mhc-status.js';

/** Why a Machine an MHC checks is not (yet) counted healthy without being a failure. */
export interface MhcTargetInFlight {
  machine: KubeObject;
  why: 'starting' | 'deleting' | 'within-timeout';
  /** One evidence line. */
  detail: string;
}

/** The Machines a MachineHealthCheck checks, and those it does not count healthy for a benign reason. */
export interface MhcTargets {
  /** Machines of the snapshot the MHC checks; empty when none were read (then nothing can be explained). */
  machines: KubeObject[];
  inFlight: MhcTargetInFlight[];
}

/**
 * The MHC's targets (status.targets names, else its selector in its namespace and cluster) and which
 * of them it cannot count healthy yet for a reason that is not a failure, as CAPI's MHC controller
 * does (core/reconcilers/machinehealthcheck: a target "likely to go unhealthy" is neither healthy
 * nor unhealthy, and a Machine being deleted is not counted healthy):
 * - `starting`: no Node yet, created less than nodeStartupTimeout ago (a rollout's or a
 *   remediation's new Machine; defect class 5);
 * - `deleting`: the Machine is being deleted (a rollout removing an old Machine);
 * - `within-timeout`: its Node is not Ready, for less than the MHC's timeout for that condition.
 */
export function findMhcTargets(snapshot: Snapshot, mhc: KubeObject, st: MhcStatus, now: Date): MhcTargets {
  const ns = mhc.metadata?.namespace;
  const cluster = typeof mhc.spec?.clusterName === 'string' ? mhc.spec.clusterName : undefined;
  const sameScope = (m: KubeObject) =>
    m.metadata?.namespace === ns && (!cluster || !m.spec?.clusterName || m.spec.clusterName === cluster);
  const named = st.targets.length
    ? snapshot.capi.machines.filter((m) => sameScope(m) && st.targets.includes(m.metadata.name))
    : [];
  const machines = named.length
    ? named
    : mhc.spec?.selector
      ? snapshot.capi.machines.filter(
          (m) => sameScope(m) && matchesLabelSelector(mhc.spec.selector, m.metadata?.labels),
        )
      : [];
  const inFlight: MhcTargetInFlight[] = [];
  for (const m of machines) {
    const name = `Machine ${m.metadata.namespace ?? ''}/${m.metadata.name}`;
    if (m.metadata.deletionTimestamp) {
      inFlight.push({
        machine: m,
        why: 'deleting',
        detail: `${name} is being deleted (since ${m.metadata.deletionTimestamp}): not counted healthy, not a failure`,
      });
      continue;
    }
    const nodeName = typeof m.status?.nodeRef?.name === 'string' ? m.status.nodeRef.name : undefined;
    const age = ageMinutes(m.metadata.creationTimestamp, now);
    if (!nodeName) {
      if (age !== undefined && age * 60 < st.nodeStartupTimeoutSeconds) {
        inFlight.push({
          machine: m,
          why: 'starting',
          detail: `${name} created ${formatAge(age * 60000)} ago has no Node yet: within the MHC nodeStartupTimeout of ${formatAge(st.nodeStartupTimeoutSeconds * 1000)}${st.nodeStartupTimeoutDefaulted ? ' (default)' : ''}`,
        });
      }
      continue;
    }
    const node = snapshot.nodes.find((n) => n.metadata?.name === nodeName);
    const ready = findCondition(node, 'Ready');
    if (!node || !ready || ready.status === 'True') continue;
    const check = st.unhealthyNodeConditions.find((c) => c.type === 'Ready' && c.status === ready.status);
    const since = ageMinutes(ready.lastTransitionTime, now);
    if (check?.timeoutSeconds !== undefined && since !== undefined && since * 60 < check.timeoutSeconds) {
      inFlight.push({
        machine: m,
        why: 'within-timeout',
        detail: `${name}: Node ${nodeName} Ready=${ready.status} for ${formatAge(since * 60000)}, under the MHC timeout of ${formatAge(check.timeoutSeconds * 1000)}`,
      });
    }
  }
  return { machines, inFlight };
}
