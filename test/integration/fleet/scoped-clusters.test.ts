import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectSnapshot } from '../../../src/cluster/live/collect-snapshot.js';
import { createWatchCaches } from '../../../src/cluster/live/create-watch-caches.js';
import type { KubeObject, Snapshot } from '../../../src/cluster/snapshot.js';
import type { ClusterConfig } from '../../../src/config/config-schema.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { runCliInProcess } from '../../support/run-cli-in-process.js';

/** The management side of three clusters in one namespace (the dump fixture of the same name). */
const FIXTURE = path.resolve('test/fixtures/dumps/three-clusters-one-namespace');
const items = (file: string): KubeObject[] => JSON.parse(readFileSync(path.join(FIXTURE, file), 'utf8')).items;
const MANAGEMENT = [...items('management/capi.json'), ...items('management/events.json')];
const NODES = items('workload/nodes.json');
const NOW = () => new Date('2026-03-01T12:00:00Z');

/** Every management-side name a snapshot holds: objects and the objects its management events are about. */
function managementNames(s: Snapshot): string[] {
  const objects = (Object.values(s.capi) as KubeObject[][]).flatMap((a) => a.map((o) => o.metadata.name));
  const events = s.events.filter((e) => e.origin === 'management').map((e) => e.involvedObject.name ?? '');
  return [...objects, ...events];
}
const only = (s: Snapshot, cluster: string) =>
  managementNames(s).every((n) => n === cluster || n.startsWith(`${cluster}-`));

describe('clusters sharing one Cluster API namespace: each cluster sees only its own management objects', () => {
  let mgmt: FakeKubeApi;
  let mgmtTwo: FakeKubeApi;
  let mk: string;
  let mkTwo: string;
  let devKc: string;
  let work: string;

  beforeAll(async () => {
    mgmt = await startFakeKubeApi({ accessKinds: true, objects: MANAGEMENT });
    const dev = await mgmt.addCluster('search-dev', { objects: NODES });
    // Two clusters only: search-qa's objects left out.
    mgmtTwo = await startFakeKubeApi({ objects: MANAGEMENT.filter((o) => !JSON.stringify(o).includes('search-qa')) });
    mk = await writeTestKubeConfig(mgmt.url, 'mgmt');
    mkTwo = await writeTestKubeConfig(mgmtTwo.url, 'mgmt-two');
    devKc = await writeTestKubeConfig(dev.url, 'search-dev');
    work = mkdtempSync(path.join(tmpdir(), 'scoped-clusters-'));
  });
  afterAll(async () => {
    await mgmtTwo.close();
    await mgmt.close();
  });

  const configured = (name: string, management: Record<string, string>): ClusterConfig =>
    ({
      name,
      workload: { kubeconfig: devKc },
      management: { kubeconfig: mk, namespace: 'search', ...management },
      slack: { channels: [] },
      approvers: { users: [], groups: [] },
      remediation: { enabled: false },
    }) as ClusterConfig;

  it('three clusters: management.clusterName picks one; its Machines (also those linked only by owner references), control plane, health checks and events, nothing of the others', async () => {
    const s = await collectSnapshot(configured('dev', { clusterName: 'search-dev' }), { now: NOW });
    expect(s.capi.clusters.map((c) => c.metadata.name)).toEqual(['search-dev']);
    expect(s.capi.machines.map((m) => m.metadata.name)).toEqual(['search-dev-cp-a', 'search-dev-md-0-x-1']);
    expect(s.capi.machineSets.map((m) => m.metadata.name)).toEqual(['search-dev-md-0-x']);
    expect(s.capi.kubeadmControlPlanes.map((m) => m.metadata.name)).toEqual(['search-dev-cp']);
    expect(s.capi.machineHealthChecks.map((m) => m.metadata.name)).toEqual(['search-dev-md-0-mhc']);
    expect(s.events.filter((e) => e.origin === 'management').map((e) => e.involvedObject.name)).toEqual([
      'search-dev-cp-a',
    ]);
    expect(only(s, 'search-dev')).toBe(true);
  });

  it("the bot name of a cluster names its Cluster when nothing is configured; an infrastructure machine's events follow its Machine", async () => {
    const s = await collectSnapshot(configured('search-qa', {}), { now: NOW });
    expect(only(s, 'search-qa')).toBe(true);
    expect(s.capi.machines.map((m) => m.metadata.name)).toEqual([
      'search-qa-cp-a',
      'search-qa-md-0-x-1',
      'search-qa-md-0-x-2',
    ]);
    expect(
      s.events.filter((e) => e.origin === 'management').map((e) => `${e.involvedObject.kind} ${e.involvedObject.name}`),
    ).toEqual(['VSphereMachine search-qa-md-0-x-2']);
  });

  it('several Clusters and none named: a config error listing them; a clusterName naming none: the same list', async () => {
    await expect(collectSnapshot(configured('dev', {}), { now: NOW })).rejects.toThrow(
      'cluster dev: the management side holds 3 Cluster API Clusters (search/search-dev, search/search-prod, search/search-qa) and none is named: set management.clusterName to the Cluster this cluster is (docs/fleet.md "Scoping")',
    );
    await expect(collectSnapshot(configured('dev', { clusterName: 'search-stage' }), { now: NOW })).rejects.toThrow(
      'cluster dev: management.clusterName "search-stage" names no Cluster on the management side; found: search/search-dev, search/search-prod, search/search-qa',
    );
  });

  it('two clusters: each configured cluster gets its own objects', async () => {
    for (const name of ['search-dev', 'search-prod']) {
      const c = configured('x', { clusterName: name, kubeconfig: mkTwo });
      const s = await collectSnapshot(c, { now: NOW });
      expect(s.capi.clusters.map((o) => o.metadata.name)).toEqual([name]);
      expect(only(s, name)).toBe(true);
    }
  });

  it('a scan from the watch cache is scoped like a listed one', async () => {
    const wc = createWatchCaches({ minBackoffMs: 50, maxBackoffMs: 500 });
    try {
      const c = configured('dev', { clusterName: 'search-dev' });
      await collectSnapshot(c, { now: NOW, watchCaches: wc });
      let cachedKinds = 0;
      const s = await collectSnapshot(c, {
        now: NOW,
        watchCaches: wc,
        onCollected: (i) => (cachedKinds = i.cachedKinds),
      });
      expect(cachedKinds).toBeGreaterThan(0);
      expect(s.capi.machines.map((m) => m.metadata.name)).toEqual(['search-dev-cp-a', 'search-dev-md-0-x-1']);
      expect(only(s, 'search-dev')).toBe(true);
    } finally {
      wc.close();
    }
  });

  it("a discovered cluster (check --cluster): its Cluster's objects only — the healthy one is not reported with its neighbour's etcd", async () => {
    const config = path.join(work, 'fleet.yaml');
    writeFileSync(
      config,
      [
        'fleets:',
        '  - name: lab',
        `    management: { kubeconfig: ${mkTwo} }`,
        '    slack: { alertChannel: C0FLEET }',
      ].join('\n'),
    );
    const env = { K8S_HEALTH_CONFIG: config, REDIS_URL: 'redis://127.0.0.1:1' };
    const dev = JSON.parse((await runCliInProcess(['check', '--cluster', 'search-dev', '-o', 'json'], env)).stdout);
    const prod = JSON.parse((await runCliInProcess(['check', '--cluster', 'search-prod', '-o', 'json'], env)).stdout);
    const ids = (r: { findings: { id: string; subject: { name: string } }[] }) =>
      r.findings.map((f) => `${f.id} ${f.subject.name}`);
    expect(ids(dev).filter((f) => f.includes('search-prod'))).toEqual([]);
    expect(ids(dev)).not.toContain('controlplane.etcd-unhealthy search-prod-cp');
    expect(dev.status).not.toBe('critical');
    expect(ids(prod)).toContain('controlplane.etcd-unhealthy search-prod-cp');
    expect(ids(prod).filter((f) => f.includes('search-dev'))).toEqual([]);
  });
});
