import type { Analyzer, FindingDraft } from '../analyzer.js';
import { analyzeEach } from '../analyze-each.js';
import type { RemediationProposal } from '../finding.js';
import { fingerprint } from '../fingerprint.js';
import { formatAge } from '../facts/age.js';
import { findHeldVolumes } from '../facts/find-held-volumes.js';
import { isNodeGone } from '../facts/is-node-gone.js';
import { proposeNodeRelease } from '../facts/propose-node-release.js';
import { quoteEvent } from '../facts/quote-event.js';

/**
 * volume.multi-attach (seed 004): a RWO volume still attached to a dead node while a pod elsewhere
 * waits for it — FailedAttachVolume "Multi-Attach error for volume …" and/or an attached
 * VolumeAttachment on a NotReady/gone node. Critical. Subject: the PVC.
 */
export const volumeMultiAttachAnalyzer: Analyzer = analyzeEach(
  'volume.multi-attach',
  (ctx) => findHeldVolumes(ctx.snapshot),
  (h, ctx) => {
    const { snapshot, now } = ctx;
    if (!h.waitingPods.length && !h.events.length) return undefined;
    const subject = h.pvc
      ? { kind: 'PersistentVolumeClaim', namespace: h.pvc.namespace, name: h.pvc.name }
      : {
          kind: 'PersistentVolumeClaim',
          namespace: h.waitingPods[0]?.namespace ?? h.events[0]?.involvedObject.namespace ?? 'default',
          name: h.pvName,
        };
    const evidence: string[] = [];
    for (const e of h.events.slice(0, 3)) evidence.push(quoteEvent(e, now));
    if (h.attachment) {
      evidence.push(
        `VolumeAttachment ${h.attachment.metadata?.name}: attacher=${h.attachment.spec?.attacher ?? '?'}, nodeName=${h.node}, persistentVolumeName=${h.pvName}, status.attached=true`,
      );
    }
    if (h.node) evidence.push(`Node ${h.node}: ${h.nodeState ?? 'state unknown'}`);
    for (const p of h.waitingPods.slice(0, 3))
      evidence.push(
        `Pod ${p.namespace}/${p.name} waiting on ${p.nodeName ?? '<unscheduled>'}: phase=${p.phase ?? '<none>'}`,
      );
    for (const p of h.holderPods.slice(0, 3))
      evidence.push(
        `Pod ${p.namespace}/${p.name} still holds it on ${p.nodeName ?? '?'}${p.deletionTimestamp ? ` (Terminating since ${p.deletionTimestamp})` : ''}`,
      );
    const node = h.node ? snapshot.nodes.find((n) => n.metadata?.name === h.node) : undefined;
    const gone = node ? isNodeGone(snapshot, node) : undefined;
    if (gone) evidence.push(gone.gone ? `node confirmed gone: ${gone.why}` : `node not confirmed gone: ${gone.why}`);
    const terminating = h.holderPods.filter((p) => p.deletionTimestamp);
    const remediations: RemediationProposal[] = [];
    for (const p of terminating.slice(0, 2)) {
      remediations.push({
        action: 'pod.force-delete',
        params: { namespace: p.namespace, name: p.name },
        label: clip(`Force-delete pod ${p.namespace}/${p.name}`),
        risk: 'If the node is only partitioned the old container may still write to the volume; deleting it starts the 6-minute force-detach timer.',
      });
    }
    if (node && gone?.gone) remediations.push(proposeNodeRelease(node));
    const timer =
      'The attach-detach controller force-detaches a volume from an unreachable node only after maxWaitForUnmountDuration (6 minutes) once no pod on that node uses it; ' +
      'while the old pod is still Terminating there the 6-minute timer never starts. The out-of-service taint (K8s ≥ 1.28) detaches at once.';
    const causedBy = terminating.map((p) =>
      fingerprint(snapshot.cluster, 'pod.stuck-terminating', { kind: 'Pod', namespace: p.namespace, name: p.name }),
    );
    if (h.node) causedBy.push(fingerprint(snapshot.cluster, 'node.not-ready', { kind: 'Node', name: h.node }));
    const since = h.since;
    const draft: FindingDraft = {
      id: 'volume.multi-attach',
      severity: 'critical',
      section: 'workloads',
      title: `Volume ${h.pvName}${h.pvc ? ` (PVC ${h.pvc.namespace}/${h.pvc.name})` : ''} stuck on ${h.node ? `node ${h.node}` : 'another node'}${since ? ` for ${formatAge(Math.max(0, now.getTime() - Date.parse(since)))}` : ''}`,
      subject,
      evidence,
      cause: `The RWO volume is still attached to ${h.node ? `${h.node} (${h.nodeState ?? 'unreachable'})` : 'a node that no longer runs the pod'}, so ${h.waitingPods.map((p) => `${p.namespace}/${p.name}`).join(', ') || 'the new pod'} cannot attach it ("Multi-Attach error"). ${timer}`,
      remediations,
    };
    if (causedBy.length) draft.causedBy = causedBy;
    if (since) draft.since = since;
    if (!h.attachment && !snapshot.volumeAttachments.length)
      draft.missing = ['VolumeAttachments not read: which node holds the volume comes from events only'];
    return draft;
  },
);

function clip(label: string): string {
  return label.length > 75 ? `${label.slice(0, 74)}…` : label;
}
