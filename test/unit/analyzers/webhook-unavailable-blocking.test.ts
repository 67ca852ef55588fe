import { describe, expect, it } from '@jest/globals';
import { webhookUnavailableBlockingAnalyzer } from '../../../src/diagnose/analyzers/webhook-unavailable-blocking.js';
import { buildContext, buildSnapshot } from '../../support/build-snapshot.js';
import { deployment, endpoints, event, pod, service, webhookConfig } from '../../support/snapshot-b.js';

const run = (s: ReturnType<typeof buildSnapshot>) => webhookUnavailableBlockingAnalyzer.analyze(buildContext(s));
const KYV = 'kyverno-resource-validating-webhook-cfg';
const refused = event({
  reason: 'FailedCreate',
  count: 14,
  message:
    'Error creating: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": dial tcp 10.96.1.2:443: connect: connection refused',
  involvedObject: { kind: 'DaemonSet', namespace: 'kube-system', name: 'antrea-agent' },
  source: 'daemonset-controller',
});
const kyverno = (o: { failurePolicy?: string } = {}) =>
  webhookConfig('ValidatingWebhookConfiguration', KYV, [{ name: 'validate.kyverno.svc-fail', ...o }]);

describe('webhook.unavailable-blocking', () => {
  it.each([
    [
      'healthy service, no refusals',
      {
        validatingWebhooks: [kyverno()],
        services: [service('kyverno', 'kyverno-svc')],
        endpoints: [endpoints('kyverno', 'kyverno-svc', 2)],
      },
    ],
    [
      'dead service but failurePolicy Ignore',
      {
        validatingWebhooks: [kyverno({ failurePolicy: 'Ignore' })],
        services: [service('kyverno', 'kyverno-svc')],
        endpoints: [endpoints('kyverno', 'kyverno-svc', 0)],
      },
    ],
    [
      'system webhook crdvalidator.antrea.io with a dead service',
      {
        validatingWebhooks: [
          webhookConfig('ValidatingWebhookConfiguration', 'crdvalidator.antrea.io', [
            { name: 'crdvalidator.antrea.io', svcNs: 'kube-system', svc: 'antrea', resources: ['*'] },
          ]),
        ],
        services: [service('kube-system', 'antrea')],
        endpoints: [endpoints('kube-system', 'antrea', 0)],
        events: [
          event({
            reason: 'FailedCreate',
            message: 'failed calling webhook "crdvalidator.antrea.io": connection refused',
          }),
        ],
      },
    ],
    ['services not collected (empty list proves nothing)', { validatingWebhooks: [kyverno()] }],
  ])('quiet: %s', (_l, parts) => {
    expect(run(buildSnapshot(parts))).toEqual([]);
  });

  it('critical: dead service + CNI DaemonSet refused; proposes suspend and scale of the offender', () => {
    const [f] = run(
      buildSnapshot({
        validatingWebhooks: [kyverno()],
        services: [service('kyverno', 'kyverno-svc', { app: 'kyverno' })],
        endpoints: [endpoints('kyverno', 'kyverno-svc', 0, 2)],
        deployments: [deployment('kyverno', 'kyverno-admission-controller', { app: 'kyverno', tier: 'admission' })],
        events: [refused],
      }),
    );
    expect(f?.severity).toBe('critical');
    expect(f?.subject).toEqual({ kind: 'ValidatingWebhookConfiguration', name: KYV });
    expect(f?.evidence).toContain('Service kyverno/kyverno-svc: 0 ready endpoints (2 not ready)');
    expect(f?.evidence.join('\n')).toContain('on DaemonSet kube-system/antrea-agent');
    expect(f?.remediations.map((r) => [r.action, r.params])).toEqual([
      ['webhook.suspend', { kind: 'ValidatingWebhookConfiguration', name: KYV }],
      ['deployment.scale', { namespace: 'kyverno', name: 'kyverno-admission-controller', replicas: 0 }],
    ]);
    for (const r of f?.remediations ?? []) expect(r.label.length).toBeLessThanOrEqual(75);
  });

  it('critical: healthy service denying pods (scenario 2), matched by webhook name', () => {
    const [f] = run(
      buildSnapshot({
        mutatingWebhooks: [
          webhookConfig('MutatingWebhookConfiguration', 'k8tz', [
            { name: 'admission-controller.k8tz.io', svcNs: 'k8tz', svc: 'k8tz' },
          ]),
        ],
        services: [service('k8tz', 'k8tz')],
        endpoints: [endpoints('k8tz', 'k8tz', 1)],
        events: [
          event({
            reason: 'FailedCreate',
            message:
              'Error creating: admission webhook "admission-controller.k8tz.io" denied the request: namespace kube-system not allowed',
          }),
        ],
      }),
    );
    expect(f?.severity).toBe('critical');
    expect(f?.subject.kind).toBe('MutatingWebhookConfiguration');
    expect(f?.title).toContain('denies');
  });

  it('warning: service gone (no Service object), intercepts pods, no refusal recorded yet', () => {
    const [f] = run(buildSnapshot({ validatingWebhooks: [kyverno()], services: [service('default', 'kubernetes')] }));
    expect(f?.severity).toBe('warning');
    expect(f?.evidence).toContain('Service kyverno/kyverno-svc: not found');
  });

  it('matches refusals by service host when the webhook name is not quoted (old apiserver format)', () => {
    const [f] = run(
      buildSnapshot({
        validatingWebhooks: [kyverno()],
        services: [service('kyverno', 'kyverno-svc')],
        endpoints: [endpoints('kyverno', 'kyverno-svc', 1)],
        events: [
          event({
            reason: 'FailedCreate',
            message:
              'Internal error occurred: failed calling webhook: Post https://kyverno-svc.kyverno.svc:443/validate?timeout=10s: context deadline exceeded',
          }),
        ],
      }),
    );
    expect(f?.severity).toBe('critical');
  });

  it('names a backend pod that is Running but in CrashLoopBackOff as why the service is down (defect class 10)', () => {
    const backend = pod('kyverno', 'kyverno-admission-controller-7b9d8c6f5-qm4zt', {
      labels: { app: 'kyverno' },
      containers: [{ name: 'kyverno', ready: false, restartCount: 17, waiting: { reason: 'CrashLoopBackOff' } }],
    });
    const [f] = run(
      buildSnapshot({
        validatingWebhooks: [kyverno()],
        services: [service('kyverno', 'kyverno-svc', { app: 'kyverno' })],
        endpoints: [endpoints('kyverno', 'kyverno-svc', 0, 1)],
        pods: [
          backend,
          pod('kyverno', 'other', {
            labels: { app: 'other' },
            containers: [{ name: 'x', ready: false, restartCount: 1, waiting: { reason: 'CrashLoopBackOff' } }],
          }),
        ],
        events: [refused],
      }),
    );
    expect(f?.evidence).toContain(
      'backend pod kyverno/kyverno-admission-controller-7b9d8c6f5-qm4zt: container kyverno CrashLoopBackOff (17 restarts), phase Running',
    );
    expect(f?.evidence.join('\n')).not.toContain('kyverno/other');
    expect(f?.title).toContain('service kyverno/kyverno-svc has no ready endpoints (its pod is in CrashLoopBackOff)');
  });

  it('refusals seen but services not collected: critical on the refusals, and says what it could not see', () => {
    const [f] = run(buildSnapshot({ validatingWebhooks: [kyverno()], events: [refused] }));
    expect(f?.severity).toBe('critical');
    expect(f?.missing).toEqual([
      'Service kyverno/kyverno-svc: not in snapshot: whether its backends are down is not known',
    ]);
  });
});
