import type { Analyzer, FindingDraft } from '../analyzer.js';
import { formatAge } from '../facts/age.js';
import { findCondition } from '../facts/find-condition.js';
import { findWebhookCause } from '../facts/find-webhook-cause.js';
import { findPodTrouble } from '../facts/find-pod-trouble.js';
import { isCniAgentPod } from '../facts/is-cni-agent-pod.js';
import { isKindRead } from '../facts/is-kind-read.js';

const CNI_NOT_READY = /NetworkPluginNotReady|cni plugin not initialized/i;

/**
 * node.cni-not-initialized (seed 003): the node's Ready condition says
 * `container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady … cni plugin
 * not initialized`. Warning; the cause is the blocking third-party webhook when one is present.
 * A node that just booted (under notReadyGraceSeconds) is benign.
 */
export const nodeCniNotInitializedAnalyzer: Analyzer = {
  id: 'node.cni-not-initialized',
  analyze(ctx) {
    const { snapshot, now, thresholds } = ctx;
    const out: FindingDraft[] = [];
    let cause: ReturnType<typeof findWebhookCause> | null = null;
    for (const node of snapshot.nodes) {
      const name = node.metadata?.name;
      const ready = findCondition(node, 'Ready');
      if (!name || !ready || ready.status === 'True' || !CNI_NOT_READY.test(ready.message ?? '')) continue;
      const sinceMs = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
      const ageMs = Number.isNaN(sinceMs) ? undefined : Math.max(0, now.getTime() - sinceMs);
      if (ageMs !== undefined && ageMs < thresholds.notReadyGraceSeconds * 1000) continue;
      const evidence = [
        `Node ${name}: condition Ready=${ready.status} reason=${ready.reason ?? '<none>'} "${ready.message}"${ready.lastTransitionTime ? ` (since ${ready.lastTransitionTime}, ${formatAge(ageMs ?? 0)} ago)` : ''}`,
      ];
      const cni = snapshot.pods.filter((p) => p.nodeName === name && isCniAgentPod(p));
      // "No CNI agent pod" is a claim about Pods: only when Pods were read (missing evidence lowers the claim).
      const podsRead = isKindRead(snapshot, 'Pod', snapshot.pods);
      const missing = podsRead ? [] : [`Pods not captured: whether a CNI agent pod runs on ${name} is not known`];
      if (!cni.length && podsRead) evidence.push(`no CNI agent pod (antrea-agent, calico-node, …) on node ${name}`);
      // The agent runs and is ready, yet the runtime has no CNI config (kindnet on kind, sonobuoy testdata):
      // the fault is on the node (config files, the agent writing them), not a missing or refused pod.
      const runningAgent = cni.find(
        (p) => p.phase === 'Running' && !findPodTrouble(p) && p.containers.every((c) => c.ready),
      );
      for (const p of cni) {
        const waiting = p.containers.find((c) => c.waiting?.reason)?.waiting;
        evidence.push(
          `Pod ${p.namespace}/${p.name}: phase=${p.phase ?? '<none>'}${waiting ? `, waiting ${waiting.reason}${waiting.message ? ` "${waiting.message}"` : ''}` : ''}`,
        );
      }
      if (cause === null) cause = findWebhookCause(snapshot);
      const draft: FindingDraft = {
        id: 'node.cni-not-initialized',
        severity: 'warning',
        section: 'nodes',
        title: `Node ${name}: CNI not initialized${ageMs !== undefined ? ` for ${formatAge(ageMs)}` : ''} (NetworkPluginNotReady)`,
        subject: { kind: 'Node', name },
        evidence,
        cause: cause
          ? `The CNI agent cannot start on ${name}: ${cause.text}. Until it runs the node stays NotReady and the health check recreates it.`
          : runningAgent
            ? `CNI agent pod ${runningAgent.namespace}/${runningAgent.name} is Running and ready, yet the kubelet on ${name} finds no network configuration: check the agent's logs and the CNI config files on the node (/etc/cni/net.d).`
            : podsRead
              ? `The CNI agent is not running on ${name}; check its pod and DaemonSet events.`
              : `The kubelet on ${name} has no network configuration; the capture holds no Pods, so whether the CNI agent runs there is not known: check its DaemonSet and its pod on ${name}.`,
        remediations: [],
      };
      if (missing.length) {
        draft.missing = missing;
        draft.confidence = 'medium';
      }
      if (cause?.causedBy.length) draft.causedBy = cause.causedBy;
      if (ready.lastTransitionTime) draft.since = ready.lastTransitionTime;
      out.push(draft);
    }
    return out;
  },
};
