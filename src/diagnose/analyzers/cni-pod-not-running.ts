import type { Analyzer, FindingDraft } from '../analyzer.js';
import { formatAge } from '../facts/age.js';
import { findCondition } from '../facts/find-condition.js';
import { findWebhookCause } from '../facts/find-webhook-cause.js';
import { FAILING_WAITING_REASONS } from '../facts/find-pod-trouble.js';
import { CNI_DAEMONSETS, cniDaemonSetOf, isCniAgentPod } from '../facts/is-cni-agent-pod.js';
import { quoteEvent } from '../facts/quote-event.js';

/**
 * cni.pod-not-running (seed 003): the CNI agent pod (antrea-agent, calico-node, and the other CNIs
 * of is-cni-agent-pod.ts) is missing on a node, or failing there (ImagePullBackOff, CrashLoopBackOff
 * even while the pod is Running — defect class 10 —, Pending past the grace). Subject: the
 * node. Only when the cluster visibly runs such a CNI (a DaemonSet or agent pods exist), and not
 * for nodes whose kubelet stopped reporting (their pod status is stale: node.not-ready covers them).
 */
export const cniPodNotRunningAnalyzer: Analyzer = {
  id: 'cni.pod-not-running',
  analyze(ctx) {
    const { snapshot, now, thresholds } = ctx;
    const agents = snapshot.pods.filter(isCniAgentPod);
    const daemonSets = snapshot.daemonSets.filter((d) => CNI_DAEMONSETS.has(d.metadata?.name ?? ''));
    if (!agents.length && !daemonSets.length) return [];
    const graceMs = thresholds.notReadyGraceSeconds * 1000;
    const dsEvents = snapshot.events.filter(
      (e) =>
        e.involvedObject.kind === 'DaemonSet' &&
        CNI_DAEMONSETS.has(e.involvedObject.name ?? '') &&
        e.type === 'Warning',
    );
    const out: FindingDraft[] = [];
    let cause: ReturnType<typeof findWebhookCause> | null = null;
    for (const node of snapshot.nodes) {
      const name = node.metadata?.name;
      if (!name || node.metadata?.deletionTimestamp) continue;
      const ready = findCondition(node, 'Ready');
      if (ready?.status === 'Unknown') continue;
      const mine = agents.filter((p) => p.nodeName === name && !p.deletionTimestamp);
      const evidence: string[] = [];
      let problem: string | undefined;
      let since: string | undefined;
      if (!mine.length) {
        const created = node.metadata?.creationTimestamp ? Date.parse(node.metadata.creationTimestamp) : NaN;
        if (!Number.isNaN(created) && now.getTime() - created < graceMs) continue; // just joined
        const dsNames = [
          ...new Set([
            ...daemonSets.map((d) => d.metadata.name),
            ...agents.map((p) => cniDaemonSetOf(p) ?? 'CNI agent'),
          ]),
        ].sort();
        problem = `${dsNames.join('/')} pod missing`;
        evidence.push(
          `no ${dsNames.join(' / ')} pod scheduled on node ${name}${node.metadata?.creationTimestamp ? ` (node created ${node.metadata.creationTimestamp})` : ''}`,
        );
        for (const d of daemonSets) {
          const st = d.status ?? {};
          evidence.push(
            `DaemonSet ${d.metadata.namespace ?? ''}/${d.metadata.name}: desiredNumberScheduled=${st.desiredNumberScheduled ?? '?'} currentNumberScheduled=${st.currentNumberScheduled ?? '?'} numberReady=${st.numberReady ?? '?'}`,
          );
        }
        since = node.metadata?.creationTimestamp;
      } else {
        for (const p of mine) {
          const waiting = p.containers.find(
            (c) => c.waiting?.reason && FAILING_WAITING_REASONS.has(c.waiting.reason),
          )?.waiting;
          const created = p.creationTimestamp ? Date.parse(p.creationTimestamp) : NaN;
          const oldEnough = Number.isNaN(created) || now.getTime() - created >= graceMs;
          const notRunning = p.phase === 'Failed' || (p.phase !== 'Running' && p.phase !== 'Succeeded' && oldEnough);
          if (!waiting && !notRunning) continue;
          problem = `${p.name} ${waiting?.reason ?? p.phase ?? 'not running'}`;
          evidence.push(
            `Pod ${p.namespace}/${p.name}: phase=${p.phase ?? '<none>'}${waiting ? `, container waiting reason=${waiting.reason}${waiting.message ? ` "${waiting.message}"` : ''}` : ''}${p.creationTimestamp ? ` (created ${p.creationTimestamp}, ${formatAge(Math.max(0, now.getTime() - created))} ago)` : ''}`,
          );
          since ??= p.creationTimestamp;
          for (const e of snapshot.events
            .filter((e) => e.involvedObject.kind === 'Pod' && e.involvedObject.name === p.name && e.type === 'Warning')
            .slice(0, 2)) {
            evidence.push(quoteEvent(e, now));
          }
        }
        if (!problem) continue;
      }
      for (const e of dsEvents.slice(0, 2)) evidence.push(quoteEvent(e, now));
      if (cause === null) cause = findWebhookCause(snapshot);
      const draft: FindingDraft = {
        id: 'cni.pod-not-running',
        severity: 'warning',
        section: 'nodes',
        title: `CNI on node ${name}: ${problem}`,
        subject: { kind: 'Node', name },
        evidence,
        cause: cause
          ? `${cause.text}: the CNI agent pod for ${name} is refused or cannot start, so the node cannot become Ready.`
          : `Without its CNI agent the node has no pod network and stays NotReady; check the pod's events and image availability.`,
        remediations: [],
      };
      if (cause?.causedBy.length) draft.causedBy = cause.causedBy;
      if (since) draft.since = since;
      out.push(draft);
    }
    return out;
  },
};
