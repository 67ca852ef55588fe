import { describe, expect, it } from '@jest/globals';
import { createLeaseKeeper, type ClusterSource, type LeaseKeeper } from '../../../src/jobs/create-lease-keeper.js';
import { createClusterLeaseStore, type ClusterLeaseStore } from '../../../src/store/cluster-lease-store.js';
import { eventually } from '../../support/eventually.js';
import { useRedis } from '../../support/use-redis.js';
import { randomPrefix } from './replay-cluster.js';

/**
 * Cluster leases against a real redis-server: claim, renew, expiry, compare-and-set (a
 * stale owner can neither renew nor release), and the keepers of three workers sharing 30 clusters
 * fairly as workers join and leave.
 */
describe('cluster leases in Redis', () => {
  const db = useRedis();
  const storeOf = (prefix = randomPrefix()) => ({
    prefix,
    store: createClusterLeaseStore(db.redis, { keyPrefix: `${prefix}:` }),
  });

  it('claims a free lease, renews its own, and refuses one held by another', async () => {
    const { prefix, store } = storeOf();
    expect(await store.claim(['a', 'b'], 'w1', 10_000)).toEqual([true, true]);
    expect(await db.redis.get(`{${prefix}:lease}:lease:a`)).toBe('w1');
    expect(await store.claim(['a', 'c'], 'w2', 10_000)).toEqual([false, true]);
    expect(await store.owners(['a', 'b', 'c', 'd'])).toEqual(['w1', 'w1', 'w2', undefined]);
    await db.redis.pexpire(`{${prefix}:lease}:lease:a`, 500);
    expect(await store.renew(['a', 'c'], 'w1', 10_000)).toEqual([true, false]);
    expect(await db.redis.pttl(`{${prefix}:lease}:lease:a`)).toBeGreaterThan(5_000);
  });

  it('an expired lease is free for the next claimant, and the stale owner can neither renew nor release it', async () => {
    const { prefix, store } = storeOf();
    expect(await store.claim(['x'], 'old', 100)).toEqual([true]);
    const gone = await eventually(
      () => db.redis.exists(`{${prefix}:lease}:lease:x`),
      (n) => n === 0,
      5_000,
      20,
    );
    expect(gone).toBe(0);
    expect(await store.owners(['x'])).toEqual([undefined]);
    expect(await store.claim(['x'], 'new', 10_000)).toEqual([true]);
    expect(await store.renew(['x'], 'old', 10_000)).toEqual([false]);
    await store.release(['x'], 'old');
    expect(await store.owners(['x'])).toEqual(['new']);
    await store.release(['x'], 'new');
    expect(await store.owners(['x'])).toEqual([undefined]);
  });

  it('heartbeats list the live workers; a withdrawn or expired one drops out', async () => {
    const { store } = storeOf();
    await store.heartbeat('w1', 10_000);
    await store.heartbeat('w3', 100);
    expect(await store.heartbeat('w2', 10_000)).toEqual(['w1', 'w2', 'w3']);
    expect(await store.heartbeat('w1', 10_000, false)).toEqual(['w2', 'w3']);
    const live = await eventually(
      () => store.heartbeat('w2', 10_000),
      (ws) => !ws.includes('w3'),
      5_000,
      20,
    );
    expect(live).toEqual(['w2']);
  });

  it('a lease key written without a TTL (or with one longer than any lease) is taken over, never honoured forever', async () => {
    const { prefix, store } = storeOf();
    await db.redis.set(`{${prefix}:lease}:lease:a`, 'ghost'); // no TTL: would keep the cluster unscanned forever
    // a day: longer than any lease (MAX_LEASE_MS)
    await db.redis.set(`{${prefix}:lease}:lease:b`, 'ghost', 'PX', 86_400_000);
    await db.redis.set(`{${prefix}:lease}:lease:c`, 'w2', 'PX', 10_000); // a real lease of another worker
    expect(await store.claim(['a', 'b', 'c'], 'w1', 10_000)).toEqual([true, true, false]);
    expect(await store.owners(['a', 'b', 'c'])).toEqual(['w1', 'w1', 'w2']);
    for (const k of ['a', 'b']) {
      const ttl = await db.redis.pttl(`{${prefix}:lease}:lease:${k}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(10_000);
    }
  });

  it('a heartbeat scored beyond now + lease (a "worker" in the year 2100) is dropped, so it takes no share', async () => {
    const { prefix, store } = storeOf();
    await db.redis.zadd(`{${prefix}:lease}:lease-workers`, Date.UTC(2100, 0, 1), 'ghost');
    expect(await store.heartbeat('w1', 10_000)).toEqual(['w1']);
    expect(await db.redis.zscore(`{${prefix}:lease}:lease-workers`, 'ghost')).toBeNull();
  });

  describe('keepers', () => {
    const names = Array.from({ length: 30 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    const source: ClusterSource = { names: () => names, onChange: () => () => undefined };
    function keeper(store: ClusterLeaseStore, id: string, events: string[]): LeaseKeeper {
      return createLeaseKeeper({
        store,
        clusters: source,
        leaseMs: 5_000,
        id,
        onAcquire: (c) => events.push(`+${id}:${c}`),
        onLose: (c, why) => events.push(`-${id}:${c}:${why}`),
      });
    }
    /** Tick every keeper a few rounds (claims settle once each has seen the others' heartbeats). */
    const settle = async (ks: LeaseKeeper[]) => {
      for (let i = 0; i < 4; i++) for (const k of ks) await k.tick();
    };
    const exactlyOnce = async (store: ClusterLeaseStore, ks: LeaseKeeper[]) => {
      const owners = await store.owners(names);
      expect(owners.every((o) => o !== undefined)).toBe(true);
      for (const c of names) expect(ks.filter((k) => k.owns(c)).map((k) => k.id)).toEqual([owners[names.indexOf(c)]]);
    };

    it('three workers share 30 clusters 10/10/10, each owned once; a leaving worker hands its share to the others', async () => {
      const { store } = storeOf();
      const events: string[] = [];
      const a = keeper(store, 'wa', events);
      await a.tick();
      expect(a.owned()).toHaveLength(30); // alone: everything
      const b = keeper(store, 'wb', events);
      const c = keeper(store, 'wc', events);
      await settle([b, c, a]);
      expect([a, b, c].map((k) => k.owned().length)).toEqual([10, 10, 10]);
      await exactlyOnce(store, [a, b, c]);
      // Rebalancing released only what the newcomers took: no cluster was lost and re-acquired by a.
      expect(events.filter((e) => e.startsWith('-wa:')).every((e) => e.endsWith(':rebalanced'))).toBe(true);
      expect(events.filter((e) => e.startsWith('-wa:'))).toHaveLength(20);

      await c.stop();
      expect(c.owned()).toEqual([]);
      await settle([a, b]);
      expect([a, b].map((k) => k.owned().length)).toEqual([15, 15]);
      await exactlyOnce(store, [a, b]);
      await a.stop();
      await b.stop();
      expect(await store.owners(names)).toEqual(names.map(() => undefined));
    });

    it('a lease taken by another worker (after its expiry) is lost by the stale owner at its next renewal', async () => {
      const { prefix, store } = storeOf();
      const events: string[] = [];
      const a = keeper(store, 'wa', events);
      await a.tick();
      // As if wa had paused past its TTL: the lease expired and wz took it.
      await db.redis.del(`{${prefix}:lease}:lease:c07`);
      expect(await store.claim(['c07'], 'wz', 10_000)).toEqual([true]);
      await a.tick();
      expect(a.owns('c07')).toBe(false);
      expect(events).toContain('-wa:c07:lost');
      expect(await store.owners(['c07'])).toEqual(['wz']);
      await a.stop();
    });
  });
});
