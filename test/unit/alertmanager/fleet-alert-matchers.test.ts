import { describe, expect, it } from '@jest/globals';
import { mapAlertCluster } from '../../../src/alertmanager/map-alert-cluster.js';
import { nameDiscoveredClusters } from '../../../src/cluster/fleet/name-discovered-clusters.js';
import { toClusterConfig } from '../../../src/cluster/fleet/to-cluster-config.js';
import type { KubeObject } from '../../../src/cluster/snapshot.js';
import { fleetSchema } from '../../../src/config/config-schema.js';

/**
 * A fleet cluster's Prometheus alerts by its `k8s-health.io/alert-matchers` annotation; a bad one is a warning,
 * ignored.
 */
describe('k8s-health.io/alert-matchers on a fleet Cluster', () => {
  const fleet = fleetSchema.parse({ name: 'f', slack: { alertChannel: 'C0FLEET', oncall: 'S0ONCALL' } });
  const cluster = (name: string, annotations: Record<string, string>) =>
    ({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name, namespace: 'ns', annotations },
    }) as unknown as KubeObject;

  it('carries valid matchers into the cluster config, where they map alerts; the fleet on-call group too', () => {
    const [a, b] = nameDiscoveredClusters(
      [
        {
          fleet,
          clusters: [
            cluster('a', { 'k8s-health.io/alert-matchers': '{env="prod", team="a"}' }),
            cluster('b', { 'k8s-health.io/alert-matchers': '{env=="prod"}' }),
          ],
          secrets: [],
        },
      ],
      new Set(),
    );
    expect(a!.alertMatchers).toBe('{env="prod", team="a"}');
    expect(b!.alertMatchers).toBeUndefined();
    expect(b!.warnings).toEqual([
      expect.stringMatching(/^k8s-health\.io\/alert-matchers: ".*" is not a matcher .*; ignored$/),
    ]);
    const configs = [toClusterConfig(fleet, a!), toClusterConfig(fleet, b!)];
    expect(configs[0]!.alertmanager).toEqual({ matchers: ['{env="prod", team="a"}'] });
    expect(configs[0]!.slack.oncall).toBe('S0ONCALL');
    expect(mapAlertCluster({ env: 'prod', team: 'a', alertname: 'X' }, configs, 'cluster')?.cluster.name).toBe('a');
    expect(mapAlertCluster({ env: 'prod', team: 'b' }, configs, 'cluster')).toBeUndefined();
  });
});
