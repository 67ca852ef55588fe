import { describe, expect, it } from '@jest/globals';
import { webhookSystemNamespacesNotExcludedAnalyzer } from '../../../src/diagnose/analyzers/webhook-system-namespaces-not-excluded.js';
import { buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { webhookConfig } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) =>
  webhookSystemNamespacesNotExcludedAnalyzer.analyze(buildContext(s));
const V = 'ValidatingWebhookConfiguration' as const;
const excludeAll = {
  matchExpressions: [
    {
      key: 'kubernetes.io/metadata.name',
      operator: 'NotIn',
      values: [
        'kube-system',
        'tkg-system',
        'secretgen-controller',
        'vmware-system-antrea',
        'vmware-system-auth',
        'vmware-system-cloud-provider',
        'vmware-system-csi',
        'vmware-system-supervisor-services',
        'svc-tkg-domain-c8',
      ],
    },
  ],
};

describe('webhook.system-namespaces-not-excluded', () => {
  it.each([
    [
      'failurePolicy Ignore',
      webhookConfig(V, 'gk', [
        { name: 'validation.gatekeeper.sh', svcNs: 'gatekeeper-system', failurePolicy: 'Ignore', resources: ['*'] },
      ]),
    ],
    [
      'rules do not cover pods (namespaces only)',
      webhookConfig(V, 'gk', [
        {
          name: 'check-ignore-label.gatekeeper.sh',
          svcNs: 'gatekeeper-system',
          failurePolicy: 'Fail',
          resources: ['namespaces'],
        },
      ]),
    ],
    [
      'namespaceSelector excludes every system namespace',
      webhookConfig(V, 'kyv', [{ name: 'validate.kyverno.svc-fail', namespaceSelector: excludeAll }]),
    ],
    [
      'objectSelector only sends labelled pods',
      webhookConfig(V, 'kyv', [
        {
          name: 'validate.kyverno.svc-fail',
          objectSelector: { matchLabels: { 'policy.example.com/enforce': 'true' } },
        },
      ]),
    ],
    [
      'system webhook (antrea)',
      webhookConfig(V, 'crdvalidator.antrea.io', [
        { name: 'crdvalidator.antrea.io', svcNs: 'kube-system', svc: 'antrea', resources: ['*'] },
      ]),
    ],
  ])('quiet: %s', (_l, cfg) => {
    expect(
      run(buildSnapshot({ validatingWebhooks: [cfg], namespaces: [{ metadata: { name: 'svc-tkg-domain-c8' } }] })),
    ).toEqual([]);
  });

  it('warns for a Fail webhook on pods without selectors, listing the exposed namespaces (incl. svc-tkg-*)', () => {
    const [f] = run(
      buildSnapshot({
        validatingWebhooks: [
          webhookConfig(V, 'kyverno-resource-validating-webhook-cfg', [{ name: 'validate.kyverno.svc-fail' }]),
        ],
        namespaces: [{ metadata: { name: 'kube-system' } }, { metadata: { name: 'svc-tkg-domain-c8' } }],
      }),
    );
    expect(f?.severity).toBe('warning');
    expect(f?.subject).toEqual({ kind: V, name: 'kyverno-resource-validating-webhook-cfg' });
    expect(f?.evidence[0]).toContain('kube-system');
    expect(f?.evidence[0]).toContain('svc-tkg-domain-c8');
    expect(f?.remediations).toEqual([]);
  });

  it('a selector that only excludes kube-system still exposes tkg-system; absent failurePolicy defaults to Fail', () => {
    const sel = {
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
    };
    const [f] = run(
      buildSnapshot({
        mutatingWebhooks: [
          webhookConfig('MutatingWebhookConfiguration', 'k8tz', [
            { name: 'admission-controller.k8tz.io', svcNs: 'k8tz', resources: ['*'], namespaceSelector: sel },
          ]),
        ],
      }),
    );
    expect(f?.evidence[0]).toContain('tkg-system');
    expect(f?.evidence[0]).not.toMatch(/matches .*kube-system/);
  });

  // linkerd's current chart (charts/linkerd-control-plane, values.yaml + values-ha.yaml): failurePolicy Fail in HA.
  const linkerd = webhookConfig('MutatingWebhookConfiguration', 'linkerd-proxy-injector-webhook-config', [
    {
      name: 'linkerd-proxy-injector.linkerd.io',
      svcNs: 'linkerd',
      namespaceSelector: {
        matchExpressions: [
          { key: 'config.linkerd.io/admission-webhooks', operator: 'NotIn', values: ['disabled'] },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'cert-manager'] },
        ],
      },
      objectSelector: {
        matchExpressions: [
          { key: 'linkerd.io/control-plane-component', operator: 'DoesNotExist' },
          { key: 'linkerd.io/cni-resource', operator: 'DoesNotExist' },
        ],
      },
    },
  ]);
  const ns = (name: string, labels: Record<string, string> = {}) => ({
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
  });

  it('linkerd: kubernetes.io/metadata.name NotIn [kube-system, …] excludes the system namespaces that exist; TKG namespaces this cluster lacks are no exposure', () => {
    const namespaces = [
      ns('default'),
      ns('kube-system'),
      ns('kube-public'),
      ns('kube-node-lease'),
      ns('cert-manager'),
      ns('linkerd', { 'config.linkerd.io/admission-webhooks': 'disabled' }),
    ];
    expect(run(buildSnapshot({ mutatingWebhooks: [linkerd], namespaces }))).toEqual([]);
    // The same chart on a TKG cluster does expose tkg-system: it exists there.
    const [f] = run(buildSnapshot({ mutatingWebhooks: [linkerd], namespaces: [...namespaces, ns('tkg-system')] }));
    expect(f?.evidence[0]).toMatch(/matches tkg-system$/);
  });

  it('namespace labels as Kubernetes reads them: matchLabels, In, Exists, DoesNotExist on the real labels', () => {
    const namespaces = [ns('kube-system', { 'control-plane': 'true' }), ns('tkg-system', { tier: 'platform' })];
    const cases: [unknown, string[]][] = [
      [{ matchLabels: { 'control-plane': 'true' } }, ['kube-system']],
      [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['platform', 'infra'] }] }, ['tkg-system']],
      [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, ['tkg-system']],
      [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, ['kube-system']],
      [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['platform'] }] }, ['kube-system']],
      [{ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] }, []],
    ];
    for (const [namespaceSelector, exposed] of cases) {
      const out = run(
        buildSnapshot({
          validatingWebhooks: [webhookConfig(V, 'x', [{ name: 'x.example.com', namespaceSelector }])],
          namespaces,
        }),
      );
      expect(`${JSON.stringify(namespaceSelector)} → ${out[0]?.evidence[0]?.replace(/.* matches /, '') ?? ''}`).toBe(
        `${JSON.stringify(namespaceSelector)} → ${exposed.join(', ')}`,
      );
    }
  });

  it('objectSelector is matched against the labels of the pods running in each system namespace', () => {
    const sel = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] };
    const hook = webhookConfig(V, 'x', [{ name: 'x.example.com', objectSelector: sel }]);
    const pod = (namespace: string, labels: Record<string, string>) =>
      ({ namespace, name: `${namespace}-p`, labels, containers: [], conditions: [], pvcNames: [] }) as never;
    const namespaces = [ns('kube-system'), ns('tkg-system')];
    expect(
      run(
        buildSnapshot({
          validatingWebhooks: [hook],
          namespaces,
          pods: [pod('kube-system', { k8s_app: 'kube-dns' }), pod('tkg-system', { app: 'web' })],
        }),
      )[0]?.evidence[0],
    ).toMatch(/matches tkg-system$/);
    expect(
      run(
        buildSnapshot({ validatingWebhooks: [hook], namespaces, pods: [pod('kube-system', { k8s_app: 'kube-dns' })] }),
      ),
    ).toEqual([]);
  });
});
