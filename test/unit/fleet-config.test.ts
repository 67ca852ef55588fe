import { describe, expect, it } from '@jest/globals';
import { toClusterConfig } from '../../src/cluster/fleet/to-cluster-config.js';
import { createClusterSet, type ClusterSetChange } from '../../src/config/cluster-set.js';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/load-config.js';

const bad = (raw: unknown) => {
  try {
    parseConfig(raw, '/etc/k8s-health', 'cfg.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('fleets: config', () => {
  it('applies the defaults and resolves the management kubeconfig path', () => {
    const c = parseConfig(
      { fleets: [{ name: 'prod', management: { kubeconfig: 'mgmt.yaml', context: 'sup' } }] },
      '/etc/k8s-health',
    );
    expect(c.fleets).toEqual([
      {
        name: 'prod',
        management: { kubeconfig: '/etc/k8s-health/mgmt.yaml', context: 'sup' },
        namespaces: [],
        slack: { channels: [] },
        approvers: { users: [], groups: [] },
        remediation: { enabled: false },
        credentials: 'enrolled',
      },
    ]);
  });

  it('names every bad fleet key in one line', () => {
    const message = bad({
      fleets: [
        {
          name: 'Prod',
          namespaces: ['Team_A'],
          selector: 'env=(x',
          credentials: 'admin',
          slack: { alertChannel: '#ops' },
          extra: 1,
        },
      ],
    });
    expect(message.split('\n')).toHaveLength(1);
    for (const key of [
      'fleets[0].name',
      'fleets[0].namespaces[0]',
      'fleets[0].selector',
      'fleets[0].credentials',
      'fleets[0].slack.alertChannel',
    ])
      expect(message).toContain(key);
    expect(message).toMatch(/Unrecognized key.*extra|extra/);
  });

  it('refuses duplicate fleet names and a namespace listed twice', () => {
    expect(bad({ fleets: [{ name: 'a' }, { name: 'a' }] })).toBe('cfg.yaml: fleets[1].name: duplicate fleet name "a"');
    expect(bad({ fleets: [{ name: 'a', namespaces: ['x', 'x'] }] })).toBe(
      'cfg.yaml: fleets[0].namespaces: a namespace is listed twice',
    );
  });
});

describe('ClusterSet', () => {
  const config = parseConfig(
    { clusters: [{ name: 'lab', dump: './lab' }], fleets: [{ name: 'prod', slack: { alertChannel: 'C0FLEET' } }] },
    '/tmp',
  );
  const fleet = config.fleets[0]!;
  const d = (name: string, enrolled = false) =>
    toClusterConfig(fleet, {
      name,
      fleet: 'prod',
      namespace: 'ns',
      clusterName: name,
      enrolled,
      credentials: 'enrolled',
    });

  it('keeps config.clusters = configured then discovered, reports each change once, and lets configured names win', () => {
    const set = createClusterSet(config);
    const changes: ClusterSetChange[] = [];
    set.onChange((c) => changes.push(c));
    expect(set.setDiscovered([d('web'), d('db'), d('lab')])).toEqual({
      added: ['web', 'db'],
      removed: [],
      changed: [],
    });
    expect(config.clusters.map((c) => c.name)).toEqual(['lab', 'db', 'web']);
    expect(set.names()).toEqual(['lab', 'db', 'web']);
    expect(set.get('lab')!.dump).toBe('/tmp/lab');
    expect(set.setDiscovered([d('web'), d('db')])).toEqual({ added: [], removed: [], changed: [] });
    set.setDiscovered([d('web', true)]);
    expect(changes).toEqual([
      { added: ['web', 'db'], removed: [], changed: [] },
      { added: [], removed: ['db'], changed: ['web'] },
    ]);
    expect(set.get('web')!.fleet!.enrolled).toBe(true);
    expect(set.get('web')!.slack.alertChannel).toBe('C0FLEET');
  });
});
