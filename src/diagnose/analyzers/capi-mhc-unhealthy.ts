import type { Analyzer, FindingDraft } from '../analyzer.js';
import { findCondition } from '../facts/find-condition.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { quorum } from '../facts/quorum.js';

/**
 * Seed S0: the control-plane MHC shows CurrentHealthy 2 of 3. A worker MHC below expectations is
 * usually self-healing in progress (info) unless remediation is blocked (maxUnhealthy exceeded).
 */
export const capiMhcUnhealthyAnalyzer: Analyzer = {
  id: 'capi.mhc-unhealthy',
  analyze(ctx): FindingDraft[] {
    const out: FindingDraft[] = [];
    const leader = findLeaderUnreachableCause(ctx.snapshot);
    for (const mhc of ctx.snapshot.capi.machineHealthChecks) {
      const st = mhc.status ?? {};
      const healthy = st.currentHealthy;
      const expected = st.expectedMachines;
      if (typeof healthy !== 'number' || typeof expected !== 'number' || healthy >= expected) continue;
      // A matchLabels of the wrong type (hand-edited dump) is treated as empty rather than throwing (issue 9).
      const rawSel = mhc.spec?.selector?.matchLabels;
      const sel = rawSel && typeof rawSel === 'object' ? rawSel : {};
      const cp = 'cluster.x-k8s.io/control-plane' in sel || 'cluster.x-k8s.io/control-plane-name' in sel;
      const allowed = findCondition(mhc, 'RemediationAllowed');
      const blocked = allowed?.status === 'False';
      const severity = cp ? (healthy < quorum(expected) ? 'critical' : 'warning') : blocked ? 'warning' : 'info';
      const ns = mhc.metadata.namespace ?? 'default';
      const evidence = [`MachineHealthCheck ${ns}/${mhc.metadata.name}: expectedMachines=${expected}, currentHealthy=${healthy}${st.remediationsAllowed !== undefined ? `, remediationsAllowed=${st.remediationsAllowed}` : ''}`];
      if (allowed) evidence.push(`condition RemediationAllowed=${allowed.status}${allowed.reason ? ` reason=${allowed.reason}` : ''}${allowed.message ? ` message="${allowed.message}"` : ''}`);
      if (Array.isArray(st.targets) && st.targets.length) evidence.push(`targets: ${st.targets.join(', ')}`);
      const byLeader = cp && leader;
      out.push({
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
      });
    }
    return out;
  },
};
