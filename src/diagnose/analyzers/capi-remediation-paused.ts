import type { KubeObject } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { labelOf } from '../facts/label-of.js';
import { matchesLabelSelector } from '../facts/matches-label-selector.js';
import { machineInfo } from '../facts/machine-info.js';
import { readMachineHealth } from '../facts/read-machine-health.js';
import { BOT_MARK, PAUSED_ANNOTATION, readPaused, SKIP_REMEDIATION_ANNOTATION } from '../facts/read-paused.js';

/**
 * capi.remediation-paused: a MachineHealthCheck that does not remediate — the
 * `cluster.x-k8s.io/paused` annotation on it (the MHC controller returns before checking anything,
 * CAPI v0.4+), or Machines it covers that carry `cluster.x-k8s.io/skip-remediation` or the paused
 * annotation (the controller skips them). Since when: the MHC's `Paused` condition, else the time in
 * the annotation value (the bot writes one: mhc.pause-remediation). Info while paused; warning when a
 * Machine it covers is unhealthy meanwhile (nobody replaces it). The seam for a reminder in the alert
 * thread. When the bot paused it, proposes `mhc.resume-remediation` (the undo, only of its own pause).
 */
export const capiRemediationPausedAnalyzer: Analyzer = {
  id: 'capi.remediation-paused',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const out: FindingDraft[] = [];
    for (const mhc of snap.capi.machineHealthChecks) {
      const ns = mhc.metadata.namespace ?? 'default';
      const covered = snap.capi.machines.filter((m) => {
        if ((m.metadata.namespace ?? 'default') !== ns || !mhc.spec?.selector) return false;
        const cluster = m.spec?.clusterName ?? m.metadata.labels?.['cluster.x-k8s.io/cluster-name'];
        if (cluster && mhc.spec?.clusterName && mhc.spec.clusterName !== cluster) return false;
        return matchesLabelSelector(mhc.spec.selector, m.metadata.labels);
      });
      const paused = readPaused(mhc);
      const skipped = covered.filter(
        (m) =>
          m.metadata.annotations &&
          (SKIP_REMEDIATION_ANNOTATION in m.metadata.annotations || PAUSED_ANNOTATION in m.metadata.annotations),
      );
      if (!paused.paused && !skipped.length) continue;
      const unhealthy = (paused.paused ? covered : skipped).filter((m) => isUnhealthy(snap.nodes, m));
      const evidence: string[] = [];
      if (paused.paused)
        evidence.push(
          `MachineHealthCheck ${ns}/${mhc.metadata.name}: ${paused.how.join(', ')}: the controller checks and remediates none of its ${covered.length} machine(s)`,
        );
      for (const m of skipped) {
        const a = m.metadata.annotations ?? {};
        evidence.push(
          `Machine ${ns}/${m.metadata.name}: annotation ${SKIP_REMEDIATION_ANNOTATION in a ? SKIP_REMEDIATION_ANNOTATION : PAUSED_ANNOTATION}: never marked for remediation`,
        );
      }
      for (const m of unhealthy)
        evidence.push(
          `Machine ${ns}/${m.metadata.name} is unhealthy (${describeHealth(snap.nodes, m)}) and is not being replaced`,
        );
      if (paused.since) {
        const age = ageMinutes(paused.since, ctx.now);
        evidence.push(`paused since ${paused.since}${age !== undefined ? ` (${formatAge(age * 60000)})` : ''}`);
      }
      const remediations: RemediationProposal[] = [];
      const ours = paused.annotationValue?.startsWith(`${BOT_MARK} `);
      if (ours && paused.annotationValue) {
        remediations.push({
          action: 'mhc.resume-remediation',
          params: { namespace: ns, name: mhc.metadata.name, value: paused.annotationValue },
          label: labelOf('Resume remediation: ', mhc.metadata.name),
          risk: 'Machines that are still unhealthy are replaced again: if the cause (webhook, CNI, etcd) is not fixed, the recreation loop starts again.',
        });
      }
      const what = paused.paused
        ? `Remediation paused on MachineHealthCheck ${ns}/${mhc.metadata.name}`
        : `MachineHealthCheck ${ns}/${mhc.metadata.name} skips ${skipped.length} machine(s)`;
      const draft: FindingDraft = {
        id: 'capi.remediation-paused',
        severity: unhealthy.length ? 'warning' : 'info',
        section: 'machines',
        title: `${what}${paused.since ? ` since ${paused.since}` : ''}${ours ? ' (by k8s-health-bot)' : ''}${unhealthy.length ? `: ${unhealthy.length} unhealthy machine(s) not replaced` : ''}`,
        subject: { kind: 'MachineHealthCheck', namespace: ns, name: mhc.metadata.name },
        evidence,
        cause: paused.paused
          ? `Remediation is paused (${paused.how.join(', ')}): failed machines stay until it is resumed. Resume once the cause that made replacements fail is fixed.`
          : `Machines annotated ${SKIP_REMEDIATION_ANNOTATION} are never remediated by the MachineHealthCheck; remove the annotation when they should be again.`,
        remediations,
      };
      if (paused.since) draft.since = paused.since;
      if (paused.paused && !paused.since)
        draft.missing = ['since when: neither a Paused condition nor a time in the annotation value'];
      out.push(draft);
    }
    return out;
  },
};

function nodeOf(nodes: KubeObject[], m: KubeObject): KubeObject | undefined {
  const n = machineInfo(m).nodeName;
  return n ? nodes.find((x) => x.metadata.name === n) : undefined;
}

function isUnhealthy(nodes: KubeObject[], m: KubeObject): boolean {
  if (machineInfo(m).deleting) return false;
  const h = readMachineHealth(m, nodeOf(nodes, m));
  return h.status === 'False' || h.status === 'Unknown';
}

function describeHealth(nodes: KubeObject[], m: KubeObject): string {
  const h = readMachineHealth(m, nodeOf(nodes, m));
  return `${h.source ?? 'health'} ${h.status ?? '?'}${h.condition?.reason ? ` reason=${h.condition.reason}` : ''}`;
}
