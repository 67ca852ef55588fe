import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { collectSnapshot } from '../../src/cluster/live/collect-snapshot.js';
import { loadDump } from '../../src/cluster/dump/load-dump.js';
import type { Snapshot } from '../../src/cluster/snapshot.js';
import { clusterSchema, type ClusterConfig } from '../../src/config/config-schema.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import {
  startFakeKubeApi,
  type FakeKubeApi,
  type FakeKubeApiOptions,
} from '../support/fake-kube-api/start-fake-kube-api.js';
import { freePort } from '../support/free-port.js';

const FIXTURES = path.resolve('test/fixtures/live');
const SCENARIOS = path.resolve('examples/scenarios');
const NOW = () => new Date('2025-03-01T10:31:00Z');

/**
 * What a live read and a dump of the same cluster must share (origin, time and probes differ by
 * nature, and so does coverage: a live read lists every kind, a hand-made dump holds what it holds).
 */
function comparable(s: Snapshot) {
  // Pod logs come only from a dump's cluster-info-dump tree: a live list never reads them.
  const {
    origin: _o,
    collectedAt: _c,
    collectedAtFrom: _f,
    apiserver: _a,
    etcd: _e,
    coverage: _v,
    controlPlaneLogs: _l,
    ...rest
  } = s;
  return rest;
}

const started: FakeKubeApi[] = [];
async function start(opts: FakeKubeApiOptions): Promise<FakeKubeApi> {
  const api = await startFakeKubeApi(opts);
  started.push(api);
  return api;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.close()));
});

async function clusterFor(
  name: string,
  workload: FakeKubeApi | string,
  management?: FakeKubeApi,
  namespace?: string,
): Promise<ClusterConfig> {
  const url = typeof workload === 'string' ? workload : workload.url;
  return clusterSchema.parse({
    name,
    workload: { kubeconfig: await writeTestKubeConfig(url, 'workload') },
    ...(management
      ? {
          management: {
            kubeconfig: await writeTestKubeConfig(management.url, 'supervisor'),
            context: 'supervisor',
            ...(namespace ? { namespace } : {}),
          },
        }
      : {}),
  });
}

describe('collectSnapshot against the fake API server', () => {
  it('reads a self-managed cluster exactly as loadDump reads its dump (pageSize 2 forces pagination)', async () => {
    const dir = path.join(FIXTURES, 'self-managed');
    const api = await start({ dir });
    const live = await collectSnapshot(await clusterFor('self-managed', api), { pageSize: 2, now: NOW });
    const dump = await loadDump(dir, { cluster: 'self-managed' });
    expect(comparable(live)).toEqual(comparable(dump));
    expect(live).toMatchObject({
      origin: 'live',
      collectedAt: '2025-03-01T10:31:00.000Z',
      apiserver: { reachable: true, ready: true },
    });
    expect(live.nodes).toHaveLength(5);
    expect(live.capi.machines).toHaveLength(5);
    // TanzuKubernetesCluster CRD is not installed: no entry, no partial.
    expect(live.partial).toEqual([]);
    expect(api.requests.some((r) => r.path.includes('tanzukubernetesclusters'))).toBe(false);

    const lists = api.requests.filter((r) => /^\/apis?\/.*\/(nodes|pods|machines)$/.test(r.path));
    expect(lists.length).toBeGreaterThan(3);
    for (const r of lists) expect(r.query.limit).toBe('2');
    const firstPages = lists.filter((r) => !r.query.continue);
    expect(firstPages.map((r) => r.query.resourceVersion)).toEqual(firstPages.map(() => '0'));
    expect(lists.filter((r) => r.path === '/api/v1/nodes' && r.query.continue)).toHaveLength(2);
  });

  it('reads a workload + management pair as loadDump reads a workload/ + management/ dump', async () => {
    const dir = path.join(FIXTURES, 'split');
    const workload = await start({ dir, cluster: 'workload' });
    const management = await start({ dir, cluster: 'management' });
    const live = await collectSnapshot(await clusterFor('split', workload, management), { pageSize: 2, now: NOW });
    const dump = await loadDump(dir, { cluster: 'split' });
    expect(comparable(live)).toEqual(comparable(dump));
    expect(live.events.filter((e) => e.origin === 'management').map((e) => e.reason)).toEqual([
      'SuccessfulSetNodeRef',
      'DetectedUnhealthy',
    ]);
    expect(workload.requests.some((r) => r.path.includes('cluster.x-k8s.io/'))).toBe(false);
    expect(management.requests.some((r) => r.path === '/api/v1/nodes')).toBe(false);
  });

  it('restricts CAPI lists (and management events) to management.namespace', async () => {
    const dir = path.join(FIXTURES, 'split');
    const workload = await start({ dir, cluster: 'workload' });
    const management = await start({ dir, cluster: 'management' });
    const live = await collectSnapshot(await clusterFor('split', workload, management, 'ns-prod'), { now: NOW });
    expect(live.capi.machines).toHaveLength(5);
    expect(management.requests.map((r) => r.path)).toContain(
      '/apis/cluster.x-k8s.io/v1beta1/namespaces/ns-prod/machines',
    );
    expect(management.requests.map((r) => r.path)).toContain('/api/v1/namespaces/ns-prod/events');
    expect(management.requests.some((r) => r.path === '/apis/cluster.x-k8s.io/v1beta1/machines')).toBe(false);
  });

  it('turns a 403 on machines into an actionable partial entry and reads the rest', async () => {
    const api = await start({ dir: path.join(FIXTURES, 'self-managed') });
    api.fail({ path: '/apis/cluster.x-k8s.io/v1beta1/machines', status: 403 });
    const live = await collectSnapshot(await clusterFor('self-managed', api), { now: NOW });
    expect(live.partial).toEqual([
      {
        source: 'list machines.cluster.x-k8s.io',
        error:
          "cannot list machines.cluster.x-k8s.io: forbidden — grant list on it to the bot's ServiceAccount (helm value rbac.capi)",
      },
    ]);
    expect(live.capi.machines).toEqual([]);
    expect(live.capi.machineSets).toHaveLength(1);
    expect(live.nodes).toHaveLength(5);
    // The failed kind is failed with why, the others read — even empty ones.
    expect(live.coverage?.['Machine']).toEqual({ state: 'failed', why: expect.stringContaining('forbidden') });
    expect(live.coverage?.['Node']).toEqual({ state: 'read' });
    expect(live.coverage?.['ValidatingWebhookConfiguration']).toEqual({ state: 'read' });
    expect(live.coverage?.['TanzuKubernetesCluster']).toEqual({ state: 'read' }); // CRD not installed: there are none
  });

  it('turns a 500 on one page into a partial entry, keeping what was read', async () => {
    const api = await start({ dir: path.join(FIXTURES, 'self-managed') });
    api.fail({ method: 'GET', pathPrefix: '/api/v1/pods', status: 500 });
    const live = await collectSnapshot(await clusterFor('self-managed', api), { now: NOW });
    expect(live.partial).toHaveLength(1);
    expect(live.partial[0]).toMatchObject({ source: 'list pods' });
    expect(live.partial[0]!.error).toContain('API server error 500');
    expect(live.pods).toEqual([]);
    expect(live.nodes).toHaveLength(5);
  });

  it('reports a built-in kind the server does not serve as partial, unlike an absent optional CRD', async () => {
    const api = await start({ dir: path.join(FIXTURES, 'self-managed') });
    api.fail({ path: '/api/v1/persistentvolumeclaims', status: 404 });
    const live = await collectSnapshot(await clusterFor('self-managed', api), { now: NOW });
    expect(live.partial.map((p) => p.source)).toEqual(['list persistentvolumeclaims']);
    expect(live.partial[0]!.error).toContain('not found');
  });

  it('reports an API server whose etcd check fails, and still lists from its cache', async () => {
    const api = await start({ dir: path.join(FIXTURES, 'self-managed'), readyz: 'etcd-failing' });
    const live = await collectSnapshot(await clusterFor('self-managed', api), { now: NOW });
    expect(live.apiserver).toMatchObject({ reachable: true, ready: false });
    expect(live.apiserver?.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['etcd', 'etcd-readiness']);
    expect(live.nodes).toHaveLength(5);
  });

  it('does not throw when the API server is down: reachable false, partial entry', async () => {
    const port = await freePort(); // nothing listens there: connection refused
    const live = await collectSnapshot(await clusterFor('gone', `http://127.0.0.1:${port}`), { now: NOW });
    expect(live.apiserver).toMatchObject({ reachable: false, checks: [] });
    expect(live.apiserver?.error).toContain(`cannot reach API server http://127.0.0.1:${port}`);
    expect(live.partial).toHaveLength(1);
    expect(live.partial[0]!.source).toBe('workload API server');
    expect(live.partial[0]!.error).toContain('not read: nodes, pods, events');
    expect(live.nodes).toEqual([]);
    expect(live.coverage?.['Node']).toEqual({
      state: 'failed',
      why: expect.stringMatching(/^workload API server: cannot reach API server/),
    });
  });

  it('still reads CAPI objects from the management cluster when the workload API server is down (seed S1)', async () => {
    const dir = path.join(FIXTURES, 'split');
    const workload = await start({ dir, cluster: 'workload', readyz: 'down' });
    const management = await start({ dir, cluster: 'management' });
    const live = await collectSnapshot(await clusterFor('split', workload, management), { now: NOW });
    expect(live.apiserver?.reachable).toBe(false);
    expect(live.capi.machines).toHaveLength(5);
    expect(live.events.every((e) => e.origin === 'management')).toBe(true);
    expect(live.partial.map((p) => p.source)).toEqual(['workload API server']);
  });

  it('gives up on a hung API server after the per-request timeout', async () => {
    const api = await start({ dir: path.join(FIXTURES, 'self-managed') });
    api.delayMs = 5000;
    const live = await collectSnapshot(await clusterFor('slow', api), { now: NOW, requestTimeoutMs: 200 });
    expect(live.apiserver).toMatchObject({ reachable: false });
    expect(live.apiserver?.error).toContain('did not answer within 200 ms');
  });
});

/** Every scenario of examples/scenarios read both ways (scenarios are added by another part of the project). */
const scenarioDumps = listDirs(SCENARIOS).flatMap(dumpDirsOf);

describe('examples/scenarios read live through the fake API server and from the dump agree', () => {
  for (const dir of scenarioDumps) {
    it(path.relative(SCENARIOS, dir), async () => {
      const split = isDir(path.join(dir, 'workload')) || isDir(path.join(dir, 'management'));
      // readyz forced healthy: this compares the data paths; a dead API server is covered above.
      const workload = await start({ dir, cluster: 'workload', readyz: 'healthy' });
      const management = split ? await start({ dir, cluster: 'management', readyz: 'healthy' }) : undefined;
      const live = await collectSnapshot(await clusterFor('scenario', workload, management), { pageSize: 2, now: NOW });
      const dump = await loadDump(dir, { cluster: 'scenario' });
      const { partial: livePartial, ...liveRest } = comparable(live);
      const { partial: dumpPartial, ...dumpRest } = comparable(dump);
      expect(stripResourceVersions(liveRest)).toEqual(stripResourceVersions(dumpRest));
      expect(livePartial).toEqual([]);
      expect(dumpPartial.filter((p) => p.source.startsWith('list '))).toEqual([]);
      if (dump.apiserver) {
        // Served as the dump recorded it (seed S1: a dead API server refuses connections).
        const asRecorded = await start({ dir, cluster: 'workload' });
        const probed = await collectSnapshot(await clusterFor('scenario', asRecorded), { now: NOW });
        expect({ reachable: probed.apiserver?.reachable, ready: probed.apiserver?.ready }).toEqual({
          reachable: dump.apiserver.reachable,
          ready: dump.apiserver.ready,
        });
      }
    });
  }
});

/** A scenario is one dump, or (replays) a folder of dumps t00/, t12/, ... played in order. */
function dumpDirsOf(dir: string): string[] {
  const isDump = ['meta.json', 'workload', 'management'].some((e) => exists(path.join(dir, e)));
  return isDump
    ? [dir]
    : listDirs(dir).filter((d) => ['meta.json', 'workload', 'management'].some((e) => exists(path.join(d, e))));
}

function listDirs(dir: string): string[] {
  return exists(dir)
    ? readdirSync(dir)
        .sort()
        .map((d) => path.join(dir, d))
        .filter(isDir)
    : [];
}

function isDir(p: string): boolean {
  return exists(p) && statSync(p).isDirectory();
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Dumps written by hand may lack resourceVersion; the fake numbers such objects. */
function stripResourceVersions<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (k, v) => (k === 'resourceVersion' ? undefined : v)) as T;
}
