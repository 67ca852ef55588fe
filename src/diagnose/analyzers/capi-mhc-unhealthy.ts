import type { Analyzer, FindingDraft } from '../analyzer.js';
import { analyzeEach } from '../analyze-each.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { findMhcTargets } from '../facts/find-mhc-targets.js';
import { quorum } from '../facts/quorum.js';
import { readMhcStatus } from '../facts/read-mhc-status.js';

/**
 * Seed S0: the control-plane MHC shows CurrentHealthy 2 of 3. A worker MHC below expectations is
 * usually self-healing in progress (info) unless remediation is blocked (maxUnhealthy exceeded).
 *
 * Rollouts are not outages. The MHC controller counts neither a new
 * Machine still inside nodeStartupTimeout nor a Machine being deleted as healthy, so during a
 * KCP/MachineDeployment rollout currentHealthy < expectedMachines is normal. Only the gap those
 * in-flight Machines do not explain is reported; when they explain all of it, nothing is.
 */
export const capiMhcUnhealthyAnalyzer: Analyzer = analyzeEach(
  'capi.mhc-unhealthy',
  (ctx) => ctx.snapshot.capi.machineHealthChecks,
  (mhc, ctx) => {
    const leader = findLeaderUnreachableCause(ctx.snapshot);
    const st = readMhcStatus(mhc);
    const healthy = st.currentHealthy;
    const expected = st.expectedMachines;
    if (healthy === undefined || expected === undefined || healthy >= expected) return undefined;
    const targets = findMhcTargets(ctx.snapshot, mhc, st, ctx.now);
    const gap = expected - healthy;
    const explained = Math.min(gap, targets.inFlight.length);
    if (targets.machines.length > 0 && explained >= gap) return undefined;
    const cp = st.controlPlane;
    const blocked = st.remediationAllowed?.status === 'False';
    // Machines starting or leaving are not failures: judge quorum on what has actually failed.
    const notFailed = healthy + explained;
    const severity = cp ? (notFailed < quorum(expected) ? 'critical' : 'warning') : blocked ? 'warning' : 'info';
    const ns = mhc.metadata.namespace ?? 'default';
    const evidence = [
      `MachineHealthCheck ${ns}/${mhc.metadata.name}: expectedMachines=${expected}, currentHealthy=${healthy}${st.remediationsAllowed !== undefined ? `, remediationsAllowed=${st.remediationsAllowed}` : ''}`,
    ];
    const allowed = st.remediationAllowed;
    if (allowed)
      evidence.push(
        `condition RemediationAllowed=${allowed.status}${allowed.reason ? ` reason=${allowed.reason}` : ''}${allowed.message ? ` message="${allowed.message}"` : ''}`,
      );
    if (st.targets.length) evidence.push(`targets: ${st.targets.join(', ')}`);
    for (const f of targets.inFlight) evidence.push(`${f.detail} (accounts for 1 of the ${gap} not healthy)`);
    const byLeader = cp && leader;
    const draft: FindingDraft = {
      id: 'capi.mhc-unhealthy',
      severity,
      section: 'machines',
      title: `${cp ? 'Control-plane ' : ''}MachineHealthCheck ${ns}/${mhc.metadata.name}: ${healthy} of ${expected} machines healthy`,
      subject: { kind: 'MachineHealthCheck', namespace: ns, name: mhc.metadata.name },
      evidence,
      cause: byLeader
        ? `the control-plane replacement cannot join: ${leader.text}.`
        : blocked
          ? 'Remediation is blocked (maxUnhealthy exceeded): CAPI will not replace the unhealthy machines.'
          : cp
            ? undefined
            : 'CAPI is replacing the unhealthy machine (expected self-healing).',
      causedBy: byLeader ? [leader.fingerprint] : undefined,
      remediations: [],
    };
    if (targets.machines.length === 0) {
      draft.missing = [
        'the Machines it checks were not read: a new Machine still starting up cannot be told from an unhealthy one',
      ];
    }
    return draft;
  },
);
