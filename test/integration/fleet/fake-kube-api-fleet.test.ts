import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api, Watch } from '@kubernetes/client-node';
import { createTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { eventually } from '../../support/eventually.js';

const node = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
});

/** One fake server process serving several clusters (path prefixes), and the access kinds of enrollment. */
describe('fake Kubernetes API server: several clusters on one port, ServiceAccount tokens and RBAC', () => {
  let mgmt: FakeKubeApi;
  let w1: FakeKubeApi;
  let w2: FakeKubeApi;

  beforeAll(async () => {
    mgmt = await startFakeKubeApi({ objects: [node('mgmt-cp')] });
    w1 = await mgmt.addCluster('w1', { objects: [node('w1-a'), node('w1-b')], accessKinds: true });
    w2 = await mgmt.addCluster('w2', { objects: [node('w2-a')] });
  });
  afterAll(async () => {
    await mgmt.close();
  });

  it('serves each cluster under /clusters/NAME with its own store and request log, on the same port', async () => {
    expect(w1.port).toBe(mgmt.port);
    expect(w1.url).toBe(`${mgmt.url}/clusters/w1`);
    const names = async (url: string) =>
      (await createTestKubeConfig(url).makeApiClient(CoreV1Api).listNode()).items.map((n) => n.metadata!.name);
    expect(await names(mgmt.url)).toEqual(['mgmt-cp']);
    expect(await names(w1.url)).toEqual(['w1-a', 'w1-b']);
    expect(await names(w2.url)).toEqual(['w2-a']);
    expect(w1.requests.some((r) => r.path === '/api/v1/nodes')).toBe(true);
    expect(mgmt.requests.every((r) => !r.path.startsWith('/clusters/'))).toBe(true);
  });

  it('streams watch events of one member cluster to its own watchers only', async () => {
    const seen: string[] = [];
    const controller = await new Watch(createTestKubeConfig(w2.url)).watch(
      '/api/v1/nodes',
      { resourceVersion: w2.list('Node')[0]!.metadata.resourceVersion },
      (type, obj: { metadata: { name: string } }) => seen.push(`${type} ${obj.metadata.name}`),
      () => undefined,
    );
    w1.emit('ADDED', node('w1-c'));
    w2.emit('ADDED', node('w2-b'));
    expect(
      await eventually(
        async () => [...seen],
        (v) => v.length > 0,
      ),
    ).toEqual(['ADDED w2-b']);
    controller.abort();
  });

  it('only the clusters with accessKinds serve Secrets and ServiceAccounts', async () => {
    await expect(
      createTestKubeConfig(w2.url).makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'default' }),
    ).rejects.toMatchObject({ code: 404 });
    expect(
      (await createTestKubeConfig(w1.url).makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: 'default' }))
        .items,
    ).toEqual([]);
  });

  it('fills a service-account token Secret and authorizes its token by the bound ClusterRole only', async () => {
    const admin = createTestKubeConfig(w1.url);
    const core = admin.makeApiClient(CoreV1Api);
    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'kube-system', body: { metadata: { name: 'reader' } } });
    await rbac.createClusterRole({
      body: {
        metadata: { name: 'reader' },
        rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }],
      },
    });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name: 'reader' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'kube-system' }],
      },
    });
    await core.createNamespacedSecret({
      namespace: 'kube-system',
      body: {
        metadata: { name: 'reader-token', annotations: { 'kubernetes.io/service-account.name': 'reader' } },
        type: 'kubernetes.io/service-account-token',
      },
    });
    const secret = await core.readNamespacedSecret({ namespace: 'kube-system', name: 'reader-token' });
    const token = Buffer.from(secret.data!.token!, 'base64').toString('utf8');
    expect(token).toMatch(/^fake-sa-token-/);

    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'w1', server: w1.url, skipTLSVerify: true }],
      users: [{ name: 'reader', token }],
      contexts: [{ name: 'w1', cluster: 'w1', user: 'reader' }],
      currentContext: 'w1',
    });
    const asReader = kc.makeApiClient(CoreV1Api);
    expect((await asReader.listNode()).items.length).toBeGreaterThan(0);
    await expect(asReader.listPodForAllNamespaces()).rejects.toMatchObject({ code: 403 });
    await expect(asReader.deleteNode({ name: 'w1-a' })).rejects.toMatchObject({ code: 403 });
    expect(w1.find('Node', 'w1-a')).toBeDefined();
    expect(
      w1.requests
        .filter((r) => r.user === 'system:serviceaccount:kube-system:reader')
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET /api/v1/nodes', 'GET /api/v1/pods', 'DELETE /api/v1/nodes/w1-a']);
  });
});
