import type { Finding } from '../../src/diagnose/finding.js';

/** A seed-S3 webhook finding with one fix, as the renderer and the Slack layer get it. */
export const webhookDownFinding: Finding = {
  id: 'webhook.unavailable-blocking',
  severity: 'critical',
  section: 'webhooks',
  title: 'Webhook kyverno-resource-validating-webhook-cfg is down and refuses pods',
  subject: { kind: 'ValidatingWebhookConfiguration', name: 'kyverno-resource-validating-webhook-cfg' },
  evidence: [
    'DaemonSet kube-system/antrea-agent: failed calling webhook "validate.kyverno.svc": connect: connection refused (x14)',
  ],
  cause: 'its service kyverno/kyverno-svc has no ready endpoints',
  remediations: [
    {
      action: 'webhook.suspend',
      params: { kind: 'Validating', name: 'kyverno-resource-validating-webhook-cfg' },
      label: 'Suspend webhook kyverno-resource-validating-webhook-cfg',
      risk: 'policies are not enforced while suspended',
    },
  ],
  confidence: 'high',
  fingerprint: 'fp-webhook',
};
