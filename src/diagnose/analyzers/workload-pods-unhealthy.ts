import type { PodProjection } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import { describePodTrouble, findPodTrouble, type PodTrouble } from '../facts/find-pod-trouble.js';
import { isSystemNamespace } from '../facts/is-system-namespace.js';

/** Pods named in a finding's title; the evidence names every one. */
const TITLE_NAMES = 3;

/** At this many troubled pods in one namespace the trouble is a warning wherever the namespace is. */
const WARN_AT = 3;

/**
 * workload.pods-unhealthy: pods that do not work (a container in CrashLoopBackOff or ImagePullBackOff,
 * Unschedulable, stuck creating: findPodTrouble), one finding per namespace with every pod named. The
 * workloads line counts them; this finding is what lets the overall status speak of them. One or two
 * pods of an application namespace are `info` (an e2e test pod that cannot schedule does not make a
 * healthy cluster degraded); three or more, or any pod of a system namespace, are a `warning`.
 */
export const workloadPodsUnhealthyAnalyzer: Analyzer = {
  id: 'workload.pods-unhealthy',
  analyze(ctx) {
    const s = ctx.snapshot;
    const byNamespace = new Map<string, { pod: PodProjection; t: PodTrouble }[]>();
    for (const pod of s.pods) {
      const t = findPodTrouble(pod, { at: s.collectedAt, events: s.events });
      if (!t) continue;
      const list = byNamespace.get(pod.namespace) ?? [];
      list.push({ pod, t });
      byNamespace.set(pod.namespace, list);
    }
    const out: FindingDraft[] = [];
    for (const [ns, troubled] of [...byNamespace].sort((a, b) => a[0].localeCompare(b[0]))) {
      troubled.sort((a, b) => a.pod.name.localeCompare(b.pod.name));
      const system = isSystemNamespace(ns);
      const warn = system || troubled.length >= WARN_AT;
      const names = troubled.map((x) => x.pod.name);
      const shown =
        names.length > TITLE_NAMES
          ? `${names.slice(0, TITLE_NAMES).join(', ')} (+${names.length - TITLE_NAMES} more)`
          : names.join(', ');
      const reasons = [...new Set(troubled.map((x) => x.t.reason))].sort().join(', ');
      const since = troubled
        .map((x) => x.t.since)
        .filter((t): t is string => !!t)
        .sort()[0];
      const draft: FindingDraft = {
        id: 'workload.pods-unhealthy',
        severity: warn ? 'warning' : 'info',
        section: 'workloads',
        title: `${troubled.length} pod${troubled.length === 1 ? '' : 's'} not healthy in namespace ${ns} (${reasons}): ${shown}`,
        subject: { kind: 'Namespace', name: ns },
        evidence: troubled.map((x) => describePodTrouble(x.pod, x.t)),
        cause: system
          ? `${ns} is a system namespace: its pods serve the cluster itself (DNS, networking, controllers), so their trouble reaches every workload.`
          : troubled.length >= WARN_AT
            ? `${troubled.length} pods of one namespace failing together point at a shared cause (image, config, capacity), not one bad pod.`
            : 'A pod of an application namespace: the rest of the cluster is not affected by it.',
        remediations: [],
      };
      if (since) draft.since = since;
      out.push(draft);
    }
    return out;
  },
};
