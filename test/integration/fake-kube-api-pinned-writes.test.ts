import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { KubeObject } from '../../src/cluster/snapshot.js';
import { sendKube } from '../../src/approvals/execute/send-kube.js';
import { createTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * The fake API server enforces pinned writes the way kube-apiserver does, checked
 * with the real @kubernetes/client-node (its typed DeleteOptions and patch calls) and our raw sendKube:
 * - DELETE with DeleteOptions.preconditions: uid, then resourceVersion, must match the stored object,
 *   dry runs included, else 409 Conflict (k8s.io/apiserver registry/rest/delete.go BeforeDelete);
 * - PATCH whose result carries another metadata.resourceVersion: 409 optimistic-lock conflict
 *   (registry/generic/registry/store.go Update), another metadata.uid: 422 field is immutable.
 */
const pod = (uid: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'db-0', namespace: 'shop', uid },
    spec: { nodeName: 'n1', containers: [] },
  }) as unknown as KubeObject;
const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop', uid: 'uid-web' },
  spec: { replicas: 3 },
} as unknown as KubeObject;

let api: FakeKubeApi;
let kc: KubeConfig;

beforeAll(async () => {
  api = await startFakeKubeApi({ objects: [pod('uid-old'), deployment] });
  kc = createTestKubeConfig(api.url);
});
afterAll(async () => {
  await api.close();
});

describe('DELETE with DeleteOptions.preconditions', () => {
  it('a uid that is not the stored one: 409 Conflict naming both uids, nothing deleted (dry run too)', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const stored = api.find('Pod', 'db-0', 'shop')!;
    for (const dryRun of ['All', undefined]) {
      const err = (await core
        .deleteNamespacedPod({ name: 'db-0', namespace: 'shop', dryRun, body: { preconditions: { uid: 'uid-gone' } } })
        .catch((e: unknown) => e)) as ApiException<string>;
      expect(err).toBeInstanceOf(ApiException);
      expect(err.code).toBe(409);
      const status = JSON.parse(err.body);
      expect(status).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Conflict',
        code: 409,
        details: { name: 'db-0', kind: 'Pod' },
      });
      expect(status.message).toBe(
        `Operation cannot be fulfilled on Pod "db-0": the UID in the precondition (uid-gone) does not match the UID in record (uid-old). The object might have been deleted and then recreated`,
      );
    }
    expect(api.find('Pod', 'db-0', 'shop')).toEqual(stored);
    // The body the client sent is recorded.
    expect(api.writes.at(-1)).toMatchObject({
      method: 'DELETE',
      name: 'db-0',
      body: { preconditions: { uid: 'uid-gone' } },
    });
  });

  it('a stale resourceVersion: 409 Conflict; the right uid and resourceVersion delete', async () => {
    const rv = api.find('Pod', 'db-0', 'shop')!.metadata.resourceVersion!;
    await expect(
      sendKube(kc, {
        method: 'DELETE',
        path: '/api/v1/namespaces/shop/pods/db-0',
        body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'uid-old', resourceVersion: '1' } },
      }),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(
        `the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
      ),
    });
    expect(api.find('Pod', 'db-0', 'shop')).toBeDefined();
    await sendKube(kc, {
      method: 'DELETE',
      path: '/api/v1/namespaces/shop/pods/db-0',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'uid-old', resourceVersion: rv } },
    });
    expect(api.find('Pod', 'db-0', 'shop')).toBeUndefined();
  });

  it('a DELETE without a body is unconditional, as before', async () => {
    api.emit('ADDED', pod('uid-new'));
    await sendKube(kc, { method: 'DELETE', path: '/api/v1/namespaces/shop/pods/db-0' });
    expect(api.find('Pod', 'db-0', 'shop')).toBeUndefined();
  });
});

describe('PATCH carrying metadata.uid / metadata.resourceVersion', () => {
  it('another resourceVersion in a merge patch: 409 optimistic-lock conflict, nothing changed (dry run too)', async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    for (const dryRun of ['All', undefined]) {
      const err = (await apps
        .patchNamespacedDeployment(
          {
            name: 'web',
            namespace: 'shop',
            dryRun,
            body: { metadata: { resourceVersion: '7' }, spec: { replicas: 0 } },
          },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        )
        .catch((e: unknown) => e)) as ApiException<string>;
      expect(err.code).toBe(409);
      expect(JSON.parse(err.body)).toMatchObject({
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      });
    }
    expect((api.find('Deployment', 'web', 'shop') as Any).spec.replicas).toBe(3);
  });

  it('another uid: 422 field is immutable; the stored uid and resourceVersion apply the patch', async () => {
    const rv = api.find('Deployment', 'web', 'shop')!.metadata.resourceVersion!;
    await expect(
      sendKube(kc, {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/shop/deployments/web',
        contentType: 'application/merge-patch+json',
        body: { metadata: { uid: 'uid-other', resourceVersion: rv }, spec: { replicas: 0 } },
      }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining(
        'Deployment.apps "web" is invalid: metadata.uid: Invalid value: "uid-other": field is immutable',
      ),
    });
    expect((api.find('Deployment', 'web', 'shop') as Any).spec.replicas).toBe(3);
    const done = await sendKube(kc, {
      method: 'PATCH',
      path: '/apis/apps/v1/namespaces/shop/deployments/web',
      contentType: 'application/merge-patch+json',
      body: { metadata: { uid: 'uid-web', resourceVersion: rv }, spec: { replicas: 0 } },
    });
    expect(done.spec.replicas).toBe(0);
    expect(done.metadata.resourceVersion).not.toBe(rv);
  });

  it('a json-patch `test` on metadata.uid that fails: 422, nothing changed', async () => {
    await expect(
      sendKube(kc, {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/shop/deployments/web',
        contentType: 'application/json-patch+json',
        body: [
          { op: 'test', path: '/metadata/uid', value: 'uid-other' },
          { op: 'replace', path: '/spec/replicas', value: 5 },
        ],
      }),
    ).rejects.toMatchObject({ status: 422 });
    expect((api.find('Deployment', 'web', 'shop') as Any).spec.replicas).toBe(0);
  });
});
