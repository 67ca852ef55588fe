import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  discoverFleetsOnce,
  startFleetDiscovery,
  type FleetDiscoveryState,
} from '../../../src/cluster/fleet/start-fleet-discovery.js';
import { fleetSchema } from '../../../src/config/config-schema.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { eventually } from '../../support/eventually.js';
import { capiCluster, kubeconfigSecret } from '../../support/fleet-objects.js';

const fleet = (over: Record<string, unknown> = {}, kubeconfig = '') =>
  fleetSchema.parse({ name: 'lab', management: { kubeconfig }, ...over });

describe('fleet discovery against a fake management cluster', () => {
  let mgmt: FakeKubeApi;
  let kubeconfig: string;

  beforeAll(async () => {
    mgmt = await startFakeKubeApi({
      accessKinds: true,
      objects: [
        capiCluster('team-a', 'web', {
          labels: { env: 'prod' },
          annotations: { 'k8s-health.io/alert-channel': 'C0TEAMA', 'k8s-health.io/channels': 'C0TEAMA, C0OPS' },
        }),
        capiCluster('team-a', 'db', {
          labels: { env: 'dev' },
          annotations: { 'k8s-health.io/alert-channel': '#not-an-id' },
        }),
        capiCluster('team-b', 'web', { labels: { env: 'prod' }, version: 'v1beta1' }),
        kubeconfigSecret('team-a', 'db-k8s-health-kubeconfig', 'apiVersion: v1\nkind: Config\n', {
          'k8s-health.io/kubeconfig': 'true',
        }),
        // Cluster API's admin secret: never read with the default credentials mode.
        kubeconfigSecret('team-a', 'web-kubeconfig', 'admin', { 'cluster.x-k8s.io/cluster-name': 'web' }),
      ],
    });
    kubeconfig = await writeTestKubeConfig(mgmt.url, 'mgmt');
  });
  afterAll(async () => {
    await mgmt.close();
  });

  it('finds every Cluster of every namespace, names colliding ones namespace/name, reads only enrolled Secrets', async () => {
    const s = await discoverFleetsOnce([fleet({ slack: { alertChannel: 'C0FLEET' } }, kubeconfig)], {
      configuredNames: new Set(),
    });
    expect(s.errors).toEqual([]);
    expect(s.clusters.map((c) => [c.name, c.namespace, c.clusterName, c.enrolled])).toEqual([
      ['db', 'team-a', 'db', true],
      ['team-a/web', 'team-a', 'web', false],
      ['team-b/web', 'team-b', 'web', false],
    ]);
    const web = s.configs.find((c) => c.name === 'team-a/web')!;
    expect(web.slack).toEqual({ alertChannel: 'C0TEAMA', channels: ['C0TEAMA', 'C0OPS'] });
    expect(web.workload).toBeUndefined();
    expect(web.management).toEqual({ kubeconfig, namespace: 'team-a' });
    const db = s.configs.find((c) => c.name === 'db')!;
    expect(db.workload).toEqual({ kubeconfigData: 'apiVersion: v1\nkind: Config\n' });
    expect(db.slack.alertChannel).toBe('C0FLEET');
    expect(s.clusters.find((c) => c.name === 'db')!.warnings).toEqual([
      'k8s-health.io/alert-channel: must be a Slack channel id such as C0ALERTS; ignored',
    ]);
  });

  it('applies the namespaces and selector filters, and a configured name pushes a discovered one to namespace/name', async () => {
    const s = await discoverFleetsOnce(
      [fleet({ namespaces: ['team-a'], selector: 'env in (prod,staging)' }, kubeconfig)],
      { configuredNames: new Set(['web']) },
    );
    expect(s.clusters.map((c) => c.name)).toEqual(['team-a/web']);
    const t = await discoverFleetsOnce([fleet({ selector: 'env=prod' }, kubeconfig)], { configuredNames: new Set() });
    expect(t.clusters.map((c) => c.name)).toEqual(['team-a/web', 'team-b/web']);
  });

  it('reads CAPI admin Secrets only with credentials: capi-admin-secret', async () => {
    const s = await discoverFleetsOnce(
      [fleet({ credentials: 'capi-admin-secret', namespaces: ['team-a'] }, kubeconfig)],
      { configuredNames: new Set() },
    );
    expect(s.clusters.map((c) => [c.name, c.enrolled, c.credentials])).toEqual([
      ['db', false, 'capi-admin-secret'],
      ['web', true, 'capi-admin-secret'],
    ]);
    expect(s.configs.find((c) => c.name === 'web')!.workload).toEqual({ kubeconfigData: 'admin' });
  });

  it('sees a Cluster appear and leave through its watch, and a collision resolve when one leaves', async () => {
    const seen: FleetDiscoveryState[] = [];
    const d = startFleetDiscovery([fleet({}, kubeconfig)], {
      configuredNames: new Set(),
      onChange: (s) => seen.push(s),
      minBackoffMs: 50,
    });
    await d.ready;
    const names = () => d.state().clusters.map((c) => c.name);
    expect(names()).toEqual(['db', 'team-a/web', 'team-b/web']);
    mgmt.emit('ADDED', capiCluster('team-c', 'cache'));
    expect(
      await eventually(
        async () => names(),
        (n) => n.includes('cache'),
      ),
    ).toEqual(['cache', 'db', 'team-a/web', 'team-b/web']);
    mgmt.emit('DELETED', capiCluster('team-b', 'web', { version: 'v1beta1' }));
    expect(
      await eventually(
        async () => names(),
        (n) => n.length === 3,
      ),
    ).toEqual(['cache', 'db', 'web']);
    expect(seen.at(-1)!.settled).toEqual(['lab']);
    d.stop();
  });

  it('says why a management cluster cannot be read, and settles nothing for it', async () => {
    const down = await startFakeKubeApi({ readyz: 'down' });
    const file = await writeTestKubeConfig(down.url, 'down');
    const s = await discoverFleetsOnce([fleet({}, file)], { configuredNames: new Set(), timeoutMs: 1000 });
    await down.close();
    expect(s.clusters).toEqual([]);
    expect(s.settled).toEqual([]);
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatch(/^fleet lab: cannot reach API server/);
    const noKubeconfig = await discoverFleetsOnce([fleet({}, '/nonexistent/kubeconfig')], {
      configuredNames: new Set(),
    });
    expect(noKubeconfig.settled).toEqual([]);
    expect(noKubeconfig.errors).toEqual([
      expect.stringMatching(/^fleet lab: cannot load kubeconfig \/nonexistent\/kubeconfig/),
    ]);
  });
});
