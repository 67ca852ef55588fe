import type { Analyzer, FindingDraft } from '../analyzer.js';
import { analyzeEach } from '../analyze-each.js';
import { fingerprint } from '../fingerprint.js';
import { findCondition } from '../facts/find-condition.js';
import { findActiveRecreationLoops } from '../facts/find-active-recreation-loops.js';
import { findWebhookCause } from '../facts/find-webhook-cause.js';
import { formatAge } from '../facts/age.js';
import { proposePauseRemediation } from '../facts/propose-pause-remediation.js';
import { proposeWebhookFixes } from '../facts/propose-webhook-fixes.js';

const CNI_NOT_READY = /NetworkPluginNotReady|cni plugin not initialized/i;

/**
 * capi.recreation-loop (seed 003): ≥ loopReplacements replacements of one owner's machines within
 * loopWindowMinutes (machines created and deleted again every 10–15 min). Critical. The cause is
 * the blocking third-party webhook when present (via CNI not initialized on the new nodes), and
 * the remediations follow from that cause (suspend the webhook / scale its Deployment to 0).
 * A rolling upgrade (one create + one delete of an old machine each) is not a loop. A loop that
 * has stopped (owner gone or scaled to 0, or all its machines Running/Ready for longer than one
 * cycle: findLoopStop) is not reported, even while its churn is still inside the loop window.
 */
export const capiRecreationLoopAnalyzer: Analyzer = analyzeEach(
  'capi.recreation-loop',
  // A replacement already failing the same way counts as the next one (flag before it completes), but
  // only on top of real replacements; a loop that has stopped clears at once (defect class 12).
  (ctx) => findActiveRecreationLoops(ctx),
  (loop, ctx) => {
    const { snapshot, thresholds } = ctx;
    const ownerId = `${loop.owner.kind} ${loop.owner.namespace ? `${loop.owner.namespace}/` : ''}${loop.owner.name}`;
    const evidence = [...loop.evidence];
    const cniNodes = loop.nodeNames.filter((n) => {
      const node = snapshot.nodes.find((x) => x.metadata?.name === n);
      return CNI_NOT_READY.test(findCondition(node, 'Ready')?.message ?? '');
    });
    const allCni = snapshot.nodes
      .filter((n) => CNI_NOT_READY.test(findCondition(n, 'Ready')?.message ?? ''))
      .map((n) => n.metadata.name);
    const cniShown = cniNodes.length ? cniNodes : allCni;
    if (cniShown.length)
      evidence.push(`new node(s) with CNI not initialized (NetworkPluginNotReady): ${cniShown.join(', ')}`);
    const webhook = findWebhookCause(snapshot);
    const causedBy: string[] = [];
    let cause: string;
    if (webhook) {
      causedBy.push(...webhook.causedBy);
      cause =
        `${webhook.text}. CNI pods on the new nodes are refused, so the nodes stay NotReady (cni plugin not initialized) ` +
        `and the health check deletes and recreates them every 10–15 minutes.`;
    } else if (cniShown.length) {
      cause = `The new nodes never become Ready because the CNI is not initialized (${cniShown.join(', ')}), so they are remediated and recreated; look for what blocks antrea/calico pods.`;
    } else {
      cause =
        'Machines reach Running but are deleted and recreated again; check why their nodes never become healthy (node conditions, MachineHealthCheck events).';
    }
    if (!webhook)
      for (const n of cniShown)
        causedBy.push(fingerprint(snapshot.cluster, 'node.cni-not-initialized', { kind: 'Node', name: n }));
    const every = loop.intervalMinutes !== undefined ? `, about one every ${Math.round(loop.intervalMinutes)}m` : '';
    const draft: FindingDraft = {
      id: 'capi.recreation-loop',
      severity: 'critical',
      section: 'machines',
      title: `${ownerId}: ${loop.replacements} machine replacements in ${formatAge(thresholds.loopWindowMinutes * 60000)}${every}${webhook ? ` — blocked by webhook ${webhook.webhooks[0]?.name}` : ''}`,
      subject: { kind: loop.owner.kind, namespace: loop.owner.namespace, name: loop.owner.name },
      evidence,
      cause,
      remediations: webhook ? webhook.webhooks.flatMap((w) => proposeWebhookFixes(snapshot, w)) : [],
    };
    // The loop breaker: replacements cannot fix a refused or uninitialized CNI, so offer to
    // pause the MachineHealthCheck that keeps remediating (its undo resumes it).
    if (webhook || cniShown.length) {
      const owned = snapshot.capi.machines.filter(
        (m) =>
          (m.metadata.namespace ?? '') === (loop.owner.namespace ?? '') &&
          (m.metadata.ownerReferences ?? []).some((r) => r.kind === loop.owner.kind && r.name === loop.owner.name),
      );
      draft.remediations.push(
        ...proposePauseRemediation(
          snapshot,
          owned,
          webhook
            ? `a CNI refused by webhook ${webhook.webhooks[0]?.name ?? ''}`.trim()
            : 'a CNI that never initializes',
        ),
      );
    }
    if (causedBy.length) draft.causedBy = causedBy;
    if (loop.since) draft.since = loop.since;
    return draft;
  },
);
