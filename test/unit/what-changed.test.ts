import { describe, expect, it } from '@jest/globals';
import type { Snapshot } from '../../src/cluster/snapshot.js';
import { DEFAULT_THRESHOLDS } from '../../src/config/config-schema.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { diffFingerprints } from '../../src/diagnose/changes/diff-fingerprints.js';
import { fingerprintSnapshot } from '../../src/diagnose/changes/fingerprint-snapshot.js';
import type { Finding } from '../../src/diagnose/finding.js';
import { attachChanges } from '../../src/scan/attach-changes.js';
import { isHealthyBaseline } from '../../src/report/is-healthy-baseline.js';
import { renderJson } from '../../src/report/render-json.js';
import { renderText } from '../../src/report/render-text.js';
import type { Report } from '../../src/report/report.js';
import { createMemoryBaselineStore } from '../../src/store/baseline-store.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { buildSnapshot, NOW } from '../support/build-snapshot.js';
import { deployment, node, webhookConfig } from '../support/snapshot-b.js';

const dep = (name: string, ns: string, image: string, replicas = 3) => {
  const d = deployment(ns, name, { app: name }, replicas);
  d.metadata.uid = `uid-${name}`;
  d.metadata.generation = 1;
  d.spec.template.spec = { containers: [{ name, image }] };
  return d;
};
const healthy = (): Snapshot =>
  buildSnapshot({
    nodes: [{ ...node('w1'), metadata: { ...node('w1').metadata, uid: 'uid-w1-a' } }],
    deployments: [
      dep('kyverno-admission-controller', 'kyverno', 'ghcr.io/kyverno/kyverno:v1.10.0'),
      dep('shop', 'shop', 'shop:1'),
    ],
    customResourceDefinitions: [],
  });
const broken = (): Snapshot => {
  const s = healthy();
  s.validatingWebhooks = [
    webhookConfig('ValidatingWebhookConfiguration', 'kyverno-resource-validating-webhook-cfg', [
      { name: 'validate.kyverno.svc-fail', failurePolicy: 'Fail' },
    ]),
  ];
  s.deployments = [
    dep('kyverno-admission-controller', 'kyverno', 'ghcr.io/kyverno/kyverno:v1.11.0'),
    dep('shop', 'shop', 'shop:1', 5),
  ];
  s.nodes = [{ ...node('w1'), metadata: { ...node('w1').metadata, uid: 'uid-w1-b' } }];
  s.customResourceDefinitions = [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'policies.kyverno.io', uid: 'uid-crd', generation: 1 },
      spec: { group: 'kyverno.io', versions: [{ name: 'v1', served: true, storage: true }] },
    },
  ];
  return s;
};
const refused: Finding = {
  id: 'webhook.unavailable-blocking',
  severity: 'critical',
  section: 'webhooks',
  title: 't',
  confidence: 'high',
  fingerprint: 'fp',
  subject: { kind: 'ValidatingWebhookConfiguration', name: 'other-webhook' },
  evidence: ['pods refused'],
  remediations: [],
};

describe('what changed since the last healthy scan', () => {
  it('diffs the fingerprints and ranks a webhook on pods first while pods are refused', () => {
    const changes = diffFingerprints(
      fingerprintSnapshot(healthy(), '2023-11-30T16:00:00Z'),
      fingerprintSnapshot(broken(), NOW),
      [refused],
    );
    expect(changes.map((c) => [c.rank, c.kind, c.name, c.change, c.detail])).toEqual([
      [
        0,
        'ValidatingWebhookConfiguration',
        'kyverno-resource-validating-webhook-cfg',
        'added',
        'added (intercepts pod creation)',
      ],
      [1, 'CustomResourceDefinition', 'policies.kyverno.io', 'added', 'installed'],
      [
        1,
        'Deployment',
        'kyverno-admission-controller',
        're-imaged',
        'image ghcr.io/kyverno/kyverno:v1.10.0 → ghcr.io/kyverno/kyverno:v1.11.0',
      ],
      [1, 'Deployment', 'shop', 'scaled', 'replicas 3 → 5'],
      [2, 'Node', 'w1', 'replaced', 'deleted and created again (uid uid-w1-a → uid-w1-b)'],
    ]);
    expect(changes[0]!.why).toBe(
      'its webhooks intercept pod creation while pods are refused (webhook.unavailable-blocking)',
    );
  });

  it('an object a finding names is on the failing path; nothing ranks 0 without a failing finding', () => {
    const named: Finding = {
      ...refused,
      id: 'capi.drain-blocked',
      section: 'machines',
      evidence: ['PodDisruptionBudget shop/shop: …'],
      subject: { kind: 'Machine', namespace: 'ns1', name: 'm' },
    };
    const changes = diffFingerprints(
      fingerprintSnapshot(healthy(), '2023-11-30T16:00:00Z'),
      fingerprintSnapshot(broken(), NOW),
      [named],
    );
    expect(changes.find((c) => c.name === 'shop')).toMatchObject({ rank: 0, why: 'named by capi.drain-blocked' });
    expect(
      diffFingerprints(fingerprintSnapshot(healthy(), 'a'), fingerprintSnapshot(broken(), 'b'), []).every(
        (c) => c.rank === 2,
      ),
    ).toBe(true);
  });

  it('a healthy report becomes the baseline; a later broken one carries changedSinceHealthy, rendered in JSON and text; one observation is recorded once', async () => {
    const store = createMemoryBaselineStore();
    const history = new InMemoryHistory();
    const first = await scanSnapshot(
      { ...healthy(), collectedAt: '2023-11-30T16:00:00Z' },
      { history, thresholds: DEFAULT_THRESHOLDS },
    );
    const healthyReport: Report = { ...first, status: 'healthy' };
    expect(isHealthyBaseline(healthyReport)).toBe(true);
    expect((await attachChanges(healthyReport, healthy(), store)).changedSinceHealthy).toBeUndefined();
    expect((await store.load(first.cluster))!.at).toBe('2023-11-30T16:00:00Z');

    const brokenReport: Report = { ...first, collectedAt: NOW, status: 'critical', findings: [refused] };
    expect(isHealthyBaseline(brokenReport)).toBe(false);
    const withChanges = await attachChanges(brokenReport, broken(), store);
    expect(withChanges.changedSinceHealthy).toMatchObject({ baselineAt: '2023-11-30T16:00:00Z' });
    expect(withChanges.changedSinceHealthy!.changes).toHaveLength(5);
    await attachChanges(brokenReport, broken(), store);
    expect(await store.listChanges(first.cluster)).toHaveLength(1);

    const json = JSON.parse(renderJson(withChanges));
    expect(Object.keys(json)).toEqual([
      'cluster',
      'generatedAt',
      'collectedAt',
      'status',
      'sections',
      'findings',
      'changedSinceHealthy',
      'partial',
    ]);
    const text = renderText(withChanges, { now: new Date(NOW) });
    expect(text).toContain('Changed since last healthy at 2023-11-30T16:00:00Z (closest to what fails now first):');
    expect(text).toContain(
      '  - [on the failing path] ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg: added (intercepts pod creation) — its webhooks intercept pod creation while pods are refused (webhook.unavailable-blocking)',
    );
  });

  it('proactive warnings do not keep a scan from being the baseline; unknown and failing ones do', () => {
    const base = { cluster: 'c', generatedAt: NOW, collectedAt: NOW, sections: [], partial: [] } as unknown as Report;
    const proactive: Finding = { ...refused, id: 'webhook.system-namespaces-not-excluded', severity: 'warning' };
    expect(isHealthyBaseline({ ...base, status: 'degraded', findings: [proactive] })).toBe(true);
    expect(isHealthyBaseline({ ...base, status: 'degraded', findings: [{ ...refused, severity: 'warning' }] })).toBe(
      false,
    );
    expect(isHealthyBaseline({ ...base, status: 'unknown', findings: [] })).toBe(false);
  });

  it('CRDs are kept without their schemas (the snapshot projection), and the fingerprint is bounded per kind', async () => {
    const { projectObject } = await import('../../src/cluster/add-to-snapshot.js');
    const { KINDS } = await import('../../src/cluster/kinds.js');
    const spec = KINDS.find((k) => k.kind === 'CustomResourceDefinition')!;
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'a.b.io', uid: 'u', generation: 3 },
      spec: {
        group: 'b.io',
        scope: 'Namespaced',
        names: { kind: 'A', plural: 'as' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { big: { type: 'string' } } } },
          },
        ],
      },
    };
    expect(projectObject(spec, crd as never, 'workload')).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'a.b.io', uid: 'u', generation: 3 },
      spec: {
        group: 'b.io',
        scope: 'Namespaced',
        names: { kind: 'A', plural: 'as' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    });
    const many = buildSnapshot({ nodes: Array.from({ length: 2100 }, (_, i) => node(`n${i}`)) });
    const fp = fingerprintSnapshot(many, NOW);
    expect(fp.objects).toHaveLength(2000);
    expect(fp.truncated).toBe(100);
  });
});
