import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { collectSnapshot } from '../../src/cluster/live/collect-snapshot.js';
import { createWatchCaches, type WatchCaches } from '../../src/cluster/live/create-watch-caches.js';
import type { Snapshot } from '../../src/cluster/snapshot.js';
import { clusterSchema, type ClusterConfig } from '../../src/config/config-schema.js';
import { parseConfig } from '../../src/config/load-config.js';
import { scanSnapshot } from '../../src/scan/scan-snapshot.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import {
  startFakeKubeApi,
  type FakeKubeApi,
  type FakeKubeApiOptions,
} from '../support/fake-kube-api/start-fake-kube-api.js';
import { eventually } from '../support/eventually.js';

/**
 * The watch cache (scan.watch) against the fake API server through the real client-node Watch:
 * a cached scan equals a list scan of the same cluster, makes no list request once the watches
 * are open, follows ADDED/MODIFIED/DELETED, survives the server ending watches, relists on
 * 410 Gone, and falls back to listing a kind whose watch is down.
 */
const SCENARIOS = path.resolve('examples/scenarios');
const FIXTURES = path.resolve('test/fixtures/live');
const NOW = () => new Date('2025-03-01T10:31:00Z');

const started: FakeKubeApi[] = [];
const caches: WatchCaches[] = [];
async function start(opts: FakeKubeApiOptions): Promise<FakeKubeApi> {
  const api = await startFakeKubeApi(opts);
  started.push(api);
  return api;
}
function newCaches(opts: Parameters<typeof createWatchCaches>[0] = {}): WatchCaches {
  const c = createWatchCaches({ minBackoffMs: 50, maxBackoffMs: 500, ...opts });
  caches.push(c);
  return c;
}
afterEach(async () => {
  for (const c of caches.splice(0)) c.close();
  await Promise.all(started.splice(0).map((a) => a.close()));
});

async function clusterFor(name: string, workload: FakeKubeApi, management?: FakeKubeApi): Promise<ClusterConfig> {
  return clusterSchema.parse({
    name,
    workload: { kubeconfig: await writeTestKubeConfig(workload.url, 'workload') },
    ...(management
      ? { management: { kubeconfig: await writeTestKubeConfig(management.url, 'supervisor'), context: 'supervisor' } }
      : {}),
  });
}

/** Collection paths listed (GET of a collection without watch), i.e. what a cached scan must avoid. */
function lists(api: FakeKubeApi, from = 0) {
  return api.requests
    .slice(from)
    .filter(
      (r) =>
        r.method === 'GET' &&
        /^\/apis?\//.test(r.path) &&
        r.query.watch === undefined &&
        (r.query.limit !== undefined || r.query.continue !== undefined),
    );
}

function comparable(s: Snapshot) {
  const { collectedAt: _c, ...rest } = s;
  return rest;
}

describe('watch cache: same snapshot as a list scan, without the lists', () => {
  it.each([
    's3-recreation-loop-webhook-down',
    's2-upgrade-stuck-etcd-learner',
    's4-node-powered-off-volume-stuck',
    'benign-rolling-upgrade',
  ])('%s: the cached scan equals the list scan; the second scan lists nothing', async (scenario) => {
    const api = await start({ dir: path.join(SCENARIOS, scenario) });
    const cluster = await clusterFor(scenario, api);
    const listed = await collectSnapshot(cluster, { pageSize: 3, now: NOW });
    const wc = newCaches({ pageSize: 3 });
    const infos: { cluster: string; cachedKinds: number; listedKinds: number }[] = [];
    const first = await collectSnapshot(cluster, {
      pageSize: 3,
      now: NOW,
      watchCaches: wc,
      onCollected: (i) => infos.push(i),
    });
    expect(comparable(first)).toEqual(comparable(listed));
    const before = api.requests.length;
    const second = await collectSnapshot(cluster, {
      pageSize: 3,
      now: NOW,
      watchCaches: wc,
      onCollected: (i) => infos.push(i),
    });
    expect(comparable(second)).toEqual(comparable(listed));
    // Only /readyz was asked: no list, no discovery.
    expect(api.requests.slice(before).map((r) => r.path)).toEqual(['/readyz']);
    expect(infos[1]).toEqual({ cluster: scenario, cachedKinds: expect.any(Number), listedKinds: 0 });
    expect(infos[1]!.cachedKinds).toBeGreaterThan(15);
    // Every watch resumed from its list's resourceVersion and asked for bookmarks.
    const watches = api.requests.filter((r) => r.query.watch === 'true');
    expect(watches.length).toBeGreaterThanOrEqual(14);
    for (const w of watches)
      expect(w.query).toMatchObject({
        allowWatchBookmarks: 'true',
        resourceVersion: expect.stringMatching(/^[1-9]\d*$/),
      });
  });

  it('a workload + management pair: the same split as a list scan (events from both sides)', async () => {
    const dir = path.join(FIXTURES, 'split');
    const workload = await start({ dir });
    const management = await start({ dir, cluster: 'management' });
    const cluster = await clusterFor('split', workload, management);
    const listed = await collectSnapshot(cluster, { now: NOW });
    const wc = newCaches();
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const from = management.requests.length;
    const cached = await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    expect(comparable(cached)).toEqual(comparable(listed));
    expect(cached.events.some((e) => e.origin === 'management')).toBe(true);
    expect(management.requests.length).toBe(from); // nothing asked of the management cluster
  });
});

describe('watch cache: the analysis never changes the cached objects', () => {
  it('every cached object deep-frozen: diagnosing the cached scan throws nothing and finds what the list scan finds', async () => {
    const scenario = 's3-recreation-loop-webhook-down';
    const api = await start({ dir: path.join(SCENARIOS, scenario) });
    const cluster = await clusterFor(scenario, api);
    const wc = newCaches();
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const cached = await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const deepFreeze = (o: unknown): void => {
      if (o === null || typeof o !== 'object' || Object.isFrozen(o)) return;
      Object.freeze(o);
      for (const v of Object.values(o)) deepFreeze(v);
    };
    const arrays = [
      cached.nodes,
      cached.pods,
      cached.events,
      cached.namespaces,
      cached.services,
      cached.endpoints,
      cached.deployments,
      cached.daemonSets,
      cached.statefulSets,
      cached.replicaSets,
      cached.validatingWebhooks,
      cached.mutatingWebhooks,
      cached.volumeAttachments,
      cached.persistentVolumeClaims,
      cached.podDisruptionBudgets,
      cached.customResourceDefinitions,
      ...Object.values(cached.capi),
    ];
    for (const a of arrays) for (const o of a) deepFreeze(o);
    const opts = { thresholds: parseConfig({}, '/tmp').thresholds, now: NOW() };
    const fromCache = await scanSnapshot(cached, { ...opts, history: new InMemoryHistory() });
    const fromList = await scanSnapshot(await collectSnapshot(cluster, { now: NOW }), {
      ...opts,
      history: new InMemoryHistory(),
    });
    expect(fromCache.findings.map((f) => f.fingerprint)).toEqual(fromList.findings.map((f) => f.fingerprint));
    expect(fromCache.findings.length).toBeGreaterThan(0);
  });
});

describe('watch cache: following the cluster', () => {
  it('ADDED, MODIFIED and DELETED reach the next scan without a list; a server-ended watch is renewed from its resourceVersion', async () => {
    const api = await start({ dir: path.join(SCENARIOS, 'benign-healthy') });
    const cluster = await clusterFor('healthy', api);
    // The server ends each watch after 1 s: renewals must not lose or repeat changes.
    const wc = newCaches({ watchSeconds: 1 });
    const first = await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const node = structuredClone(first.nodes[0]!);
    const pod = first.pods[0]!;
    const listsBefore = lists(api).length;

    await new Promise((r) => setTimeout(r, 1500)); // at least one renewal
    node.status = {
      ...(node.status as object),
      conditions: [
        { type: 'Ready', status: 'False', reason: 'KubeletNotReady', lastTransitionTime: '2025-03-01T10:30:00Z' },
      ],
    };
    api.emit('MODIFIED', node);
    api.emit('DELETED', { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.name, namespace: pod.namespace } });
    api.emit('ADDED', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'added-by-watch', uid: 'u-added' },
      status: { phase: 'Active' },
    });

    const after = await eventually(
      () => collectSnapshot(cluster, { now: NOW, watchCaches: wc }),
      (s) =>
        s.namespaces.some((m) => m.metadata.name === 'added-by-watch') &&
        !s.pods.some((p) => p.name === pod.name && p.namespace === pod.namespace),
      10_000,
      50,
    );
    const changed = after.nodes.find((n) => n.metadata.name === node.metadata.name)!;
    expect((changed.status as { conditions: { status: string }[] }).conditions[0]!.status).toBe('False');
    expect(after.pods).toHaveLength(first.pods.length - 1);
    expect(after.namespaces.map((m) => m.metadata.name)).toContain('added-by-watch');
    expect(lists(api).length).toBe(listsBefore); // watched, never relisted
    // Equal to what a list scan sees now.
    expect(comparable(after)).toEqual(comparable(await collectSnapshot(cluster, { now: NOW })));
  });

  it('410 Gone in the watch stream: that kind is relisted and stays correct', async () => {
    const api = await start({ dir: path.join(SCENARIOS, 'benign-healthy') });
    const cluster = await clusterFor('healthy', api);
    const wc = newCaches();
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const nodesWatch = wc
      .for(cluster)
      .all()
      .find((w) => w.spec.plural === 'nodes')!;
    expect(nodesWatch.stats).toMatchObject({ lists: 1, relists: 0 });
    api.emit('ERROR', {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: { name: '' },
      status: 'Failure',
      reason: 'Expired',
      code: 410,
      message: 'too old resource version',
    } as never);
    await eventually(
      async () => nodesWatch.stats.relists,
      (n) => n >= 1,
      10_000,
      50,
    );
    await eventually(
      async () => nodesWatch.state,
      (s) => s === 'watching',
      10_000,
      50,
    );
    expect(nodesWatch.stats.lists).toBeGreaterThanOrEqual(2);
    const s = await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    expect(comparable(s)).toEqual(comparable(await collectSnapshot(cluster, { now: NOW })));
  });

  it('a watch answered 404 (the collection moved, e.g. a CRD version dropped) relists instead of retrying the dead path', async () => {
    const api = await start({ dir: path.join(SCENARIOS, 'benign-healthy') });
    const cluster = await clusterFor('healthy', api);
    const wc = newCaches();
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const nodesWatch = wc
      .for(cluster)
      .all()
      .find((w) => w.spec.plural === 'nodes')!;
    // The next request to the nodes collection (the re-watch) gets 404; an ERROR in the stream ends every watch.
    api.fail({ path: '/api/v1/nodes', status: 404, times: 1 });
    api.emit('ERROR', {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: { name: '' },
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message: 'watch ended',
    } as never);
    await eventually(
      async () => nodesWatch.stats.relists,
      (n) => n >= 1,
      10_000,
      50,
    );
    await eventually(
      async () => nodesWatch.state,
      (st) => st === 'watching',
      10_000,
      50,
    );
    expect(nodesWatch.stats.relists).toBe(1);
    const s = await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    expect(comparable(s)).toEqual(comparable(await collectSnapshot(cluster, { now: NOW })));
  });

  it('a CRD installed after the cache started is found by the periodic discovery and then watched', async () => {
    const api = await start({ dir: path.join(SCENARIOS, 'benign-healthy') }); // no Cluster API CRDs served
    const cluster = await clusterFor('healthy', api);
    const wc = newCaches({ discoveryRefreshMs: 200 });
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const machines = wc
      .for(cluster)
      .all()
      .find((w) => w.spec.plural === 'machines')!;
    expect(machines.state).toBe('absent');
    // The first Machine makes the fake serve the CRD (as installing Cluster API would).
    api.emit('ADDED', {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: { name: 'm-late', namespace: 'default', uid: 'u-late' },
      spec: { clusterName: 'x' },
      status: { phase: 'Running' },
    });
    await eventually(
      async () => machines.state,
      (st) => st === 'watching',
      10_000,
      50,
    );
    const s = await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    expect(s.capi.machines.map((m) => m.metadata.name)).toEqual(['m-late']);
  });

  it('a kind whose watch is refused is listed by the scan (and its 403 reported as a list scan would)', async () => {
    const api = await start({ dir: path.join(FIXTURES, 'self-managed') });
    const cluster = await clusterFor('self-managed', api);
    // machines: every request refused (lists and watches); the rest watched.
    api.fail({ path: '/apis/cluster.x-k8s.io/v1beta1/machines', status: 403 });
    const listed = await collectSnapshot(cluster, { now: NOW });
    const wc = newCaches();
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    const infos: { cluster: string; cachedKinds: number; listedKinds: number }[] = [];
    const cached = await collectSnapshot(cluster, { now: NOW, watchCaches: wc, onCollected: (i) => infos.push(i) });
    const machines0 = wc
      .for(cluster)
      .all()
      .find((w) => w.spec.plural === 'machines');
    // Refused, the kind retries its list with backoff: 'failed', or 'listing' again when a retry is in
    // flight (seen on a loaded CI machine) — never watched, so the scan lists it itself.
    expect({ state: machines0?.state, listed: infos[0]!.listedKinds }).toEqual({
      state: expect.stringMatching(/^(failed|listing)$/),
      listed: 1,
    });
    expect(cached.partial).toEqual(listed.partial);
    expect(cached.partial).toEqual([
      expect.objectContaining({
        source: 'list machines.cluster.x-k8s.io',
        error: expect.stringContaining('forbidden'),
      }),
    ]);
    expect(comparable(cached)).toEqual(comparable(listed));
    expect(machines0!.error).toContain('forbidden');
  });

  it('the API server goes away: the scan reports it unreachable as a list scan does (no stale cached objects); back, the watches resume', async () => {
    const api = await start({ dir: path.join(SCENARIOS, 'benign-healthy') });
    const cluster = await clusterFor('healthy', api);
    const wc = newCaches();
    await collectSnapshot(cluster, { now: NOW, watchCaches: wc });
    api.setReadyz('down');
    const down = await collectSnapshot(cluster, { now: NOW, watchCaches: wc, requestTimeoutMs: 2000 });
    expect(down.apiserver).toMatchObject({ reachable: false });
    expect(down.nodes).toEqual([]);
    expect(down.partial[0]!.source).toBe('workload API server');
    api.setReadyz('healthy');
    const back = await eventually(
      async () => {
        const infos: { cluster: string; cachedKinds: number; listedKinds: number }[] = [];
        const s = await collectSnapshot(cluster, { now: NOW, watchCaches: wc, onCollected: (i) => infos.push(i) });
        return { s, listed: infos[0]!.listedKinds };
      },
      (r) => r.listed === 0,
      15_000,
      50,
    );
    expect(back.listed).toBe(0);
    expect(comparable(back.s)).toEqual(comparable(await collectSnapshot(cluster, { now: NOW })));
  });

  it('a cluster not scanned for idleMs has its watches closed; a changed kubeconfig restarts them', async () => {
    const api = await start({ dir: path.join(SCENARIOS, 'benign-healthy') });
    const cluster = await clusterFor('healthy', api);
    const wc = newCaches({ idleMs: 200 });
    const cache = wc.for(cluster);
    await cache.ready(10_000);
    expect(cache.all().every((w) => w.state === 'watching' || w.state === 'absent')).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const other = await clusterFor('other', api);
    const firstOther = wc.for(other);
    expect(cache.all().every((w) => w.state === 'stopped')).toBe(true);
    expect(wc.list().map((c) => c.cluster)).toEqual(['other']);
    await firstOther.ready(10_000);
    const moved = wc.for({ ...other, workload: { kubeconfig: await writeTestKubeConfig(api.url, 'moved') } });
    expect(moved).not.toBe(firstOther);
    expect(firstOther.all().every((w) => w.state === 'stopped')).toBe(true);
    expect(wc.list()).toEqual([moved]);
  });
});
