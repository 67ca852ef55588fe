import type { Analyzer, FindingDraft } from '../analyzer.js';
import { isSystemWebhook, SYSTEM_NAMESPACES } from '../facts/is-system-webhook.js';
import { matchesLabelSelector } from '../facts/matches-label-selector.js';
import { webhookCoversPods } from '../facts/webhook-covers-pods.js';

/** Seed 003 "Future Considerations": concrete namespaces integral to VKS/TKG lifecycle. */
const SEED_NAMESPACES = ['kube-system', 'vmware-system-antrea', 'vmware-system-auth', 'vmware-system-cloud-provider', 'vmware-system-csi', 'tkg-system', 'secretgen-controller', 'vmware-system-supervisor-services'];

/**
 * webhook.system-namespaces-not-excluded (seed 003, proactive): a third-party webhook with
 * failurePolicy Fail that intercepts pod creation and whose namespaceSelector/objectSelector does
 * not exclude kube-system and the other system namespaces — the next outage of its service stops
 * the CNI on new nodes. Selectors are evaluated against each namespace's real labels (plus the
 * automatic kubernetes.io/metadata.name); an objectSelector that unlabelled pods do not match excludes.
 */
export const webhookSystemNamespacesNotExcludedAnalyzer: Analyzer = {
  id: 'webhook.system-namespaces-not-excluded',
  analyze(ctx) {
    const { snapshot } = ctx;
    const names = new Set(SEED_NAMESPACES);
    for (const ns of snapshot.namespaces) {
      const n = ns.metadata?.name ?? '';
      if (SYSTEM_NAMESPACES.some((p) => (p.endsWith('*') ? n.startsWith(p.slice(0, -1)) : n === p))) names.add(n);
    }
    const labelsOf = (n: string) => ({
      ...(snapshot.namespaces.find((x) => x.metadata?.name === n)?.metadata?.labels ?? {}),
      'kubernetes.io/metadata.name': n,
    });
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
        for (const h of (Array.isArray(config.webhooks) ? config.webhooks : []) as Record<string, any>[]) {
          const policy = typeof h?.failurePolicy === 'string' ? h.failurePolicy : 'Fail';
          if (policy !== 'Fail' || !webhookCoversPods(h)) continue;
          if (h.objectSelector && !matchesLabelSelector(h.objectSelector, {})) continue; // only labelled pods are sent
          const hit = [...names].sort().filter((n) => matchesLabelSelector(h.namespaceSelector, labelsOf(n)));
          if (!hit.length) continue;
          hit.forEach((n) => exposed.add(n));
          evidence.push(
            `${kind} ${config.metadata.name}: webhook ${h.name} failurePolicy=${policy}, rules cover pods, namespaceSelector=${JSON.stringify(h.namespaceSelector ?? {})}` +
              `${h.objectSelector ? `, objectSelector=${JSON.stringify(h.objectSelector)}` : ''} matches ${hit.join(', ')}`,
          );
          if (Array.isArray(h.matchConditions) && h.matchConditions.length) evidence.push(`webhook ${h.name} also has ${h.matchConditions.length} matchConditions (CEL, not evaluated)`);
        }
        if (!exposed.size) continue;
        const list = [...exposed].sort();
        // Without Namespace objects only the automatic kubernetes.io/metadata.name label is known.
        const missing = snapshot.namespaces.length ? undefined : ['Namespaces not read: selectors were matched on kubernetes.io/metadata.name only'];
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
