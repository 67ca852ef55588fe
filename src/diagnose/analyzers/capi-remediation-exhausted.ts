import type { Analyzer, FindingDraft } from '../analyzer.js';
import { fingerprint } from '../fingerprint.js';
import { describeMachine } from '../facts/describe-machine.js';
import { findCondition } from '../facts/find-condition.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { machineInfo } from '../facts/machine-info.js';
import { parseRemediationFor, REMEDIATION_FOR_ANNOTATION } from '../facts/parse-remediation-for.js';
import { readCapiStatus } from '../facts/read-capi-status.js';

/** KubeadmControlPlane's words when it gives up (controlplane/kubeadm remediation.go, CAPI v1.5+). */
const MAX_RETRY = /already failed (\d+) times \(MaxRetry\)/;

/**
 * capi.remediation-exhausted: KubeadmControlPlane stopped remediating an unhealthy
 * control-plane machine because `maxRetry` (v1beta2 spec.remediation.maxRetry, v1beta1
 * spec.remediationStrategy.maxRetry) replacements already failed. Read from the Machine's
 * `OwnerRemediated` condition (False, "KubeadmControlPlane can't remediate this machine because the
 * operation already failed N times (MaxRetry)"; v1beta2 reason CannotBeRemediated, v1beta1
 * WaitingForRemediation), else from KCP status.lastRemediation.retryCount (or the machine's
 * remediation-for retryCount) having reached maxRetry while the MachineHealthCheck still marks it
 * unhealthy. The machine now stays unhealthy and KCP will not roll out past it: cause of upgrade.stuck.
 * Proposes nothing: fix the cause, then delete the machine or raise maxRetry by hand.
 */
export const capiRemediationExhaustedAnalyzer: Analyzer = {
  id: 'capi.remediation-exhausted',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const out: FindingDraft[] = [];
    const leader = findLeaderUnreachableCause(snap);
    for (const m of snap.capi.machines) {
      const i = machineInfo(m);
      if (!i.kcpName || i.deleting) continue;
      const owner = findCondition(m, 'OwnerRemediated');
      const said = owner?.status === 'False' ? MAX_RETRY.exec(owner.message ?? '') : null;
      const kcp = snap.capi.kubeadmControlPlanes.find(
        (k) => k.metadata.name === i.kcpName && (k.metadata.namespace ?? 'default') === i.namespace,
      );
      const st = kcp ? readCapiStatus(kcp) : undefined;
      const maxRetry = st?.remediationLimits?.maxRetry;
      const unhealthy = [
        findCondition(m, 'HealthCheckSucceeded'),
        findCondition(m, 'MachineHealthCheckSucceeded'),
      ].find((c) => c?.status === 'False');
      const rf = parseRemediationFor(m);
      const retries = Math.max(st?.lastRemediation?.retryCount ?? -1, rf?.retryCount ?? -1);
      const computed = !said && maxRetry !== undefined && unhealthy && retries >= maxRetry;
      if (!said && !computed) continue;
      const evidence = [describeMachine(m, ctx.now)];
      if (said && owner)
        evidence.push(
          `condition OwnerRemediated=False${owner.reason ? ` reason=${owner.reason}` : ''} message="${owner.message}"`,
        );
      if (unhealthy)
        evidence.push(
          `condition ${unhealthy.type}=False${unhealthy.reason ? ` reason=${unhealthy.reason}` : ''}${unhealthy.message ? ` message="${unhealthy.message}"` : ''}`,
        );
      if (maxRetry !== undefined)
        evidence.push(
          `KubeadmControlPlane ${i.namespace}/${i.kcpName}: maxRetry=${maxRetry}${st?.lastRemediation?.retryCount !== undefined ? `, status.lastRemediation.retryCount=${st.lastRemediation.retryCount}${st.lastRemediation.machine ? ` (machine ${st.lastRemediation.machine})` : ''}` : ''}`,
        );
      if (rf) evidence.push(`annotation ${REMEDIATION_FOR_ANNOTATION}=${rf.raw}`);
      const n = said ? Number(said[1]) : maxRetry!;
      const byLeader = leader && i.controlPlane;
      const causedBy = [
        fingerprint(snap.cluster, 'capi.remediation-looping', {
          kind: 'Machine',
          namespace: i.namespace,
          name: i.name,
        }),
      ];
      if (byLeader) causedBy.unshift(leader.fingerprint);
      const draft: FindingDraft = {
        id: 'capi.remediation-exhausted',
        severity: 'warning',
        section: 'machines',
        title: `KubeadmControlPlane ${i.namespace}/${i.kcpName} gave up remediating ${i.name}: ${n} replacements failed (maxRetry ${maxRetry ?? n})`,
        subject: { kind: 'Machine', namespace: i.namespace, name: i.name },
        evidence,
        cause:
          `KubeadmControlPlane will not replace ${i.name} again: its remediation already failed ${n} times (maxRetry). The machine stays unhealthy, and the control plane does not roll out past it. ` +
          `${byLeader ? `Each replacement failed because ${leader.text}. ` : ''}Fix why the replacements fail, then delete the machine by hand (or raise maxRetry) so KCP remediates once more.`,
        causedBy,
        remediations: [],
      };
      const since = owner?.status === 'False' ? owner.lastTransitionTime : (st?.lastRemediation?.time ?? rf?.timestamp);
      if (since) draft.since = since;
      if (computed)
        draft.missing = [
          "the Machine's OwnerRemediated condition does not say KCP gave up: judged from retryCount and maxRetry",
        ];
      out.push(draft);
    }
    return out;
  },
};
