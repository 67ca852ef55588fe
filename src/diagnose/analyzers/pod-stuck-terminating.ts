import type { Analyzer, FindingDraft } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { fingerprint } from '../fingerprint.js';
import { formatAge } from '../facts/age.js';
import { findStuckTerminatingPods } from '../facts/find-stuck-terminating-pods.js';
import { isNodeGone } from '../facts/is-node-gone.js';
import { proposeNodeRelease } from '../facts/propose-node-release.js';

/**
 * pod.stuck-terminating (seed 004): pods Terminating past deletionTimestamp +
 * deletionGracePeriodSeconds + terminatingGraceMinutes on an unreachable node (NodeLost). Critical
 * for StatefulSet pods with PVCs (not rescheduled, volume held), warning otherwise. Offers
 * pod.force-delete, and node.out-of-service / node.delete only when the node is confirmed gone.
 */
export const podStuckTerminatingAnalyzer: Analyzer = {
  id: 'pod.stuck-terminating',
  analyze(ctx) {
    const { snapshot, now, thresholds } = ctx;
    const out: FindingDraft[] = [];
    for (const s of findStuckTerminatingPods(snapshot, { graceMinutes: thresholds.terminatingGraceMinutes, now })) {
      const p = s.pod;
      const sts = p.ownerReferences?.find((o) => o.kind === 'StatefulSet');
      const critical = !!sts && p.pvcNames.length > 0;
      const node = p.nodeName ? snapshot.nodes.find((n) => n.metadata?.name === p.nodeName) : undefined;
      const gone = node ? isNodeGone(snapshot, node) : undefined;
      const evidence = [
        `Pod ${p.namespace}/${p.name}: deletionTimestamp=${p.deletionTimestamp}, deletionGracePeriodSeconds=${p.deletionGracePeriodSeconds ?? '<none>'}, node=${p.nodeName ?? '<none>'}` +
          `${p.reason ? `, reason=${p.reason}` : ''}${p.message ? ` "${p.message}"` : ''}`,
        `${s.nodeState}`,
      ];
      if (sts)
        evidence.push(
          `controlled by StatefulSet ${p.namespace}/${sts.name}${p.pvcNames.length ? `, PVCs: ${p.pvcNames.join(', ')}` : ''}`,
        );
      if (gone) evidence.push(gone.gone ? `node confirmed gone: ${gone.why}` : `node not confirmed gone: ${gone.why}`);
      const remediations: RemediationProposal[] = [
        {
          action: 'pod.force-delete',
          params: { namespace: p.namespace, name: p.name },
          label: clip(`Force-delete pod ${p.namespace}/${p.name}`),
          risk: gone?.gone
            ? 'The node is gone; its volumes stay attached until detached (6-minute force-detach or node out-of-service).'
            : 'If the node is only partitioned the old container may still run: two writers on the same data (StatefulSet split brain).',
        },
      ];
      if (node && gone?.gone) remediations.push(proposeNodeRelease(node));
      const overdue = formatAge(s.overdueMinutes * 60000);
      out.push({
        id: 'pod.stuck-terminating',
        severity: critical ? 'critical' : 'warning',
        section: 'workloads',
        title: `Pod ${p.namespace}/${p.name} stuck Terminating for ${overdue} past its grace period on ${p.nodeName ?? 'an unknown node'}`,
        subject: { kind: 'Pod', namespace: p.namespace, name: p.name },
        evidence,
        cause:
          `The kubelet on ${p.nodeName ?? 'its node'} cannot confirm the pod stopped (${s.nodeState}), so Kubernetes waits forever` +
          (critical
            ? `; StatefulSet ${sts?.name} will not start a replacement and its volume stays attached to the dead node.`
            : '.'),
        since: new Date(s.overdueSinceMs).toISOString(),
        // The dead node is the root cause (kept only when node.not-ready is reported for it).
        causedBy: p.nodeName
          ? [fingerprint(snapshot.cluster, 'node.not-ready', { kind: 'Node', name: p.nodeName })]
          : undefined,
        remediations,
      });
    }
    return out;
  },
};

function clip(label: string): string {
  return label.length > 75 ? `${label.slice(0, 74)}…` : label;
}
