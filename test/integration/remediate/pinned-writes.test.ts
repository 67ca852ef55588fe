import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { ActionContext } from '../../../src/approvals/execute/action-context.js';
import { findAction } from '../../../src/approvals/actions/index.js';
import { createActionContext } from '../../../src/approvals/execute/create-action-context.js';
import type { PlanParams } from '../../../src/approvals/remediation-plan.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * Every catalog write is pinned to the object its plan was made for. Here the
 * object is recreated under the same name at the very moment the real write reaches the API server
 * (the fake's beforeWrite hook), i.e. AFTER every check the action makes itself: only the pin carried
 * by the request (DeleteOptions.preconditions, metadata.uid/resourceVersion in the patch, json-patch
 * `test`) can stop it. Each write must be refused and the replacement left exactly as it was.
 */
const UNREACHABLE = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const OUT_OF_SERVICE = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' };
const node = (name: string, uid: string, taints: unknown[] = [UNREACHABLE]): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid },
    spec: { taints },
    status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
  }) as unknown as KubeObject;
const machine = (nodeName: string): KubeObject =>
  ({
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name: `m-${nodeName}`,
      namespace: 'default',
      uid: `uid-m-${nodeName}`,
      deletionTimestamp: '2025-03-01T09:05:00Z',
    },
    spec: { clusterName: 'prod' },
    status: { phase: 'Deleting', nodeRef: { kind: 'Node', name: nodeName } },
  }) as unknown as KubeObject;
const webhook = (uid: string): KubeObject =>
  ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'kyverno-policy', uid },
    webhooks: [{ name: 'v.kyverno.svc', failurePolicy: 'Fail' }],
  }) as unknown as KubeObject;
const deployment = (uid: string, replicas = 3): KubeObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', uid },
    spec: { replicas },
  }) as unknown as KubeObject;
const pod = (uid: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'db-0', namespace: 'shop', uid },
    spec: { nodeName: 'gone-pod-node', containers: [] },
  }) as unknown as KubeObject;

let kube: FakeKubeApi;
let ctx: ActionContext;

beforeAll(async () => {
  kube = await startFakeKubeApi({
    objects: [
      webhook('uid-a'),
      deployment('uid-a'),
      pod('uid-a'),
      node('gone-pod-node', 'uid-pn'),
      node('n-delete', 'uid-a'),
      machine('n-delete'),
      node('n-taint', 'uid-a'),
      machine('n-taint'),
      node('n-untaint', 'uid-a', [UNREACHABLE, OUT_OF_SERVICE]),
    ],
  });
  const config = parseConfig(
    {
      clusters: [
        { name: 'prod', workload: { kubeconfig: await writeTestKubeConfig(kube.url) }, remediation: { enabled: true } },
      ],
    },
    '/tmp',
  );
  ctx = await createActionContext(config.clusters[0]!);
});

afterAll(async () => {
  await kube?.close();
});

interface Case {
  action: string;
  params: PlanParams;
  kind: string;
  name: string;
  namespace?: string;
  replacement: KubeObject;
  status: number;
  /** What kube-apiserver says. */
  message: RegExp;
}

const cases: Case[] = [
  {
    action: 'webhook.suspend',
    params: { kind: 'Validating', name: 'kyverno-policy' },
    kind: 'ValidatingWebhookConfiguration',
    name: 'kyverno-policy',
    replacement: webhook('uid-b'),
    status: 409,
    message: /the UID in the precondition \(uid-a\) does not match the UID in record \(uid-b\)/,
  },
  // The replacement has a new resourceVersion too: the optimistic lock fires before the uid check.
  {
    action: 'deployment.scale',
    params: { namespace: 'shop', name: 'web', replicas: 0 },
    kind: 'Deployment',
    name: 'web',
    namespace: 'shop',
    replacement: deployment('uid-b'),
    status: 409,
    message: /the object has been modified/,
  },
  {
    action: 'pod.force-delete',
    params: { namespace: 'shop', name: 'db-0' },
    kind: 'Pod',
    name: 'db-0',
    namespace: 'shop',
    replacement: pod('uid-b'),
    status: 409,
    message: /the UID in the precondition \(uid-a\) does not match the UID in record \(uid-b\)/,
  },
  {
    action: 'node.delete',
    params: { name: 'n-delete' },
    kind: 'Node',
    name: 'n-delete',
    replacement: node('n-delete', 'uid-b'),
    status: 409,
    message: /the UID in the precondition \(uid-a\) does not match the UID in record \(uid-b\)/,
  },
  {
    action: 'node.out-of-service',
    params: { name: 'n-taint' },
    kind: 'Node',
    name: 'n-taint',
    replacement: node('n-taint', 'uid-b'),
    status: 422,
    message: /json-patch test failed at "\/metadata\/uid"/,
  },
  {
    action: 'node.remove-out-of-service',
    params: { name: 'n-untaint' },
    kind: 'Node',
    name: 'n-untaint',
    replacement: node('n-untaint', 'uid-b', [UNREACHABLE, OUT_OF_SERVICE]),
    status: 422,
    message: /json-patch test failed at "\/metadata\/uid"/,
  },
];

describe('a write racing a recreation of its target under the same name is refused by the API server', () => {
  for (const c of cases) {
    it(`${c.action}: the real write carries the pin and gets ${c.status}; the replacement is untouched`, async () => {
      const action = findAction(c.action);
      const plan = await action.plan('prod', c.params, ctx);
      expect(plan.preconditions.find((p) => p.id === 'same-object')?.recorded).toBe('uid-a');
      expect(await action.dryRun(plan, ctx)).toContain('accepted');
      expect(await action.checkPreconditions(plan, ctx)).toEqual([]);
      let stored: KubeObject | undefined;
      kube.beforeWrite = (w) => {
        if (w.dryRun || w.name !== c.name) return;
        kube.beforeWrite = undefined;
        // Deleted and created again by its owner (a StatefulSet, an operator, a re-registering kubelet).
        kube.emit('DELETED', kube.find(c.kind, c.name, c.namespace)!);
        kube.emit('ADDED', c.replacement);
        stored = structuredClone(kube.find(c.kind, c.name, c.namespace));
      };
      const writes = kube.writes.length;
      const err = await action
        .execute(plan, ctx, { requestId: 'r_pinned', saveBackup: async () => undefined })
        .catch((e: unknown) => e as Any);
      expect(err?.status).toBe(c.status);
      expect(String(err.message)).toMatch(c.message);
      expect(stored).toBeDefined();
      expect(kube.find(c.kind, c.name, c.namespace)).toEqual(stored);
      const sent = kube.writes.slice(writes).filter((w) => !w.dryRun);
      expect(sent).toHaveLength(1);
      // The pin is in the request itself.
      expect(JSON.stringify(sent[0]!.body)).toContain('uid-a');
    });
  }
});

describe('a plan made without a live cluster (a preview) is never executed', () => {
  it('fails closed: no recorded uid, nothing sent', async () => {
    const plan = await findAction('deployment.scale').plan('prod', { namespace: 'shop', name: 'web', replicas: 1 });
    const writes = kube.writes.length;
    await expect(
      findAction('deployment.scale').execute(plan, ctx, { requestId: 'r_x', saveBackup: async () => undefined }),
    ).rejects.toThrow('the plan recorded no uid for Deployment shop/web: propose it again against the live cluster');
    expect(kube.writes.length).toBe(writes);
  });
});
