import { describe, expect, it } from '@jest/globals';
import type { DiscoveredCluster } from '../../../src/cluster/fleet/discovered-cluster.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { startFleet } from '../../../src/compose/start-fleet.js';
import { createClusterDirectory, type DirectoryChange } from '../../../src/store/cluster-directory.js';
import { eventually } from '../../support/eventually.js';
import { useRedis } from '../../support/use-redis.js';

const entry = (name: string, fleet = 'prod', enrolled = false): DiscoveredCluster => ({
  name,
  fleet,
  namespace: 'ns',
  clusterName: name,
  enrolled,
  credentials: 'enrolled',
});

describe('the shared directory of discovered clusters (real Redis)', () => {
  const db = useRedis();

  it('syncs idempotently; only settled fleets are touched; a removal is reported to one caller only', async () => {
    const a = createClusterDirectory(db.redis, { keyPrefix: 'd1:' });
    const b = createClusterDirectory(db.redis, { keyPrefix: 'd1:' });
    expect(await a.sync(['prod', 'lab'], [entry('web'), entry('db'), entry('x', 'lab')])).toEqual({
      added: ['web', 'db', 'x'],
      removed: [],
      changed: [],
    });
    expect(await b.sync(['prod', 'lab'], [entry('web'), entry('db'), entry('x', 'lab')])).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
    // lab's management cluster is not read by this caller: its clusters stay.
    expect(await a.sync(['prod'], [entry('web', 'prod', true)])).toEqual({
      added: [],
      removed: ['db'],
      changed: ['web'],
    });
    expect(await b.sync(['prod'], [entry('web', 'prod', true)])).toEqual({ added: [], removed: [], changed: [] });
    expect((await a.list()).map((d) => [d.name, d.enrolled])).toEqual([
      ['web', true],
      ['x', false],
    ]);
    // A second Cluster named web appears: the first one goes on as ns/web — renamed, not removed.
    const nsWeb = { ...entry('ns/web', 'prod', true), clusterName: 'web' };
    const otherWeb = { ...entry('other/web'), namespace: 'other', clusterName: 'web' };
    expect(await a.sync(['prod'], [nsWeb, otherWeb])).toEqual({
      added: ['ns/web', 'other/web'],
      removed: [],
      changed: [],
      renamed: [{ from: 'web', to: 'ns/web' }],
    });
    expect(await b.sync(['prod'], [nsWeb, otherWeb])).toEqual({ added: [], removed: [], changed: [] });
    // other/web is deleted: web gets its plain name back (a rename again), other/web is removed.
    expect(await a.sync(['prod'], [entry('web', 'prod', true)])).toEqual({
      added: ['web'],
      removed: ['other/web'],
      changed: [],
      renamed: [{ from: 'ns/web', to: 'web' }],
    });
    // A corrupt entry is dropped from the view, not fatal.
    await db.redis.hset('d1:fleet:clusters', 'bad', '{not json');
    expect((await a.list()).map((d) => d.name)).toEqual(['web', 'x']);
  });

  it('publishes each change; a following process (serve --no-workers) sees clusters join and leave', async () => {
    const config = parseConfig({ fleets: [{ name: 'prod', slack: { alertChannel: 'C0FLEET' } }] }, '/tmp');
    const fleet = startFleet({ config, redisUrl: db.server.url, mode: 'follow', keyPrefix: 'd2:' });
    await fleet.ready;
    const seen: DirectoryChange[] = [];
    const directory = createClusterDirectory(db.redis, { keyPrefix: 'd2:' });
    const unsubscribe = await directory.subscribe((c) => seen.push(c));
    await directory.sync(['prod'], [entry('web'), entry('other', 'not-in-this-config')]);
    const names = () => Promise.resolve(config.clusters.map((c) => c.name));
    expect(await eventually(names, (n) => n.length > 0)).toEqual(['web']);
    const web = fleet.clusterSet.get('web')!;
    expect(web.slack.alertChannel).toBe('C0FLEET');
    expect(web.workload).toBeUndefined();
    expect(web.fleet).toEqual({
      fleet: 'prod',
      namespace: 'ns',
      clusterName: 'web',
      enrolled: false,
      credentials: 'enrolled',
    });
    await directory.sync(['prod'], []);
    expect(await eventually(names, (n) => n.length === 0)).toEqual([]);
    expect(
      await eventually(
        async () => seen.length,
        (n) => n === 2,
      ),
    ).toBe(2);
    expect(seen[1]).toEqual({ added: [], removed: ['web'], changed: [] });
    await unsubscribe();
    await fleet.stop();
  });
});
