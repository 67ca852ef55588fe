import type { Snapshot } from '../../cluster/snapshot.js';
import type { RemediationProposal } from '../finding.js';
import type { BlockingWebhook } from './find-blocking-webhooks.js';
import { isSystemWebhook } from './is-system-webhook.js';
import { matchesLabelSelector } from './matches-label-selector.js';

/**
 * Seed 003 workaround, approval-gated: suspend the third-party webhook configuration (backed up,
 * then deleted; webhook.restore puts it back once the CNI runs / the upgrade completes) and, when
 * the webhook's Service selects a Deployment's pods, scale that Deployment to 0 (replicas recorded
 * for the scale-back). NEVER for system webhooks (isSystemWebhook): returns [] for them.
 */
export function proposeWebhookFixes(snapshot: Snapshot, w: BlockingWebhook): RemediationProposal[] {
  if (w.system || isSystemWebhook(w.config)) return [];
  const out: RemediationProposal[] = [
    {
      action: 'webhook.suspend',
      params: { kind: w.kind, name: w.name },
      label: clip(`Suspend webhook ${w.name}`),
      risk: `${w.kind} ${w.name} is backed up then deleted: its policy is not enforced until webhook.restore (its operator may also recreate it).`,
    },
  ];
  const seen = new Set<string>();
  for (const s of w.services) {
    const svc = snapshot.services.find((x) => x.metadata?.namespace === s.namespace && x.metadata?.name === s.name);
    const selector = svc?.spec?.selector;
    if (!selector || typeof selector !== 'object' || !Object.keys(selector).length) continue;
    for (const d of snapshot.deployments) {
      if (d.metadata?.namespace !== s.namespace) continue;
      if (!matchesLabelSelector({ matchLabels: selector }, d.spec?.template?.metadata?.labels)) continue;
      const replicas = typeof d.spec?.replicas === 'number' ? d.spec.replicas : 1;
      const key = `${s.namespace}/${d.metadata.name}`;
      if (replicas === 0 || seen.has(key)) continue;
      seen.add(key);
      out.push({
        action: 'deployment.scale',
        params: { namespace: s.namespace, name: d.metadata.name, replicas: 0 },
        label: clip(`Scale ${key} to 0 (was ${replicas})`),
        risk: `Stops ${key} entirely (its webhooks and controllers); scale back to ${replicas} once the CNI is running.`,
      });
    }
  }
  return out;
}

function clip(label: string): string {
  return label.length > 75 ? `${label.slice(0, 74)}…` : label;
}
