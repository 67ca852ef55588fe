import type { Analyzer, FindingDraft } from '../analyzer.js';
import { isSystemWebhook, SYSTEM_NAMESPACES } from '../facts/is-system-webhook.js';
import { matchesLabelSelector } from '../facts/matches-label-selector.js';
import type { RawWebhook } from '../facts/raw-webhook.js';
import { webhookCoversPods } from '../facts/webhook-covers-pods.js';

/** Seed 003 "Future Considerations": concrete namespaces integral to VKS/TKG lifecycle. */
const SEED_NAMESPACES = [
  'kube-system',
  'vmware-system-antrea',
  'vmware-system-auth',
  'vmware-system-cloud-provider',
  'vmware-system-csi',
  'tkg-system',
  'secretgen-controller',
  'vmware-system-supervisor-services',
];

/**
 * webhook.system-namespaces-not-excluded (seed 003, proactive): a third-party webhook with
 * failurePolicy Fail that intercepts pod creation and whose namespaceSelector/objectSelector does
 * not exclude kube-system and the other system namespaces — the next outage of its service stops
 * the CNI on new nodes. Selectors are evaluated as the API server does (matchLabels, In, NotIn,
 * Exists, DoesNotExist) against the system namespaces that exist in the cluster, with their real
 * labels plus the automatic kubernetes.io/metadata.name: linkerd's chart excludes kube-system by
 * `kubernetes.io/metadata.name NotIn [kube-system, cert-manager]`, and a TKG namespace that this
 * cluster does not have is no exposure. The objectSelector is evaluated against the labels of the
 * pods running in each namespace (an unlabelled pod when none was captured).
 */
export const webhookSystemNamespacesNotExcludedAnalyzer: Analyzer = {
  id: 'webhook.system-namespaces-not-excluded',
  analyze(ctx) {
    const { snapshot } = ctx;
    const isSystem = (n: string) =>
      SEED_NAMESPACES.includes(n) ||
      SYSTEM_NAMESPACES.some((p) => (p.endsWith('*') ? n.startsWith(p.slice(0, -1)) : n === p));
    // The namespaces that exist: the Namespace objects, else those pods run in; the seed list only when neither was
    // read.
    const existing = snapshot.namespaces.length
      ? snapshot.namespaces.map((ns) => ns.metadata?.name ?? '')
      : snapshot.pods.length
        ? [...new Set(snapshot.pods.map((p) => p.namespace))]
        : SEED_NAMESPACES;
    const names = new Set(existing.filter((n) => n && isSystem(n)));
    const labelsOf = (n: string) => ({
      ...(snapshot.namespaces.find((x) => x.metadata?.name === n)?.metadata?.labels ?? {}),
      'kubernetes.io/metadata.name': n,
    });
    /** Pod labels of a namespace to test an objectSelector against: its pods', else one unlabelled pod. */
    const podLabelsOf = (n: string) => {
      const pods = snapshot.pods.filter((p) => p.namespace === n);
      return pods.length ? pods.map((p) => p.labels ?? {}) : [{}];
    };
    const out: FindingDraft[] = [];
    const groups = [
      ['ValidatingWebhookConfiguration', snapshot.validatingWebhooks],
      ['MutatingWebhookConfiguration', snapshot.mutatingWebhooks],
    ] as const;
    for (const [kind, configs] of groups) {
      for (const config of configs) {
        if (isSystemWebhook(config)) continue;
        const evidence: string[] = [];
        const exposed = new Set<string>();
        for (const h of (Array.isArray(config.webhooks) ? config.webhooks : []) as RawWebhook[]) {
          const policy = typeof h?.failurePolicy === 'string' ? h.failurePolicy : 'Fail';
          if (policy !== 'Fail' || !webhookCoversPods(h)) continue;
          const hit = [...names]
            .sort()
            .filter(
              (n) =>
                matchesLabelSelector(h.namespaceSelector, labelsOf(n)) &&
                (!h.objectSelector || podLabelsOf(n).some((l) => matchesLabelSelector(h.objectSelector, l))),
            );
          if (!hit.length) continue;
          hit.forEach((n) => exposed.add(n));
          evidence.push(
            `${kind} ${config.metadata.name}: webhook ${h.name} failurePolicy=${policy}, rules cover pods, namespaceSelector=${JSON.stringify(h.namespaceSelector ?? {})}` +
              `${h.objectSelector ? `, objectSelector=${JSON.stringify(h.objectSelector)}` : ''} matches ${hit.join(', ')}`,
          );
          if (Array.isArray(h.matchConditions) && h.matchConditions.length)
            evidence.push(
              `webhook ${h.name} also has ${h.matchConditions.length} matchConditions (CEL, not evaluated)`,
            );
        }
        if (!exposed.size) continue;
        const list = [...exposed].sort();
        // Without Namespace objects only the automatic kubernetes.io/metadata.name label is known.
        const missing = snapshot.namespaces.length
          ? undefined
          : [
              snapshot.pods.length
                ? 'Namespaces not read: selectors were matched on kubernetes.io/metadata.name only, for the namespaces pods run in'
                : 'Namespaces and Pods not read: matched against the usual system namespaces on kubernetes.io/metadata.name only',
            ];
        out.push({
          ...(missing ? { missing } : {}),
          id: 'webhook.system-namespaces-not-excluded',
          severity: 'warning',
          section: 'webhooks',
          title: `Webhook ${config.metadata.name} fails closed on pods in ${list.slice(0, 3).join(', ')}${list.length > 3 ? ` +${list.length - 3}` : ''}`,
          subject: { kind, name: config.metadata.name },
          evidence,
          cause:
            'If its service goes down (or it denies system pods) the API server refuses CNI and system pods on new nodes, and CAPI recreates nodes in a loop. ' +
            'Exclude the system namespaces in its namespaceSelector (kubernetes.io/metadata.name NotIn kube-system, tkg-system, secretgen-controller, vmware-system-*, svc-tkg-*).',
          remediations: [],
        });
      }
    }
    return out;
  },
};
