import { describe, expect, it } from '@jest/globals';
import { webhookSystemNamespacesNotExcludedAnalyzer } from '../../../src/diagnose/analyzers/webhook-system-namespaces-not-excluded.js';
import { buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { webhookConfig } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => webhookSystemNamespacesNotExcludedAnalyzer.analyze(buildContext(s));
const V = 'ValidatingWebhookConfiguration' as const;
const excludeAll = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'tkg-system', 'secretgen-controller', 'vmware-system-antrea', 'vmware-system-auth', 'vmware-system-cloud-provider', 'vmware-system-csi', 'vmware-system-supervisor-services', 'svc-tkg-domain-c8'] }] };

describe('webhook.system-namespaces-not-excluded', () => {
  it.each([
    ['failurePolicy Ignore', webhookConfig(V, 'gk', [{ name: 'validation.gatekeeper.sh', svcNs: 'gatekeeper-system', failurePolicy: 'Ignore', resources: ['*'] }])],
    ['rules do not cover pods (namespaces only)', webhookConfig(V, 'gk', [{ name: 'check-ignore-label.gatekeeper.sh', svcNs: 'gatekeeper-system', failurePolicy: 'Fail', resources: ['namespaces'] }])],
    ['namespaceSelector excludes every system namespace', webhookConfig(V, 'kyv', [{ name: 'validate.kyverno.svc-fail', namespaceSelector: excludeAll }])],
    ['objectSelector only sends labelled pods', webhookConfig(V, 'kyv', [{ name: 'validate.kyverno.svc-fail', objectSelector: { matchLabels: { 'policy.example.com/enforce': 'true' } } }])],
    ['system webhook (antrea)', webhookConfig(V, 'crdvalidator.antrea.io', [{ name: 'crdvalidator.antrea.io', svcNs: 'kube-system', svc: 'antrea', resources: ['*'] }])],
  ])('quiet: %s', (_l, cfg) => {
    expect(run(buildSnapshot({ validatingWebhooks: [cfg], namespaces: [{ metadata: { name: 'svc-tkg-domain-c8' } }] }))).toEqual([]);
  });

  it('warns for a Fail webhook on pods without selectors, listing the exposed namespaces (incl. svc-tkg-*)', () => {
    const [f] = run(buildSnapshot({ validatingWebhooks: [webhookConfig(V, 'kyverno-resource-validating-webhook-cfg', [{ name: 'validate.kyverno.svc-fail' }])], namespaces: [{ metadata: { name: 'svc-tkg-domain-c8' } }] }));
    expect(f?.severity).toBe('warning');
    expect(f?.subject).toEqual({ kind: V, name: 'kyverno-resource-validating-webhook-cfg' });
    expect(f?.evidence[0]).toContain('kube-system');
    expect(f?.evidence[0]).toContain('svc-tkg-domain-c8');
    expect(f?.remediations).toEqual([]);
  });

  it('a selector that only excludes kube-system still exposes tkg-system; absent failurePolicy defaults to Fail', () => {
    const sel = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] };
    const [f] = run(buildSnapshot({ mutatingWebhooks: [webhookConfig('MutatingWebhookConfiguration', 'k8tz', [{ name: 'admission-controller.k8tz.io', svcNs: 'k8tz', resources: ['*'], namespaceSelector: sel }])] }));
    expect(f?.evidence[0]).toContain('tkg-system');
    expect(f?.evidence[0]).not.toMatch(/matches .*kube-system/);
  });
});
