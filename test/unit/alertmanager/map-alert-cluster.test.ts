import { describe, expect, it } from '@jest/globals';
import { mapAlertCluster } from '../../../src/alertmanager/map-alert-cluster.js';
import { configSchema, type ClusterConfig } from '../../../src/config/config-schema.js';
import { matchesAll, parseMatchers } from '../../../src/config/parse-alert-matchers.js';

const cluster = (name: string, extra: Partial<ClusterConfig> = {}): ClusterConfig => ({
  name,
  dump: '/d',
  slack: { channels: [] },
  approvers: { users: [], groups: [] },
  remediation: { enabled: false },
  ...extra,
});

describe('Alertmanager matchers and the cluster of an alert', () => {
  it('parses Alertmanager matcher syntax, with or without braces and quotes', () => {
    expect(
      parseMatchers('{env="prod", region=~"eu-.*", team!="x", zone!~"z[0-9]"}', 'm').map(
        (m) => `${m.name}${m.op}${m.value}`,
      ),
    ).toEqual(['env=prod', 'region=~eu-.*', 'team!=x', 'zone!~z[0-9]']);
    expect(parseMatchers('env=prod', 'm').map((m) => `${m.name}${m.op}${m.value}`)).toEqual(['env=prod']);
    expect(parseMatchers('{msg="a, \\"b\\""}', 'm')[0]!.value).toBe('a, "b"');
    const m = parseMatchers('{env="prod", region=~"eu-.*"}', 'm');
    expect(matchesAll(m, { env: 'prod', region: 'eu-west' })).toBe(true);
    expect(matchesAll(m, { env: 'prod', region: 'us-eu-west' })).toBe(false);
    expect(matchesAll(parseMatchers('team!="x"', 'm'), {})).toBe(true);
  });

  it('refuses a bad matcher at config load, naming it', () => {
    const res = configSchema.safeParse({
      clusters: [{ name: 'a', dump: '/d', alertmanager: { matchers: ['{env=="prod"}'] } }],
    });
    expect(res.success).toBe(false);
    expect(JSON.stringify(res.error!.issues)).toMatch(/is not a matcher/);
    expect(
      configSchema.safeParse({ clusters: [{ name: 'a', dump: '/d', alertmanager: { matchers: ['region=~"("'] } }] })
        .success,
    ).toBe(false);
  });

  it('defaults: 1 MiB bodies, 1000 alerts per request, the `cluster` label', () => {
    expect(configSchema.parse({}).alertmanager).toEqual({
      maxBodyBytes: 1048576,
      maxAlertsPerRequest: 1000,
      clusterLabel: 'cluster',
      routes: [],
    });
  });

  it('maps by the cluster label (name, fleet namespace/name), then by matchers, else none', () => {
    const fleet = cluster('ns-prod/tkc', {
      fleet: { fleet: 'f', namespace: 'ns-prod', clusterName: 'tkc', enrolled: true, credentials: 'enrolled' },
    });
    const byMatchers = cluster('edge', { alertmanager: { matchers: ['{env="edge", region=~"eu-.*"}'] } });
    const clusters = [cluster('prod'), fleet, byMatchers];
    expect(mapAlertCluster({ cluster: 'prod' }, clusters, 'cluster')).toEqual({ cluster: clusters[0], by: 'label' });
    expect(mapAlertCluster({ cluster: 'ns-prod/tkc' }, clusters, 'cluster')?.cluster.name).toBe('ns-prod/tkc');
    expect(mapAlertCluster({ cluster: 'tkc' }, clusters, 'cluster')?.cluster.name).toBe('ns-prod/tkc');
    expect(mapAlertCluster({ k8s_cluster: 'prod' }, clusters, 'k8s_cluster')?.cluster.name).toBe('prod');
    expect(mapAlertCluster({ env: 'edge', region: 'eu-1' }, clusters, 'cluster')).toEqual({
      cluster: byMatchers,
      by: 'matchers',
    });
    expect(mapAlertCluster({ env: 'edge', region: 'us-1' }, clusters, 'cluster')).toBeUndefined();
    expect(mapAlertCluster({ cluster: 'other' }, clusters, 'cluster')).toBeUndefined();
  });
});
