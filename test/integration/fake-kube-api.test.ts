import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type KubeConfig,
} from '@kubernetes/client-node';
import { createTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';

const FIXTURES = path.resolve('test/fixtures/live');
const KUBECTL = '/usr/bin/kubectl';

describe('fake Kubernetes API server (served from a dump, read by the real client-node)', () => {
  let api: FakeKubeApi;
  let kc: KubeConfig;
  let core: CoreV1Api;

  beforeAll(async () => {
    api = await startFakeKubeApi({ dir: path.join(FIXTURES, 'self-managed') });
    kc = createTestKubeConfig(api.url);
    core = kc.makeApiClient(CoreV1Api);
  });
  afterAll(async () => {
    await api.close();
  });

  it('paginates lists with limit and opaque continue tokens', async () => {
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await core.listNode({ limit: 2, _continue: cont });
      expect(page.kind).toBe('NodeList');
      names.push(...page.items.map((n) => n.metadata!.name!));
      cont = page.metadata?._continue || undefined;
      pages++;
    } while (cont);
    expect(pages).toBe(3);
    expect(names).toEqual(['cp-1', 'cp-2', 'cp-3', 'worker-a', 'worker-b']);
    const listed = api.requests.filter((r) => r.path === '/api/v1/nodes');
    expect(listed.map((r) => r.query.limit)).toEqual(['2', '2', '2']);
    expect(listed[1]!.query.continue).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('rejects a continue token combined with a resourceVersion, like kube-apiserver', async () => {
    const first = await core.listNode({ limit: 2 });
    await expect(
      core.listNode({ limit: 2, _continue: first.metadata!._continue, resourceVersion: '0' }),
    ).rejects.toMatchObject({ code: 400 });
  });

  it('filters by label selector (=, !=, exists, in) and field selector', async () => {
    const names = async (p: Promise<{ items: { metadata?: { name?: string } }[] }>) =>
      (await p).items.map((i) => i.metadata!.name);
    expect(await names(core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' }))).toEqual([
      'web-1',
      'web-2',
    ]);
    expect(await names(core.listPodForAllNamespaces({ labelSelector: 'app!=web' }))).toEqual([
      'antrea-agent-a1',
      'antrea-agent-b1',
      'etcd-cp-1',
      'etcd-cp-2',
    ]);
    expect(await names(core.listNode({ labelSelector: 'node-role.kubernetes.io/control-plane' }))).toEqual([
      'cp-1',
      'cp-2',
      'cp-3',
    ]);
    expect(await names(core.listNode({ labelSelector: '!node-role.kubernetes.io/control-plane' }))).toEqual([
      'worker-a',
      'worker-b',
    ]);
    expect(await names(core.listPodForAllNamespaces({ labelSelector: 'app in (antrea, etcd)' }))).toEqual([
      'antrea-agent-a1',
      'antrea-agent-b1',
      'etcd-cp-1',
      'etcd-cp-2',
    ]);
    expect(await names(core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=worker-b' }))).toEqual([
      'web-2',
      'antrea-agent-b1',
    ]); // namespace order: default before kube-system
    expect(
      await names(
        core.listEventForAllNamespaces({ fieldSelector: 'involvedObject.kind=Node,involvedObject.name=worker-b' }),
      ),
    ).toEqual(['worker-b.3']);
    expect(await names(core.listNode({ fieldSelector: 'metadata.name=cp-2' }))).toEqual(['cp-2']);
    expect(
      await names(
        core.listNamespacedService({
          namespace: 'kube-system',
          fieldSelector: 'metadata.namespace=kube-system,metadata.name!=antrea',
        }),
      ),
    ).toEqual(['kube-dns', 'metrics-server']);
  });

  it('gets one object, and answers 404 with a NotFound Status', async () => {
    const node = await core.readNode({ name: 'worker-b' });
    expect(node.metadata?.resourceVersion).toMatch(/^\d+$/);
    const err = await core.readNode({ name: 'nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    expect((err as ApiException<string>).code).toBe(404);
    expect(JSON.parse((err as ApiException<string>).body)).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
    });
  });

  it('streams watch events: current objects, then pushed changes and bookmarks', async () => {
    const seen: string[] = [];
    let wake: () => void = () => {};
    const onEvent = (type: string, obj: { metadata?: { name?: string } }) => {
      seen.push(`${type} ${obj.metadata?.name ?? ''}`);
      wake();
    };
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        wake = () => seen.length >= n && resolve();
        wake();
      });
    const ctrl = await new Watch(kc).watch(
      '/api/v1/namespaces/default/pods',
      { allowWatchBookmarks: true },
      onEvent,
      () => {},
    );
    await until(2);
    expect(seen).toEqual(['ADDED web-1', 'ADDED web-2']);
    const web2 = api.find('Pod', 'web-2', 'default')!;
    api.emit('MODIFIED', { ...web2, status: { ...web2.status, phase: 'Running' } });
    api.emit('ADDED', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-3', namespace: 'default' }, spec: {} });
    api.emit('ADDED', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'other', namespace: 'kube-system' },
      spec: {},
    });
    api.emit('BOOKMARK', { metadata: { name: '' } });
    api.emit('DELETED', web2);
    await until(6);
    ctrl.abort();
    expect(seen).toEqual(['ADDED web-1', 'ADDED web-2', 'MODIFIED web-2', 'ADDED web-3', 'BOOKMARK ', 'DELETED web-2']);
    expect(api.requests.find((r) => r.query.watch === 'true')?.query.allowWatchBookmarks).toBe('true');
  });

  it('records PATCH and DELETE; applies them, except dryRun=All', async () => {
    const taint = {
      spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }] },
    };
    await core.patchNode(
      { name: 'worker-a', body: taint, dryRun: 'All' },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(api.find('Node', 'worker-a')?.spec?.taints).toBeUndefined();
    const patched = await core.patchNode(
      { name: 'worker-a', body: taint },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(patched.spec?.taints?.[0]?.key).toBe('node.kubernetes.io/out-of-service');
    expect(api.find('Node', 'worker-a')?.spec?.taints).toHaveLength(1);
    // client-node's default patch type is JSON Patch.
    await core.patchNode({ name: 'worker-a', body: [{ op: 'remove', path: '/spec/taints' }] });
    expect(api.find('Node', 'worker-a')?.spec?.taints).toBeUndefined();

    await core.deleteNamespacedPod({ name: 'antrea-agent-b1', namespace: 'kube-system', dryRun: 'All' });
    expect(api.find('Pod', 'antrea-agent-b1', 'kube-system')).toBeDefined();
    await core.deleteNamespacedPod({ name: 'antrea-agent-b1', namespace: 'kube-system', gracePeriodSeconds: 0 });
    expect(api.find('Pod', 'antrea-agent-b1', 'kube-system')).toBeUndefined();

    expect(api.writes.map((w) => `${w.method} ${w.kind} ${w.name} dryRun=${w.dryRun}`)).toEqual([
      'PATCH Node worker-a dryRun=true',
      'PATCH Node worker-a dryRun=false',
      'PATCH Node worker-a dryRun=false',
      'DELETE Pod antrea-agent-b1 dryRun=true',
      'DELETE Pod antrea-agent-b1 dryRun=false',
    ]);
    expect(api.writes[0]).toMatchObject({
      contentType: 'application/merge-patch+json',
      body: taint,
      path: '/api/v1/nodes/worker-a',
    });
    expect(api.writes[4]!.query.gracePeriodSeconds).toBe('0');
    await expect(
      core.patchNode(
        { name: 'worker-a', body: {}, dryRun: 'Some' },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    ).rejects.toMatchObject({ code: 400 });
  });

  it('injects a 403 with a real Forbidden Status, `times` times', async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    api.fail({ method: 'GET', pathPrefix: '/apis/cluster.x-k8s.io/v1beta1/machines', status: 403, times: 1 });
    const err = (await custom
      .listClusterCustomObject({ group: 'cluster.x-k8s.io', version: 'v1beta1', plural: 'machines' })
      .catch((e: unknown) => e)) as ApiException<string>;
    expect(err.code).toBe(403);
    const status = JSON.parse(err.body);
    expect(status).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      details: { group: 'cluster.x-k8s.io', kind: 'machines' },
    });
    expect(status.message).toContain(
      'cannot list resource "machines" in API group "cluster.x-k8s.io" at the cluster scope',
    );
    const again = (await custom.listClusterCustomObject({
      group: 'cluster.x-k8s.io',
      version: 'v1beta1',
      plural: 'machines',
    })) as { items: unknown[] };
    expect(again.items).toHaveLength(5);
  });

  it('serves discovery from KINDS: CAPI groups with objects, no TanzuKubernetesCluster CRD', async () => {
    const groups = (await (await fetch(`${api.url}/apis`)).json()) as {
      groups: { name: string; preferredVersion: { version: string } }[];
    };
    const names = groups.groups.map((g) => g.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'apps',
        'admissionregistration.k8s.io',
        'storage.k8s.io',
        'cluster.x-k8s.io',
        'controlplane.cluster.x-k8s.io',
      ]),
    );
    expect(names).not.toContain('run.tanzu.vmware.com');
    expect((await fetch(`${api.url}/apis/run.tanzu.vmware.com/v1alpha3`)).status).toBe(404);
    const core1 = (await (await fetch(`${api.url}/api/v1`)).json()) as {
      resources: { name: string; namespaced: boolean }[];
    };
    expect(core1.resources).toEqual(
      expect.arrayContaining([
        { name: 'nodes', singularName: 'node', namespaced: false, kind: 'Node', verbs: expect.any(Array) },
      ]),
    );
  });

  it('answers /readyz?verbose healthy, with a failing etcd check, or not at all', async () => {
    const healthy = await fetch(`${api.url}/readyz?verbose`);
    expect(healthy.status).toBe(200);
    expect(await healthy.text()).toMatch(/\[\+\]etcd ok\n[\s\S]*readyz check passed\n$/);
    expect(await (await fetch(`${api.url}/livez`)).text()).toBe('ok');
    api.setReadyz('etcd-failing');
    const failing = await fetch(`${api.url}/readyz?verbose`);
    expect(failing.status).toBe(500);
    expect(await failing.text()).toContain('[-]etcd failed: reason withheld');
    api.setReadyz('down');
    await expect(fetch(`${api.url}/readyz?verbose`)).rejects.toThrow();
    api.setReadyz('healthy');
  });

  it('serves `kubectl get nodes -o json --server=…` (kubectl as a child process)', async () => {
    if (!existsSync(KUBECTL))
      throw new Error(`${KUBECTL} not found: install kubernetes-client (apt-get install kubernetes-client)`);
    const { stdout } = await promisify(execFile)(
      KUBECTL,
      ['get', 'nodes', '-o', 'json', `--server=${api.url}`, '--token=test-token'],
      {
        env: { ...process.env, KUBECONFIG: '/nonexistent/kubeconfig', HOME: '/tmp' },
      },
    );
    const list = JSON.parse(stdout) as { kind: string; items: { kind: string; metadata: { name: string } }[] };
    expect(list.kind).toBe('List');
    expect(list.items.map((n) => `${n.kind}/${n.metadata.name}`)).toEqual([
      'Node/cp-1',
      'Node/cp-2',
      'Node/cp-3',
      'Node/worker-a',
      'Node/worker-b',
    ]);
    expect(api.requests.some((r) => r.path === '/api/v1/nodes' && r.query.limit === '500')).toBe(true);
  });
});

describe('fake Kubernetes API server for a workload/ + management/ dump', () => {
  it('serves each half as its own cluster', async () => {
    const dir = path.join(FIXTURES, 'split');
    const [workload, management] = await Promise.all([
      startFakeKubeApi({ dir, cluster: 'workload' }),
      startFakeKubeApi({ dir, cluster: 'management' }),
    ]);
    try {
      const wNodes = (await (await fetch(`${workload.url}/api/v1/nodes`)).json()) as { items: unknown[] };
      const mNodes = (await (await fetch(`${management.url}/api/v1/nodes`)).json()) as { items: unknown[] };
      expect([wNodes.items.length, mNodes.items.length]).toEqual([5, 0]);
      expect((await fetch(`${workload.url}/apis/cluster.x-k8s.io/v1beta1/machines`)).status).toBe(404);
      const machines = (await (
        await fetch(`${management.url}/apis/cluster.x-k8s.io/v1beta1/namespaces/ns-prod/machines`)
      ).json()) as { kind: string; items: unknown[] };
      expect(machines).toMatchObject({ kind: 'MachineList' });
      expect(machines.items).toHaveLength(5);
    } finally {
      await Promise.all([workload.close(), management.close()]);
    }
  });
});
