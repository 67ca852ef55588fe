import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { collectEtcd } from '../../src/cluster/etcd/collect-etcd.js';
import type { Report } from '../../src/report/report.js';
import { createReportStore } from '../../src/store/report-store.js';
import { RedisHistory } from '../../src/store/redis-history.js';
import { startEtcdCluster, type EtcdTestCluster } from '../support/start-etcd-cluster.js';
import { startRedis, type RedisServer } from '../support/start-redis.js';
import { startTogether } from '../support/start-together.js';
import { recordFigure, scaled } from './figures.js';

/**
 * Faults of the stores the bot depends on: etcd members killed during probes, and Redis
 * killed with SIGKILL and restarted with AOF on. Probes report the gap by endpoint and never throw;
 * stored reports and history survive the Redis restart, and the same client resumes by itself.
 */
let etcd: EtcdTestCluster;
let redisServer: RedisServer;

beforeAll(async () => {
  [etcd, redisServer] = await startTogether<[EtcdTestCluster, RedisServer]>(
    [() => startEtcdCluster({ size: 3 }), () => startRedis({ appendonly: true })],
    (s) => ('stopAll' in s ? s.stopAll() : s.stop()),
  );
});
afterAll(async () => {
  await etcd?.stopAll();
  await redisServer?.stop();
});

const report = (cluster: string, i: number): Report => ({
  cluster,
  generatedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
  collectedAt: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
  status: 'healthy',
  sections: [],
  findings: [],
  partial: [],
});

describe('etcd members killed during probes', () => {
  it('one member down: named in partial; two down: no quorum, still no throw; restarted: all healthy again', async () => {
    const probe = () => collectEtcd({ endpoints: etcd.endpoints, timeoutMs: 1500 });
    const before = await probe();
    expect(before.partial).toEqual([]);

    await etcd.kill(2);
    const one = await probe();
    expect(one.partial.map((p) => p.source)).toContain(`etcd ${etcd.endpoints[2]}`);
    expect(one.etcd?.health.find((h) => h.endpoint === etcd.endpoints[2])?.health).toBe(false);

    await etcd.kill(1);
    const two = await probe();
    expect(two.partial.map((p) => p.source)).toEqual(
      expect.arrayContaining([`etcd ${etcd.endpoints[1]}`, `etcd ${etcd.endpoints[2]}`]),
    );
    // The survivor answers status but cannot serve a linearizable read: unhealthy, the cluster has no quorum.
    expect(two.etcd?.health.every((h) => !h.health)).toBe(true);

    await etcd.restart(1);
    await etcd.restart(2);
    let healed = await probe();
    for (let i = 0; i < 100 && (healed.partial.length || !healed.etcd?.health.every((h) => h.health)); i++) {
      await new Promise((r) => setTimeout(r, 200));
      healed = await probe();
    }
    expect(healed.partial).toEqual([]);
    recordFigure({ suite: 'store-faults', case: 'etcd members killed (1, then 2 of 3)', tried: 2, bad: 0 });
  });
});

describe('Redis killed (SIGKILL) and restarted with AOF', () => {
  const n = scaled(20);
  it(`${n} reports and history entries written before a kill -9 are all there after restart; the client resumes`, async () => {
    // maxRetriesPerRequest 1 as serve configures it: a command fails fast while Redis is down.
    const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    // fsync every write: the guarantee below is "nothing acknowledged is lost" (default everysec: ≤ 1 s).
    await redis.config('SET', 'appendfsync', 'always');
    const reports = createReportStore(redis, { keyPrefix: 'rel:' });
    const history = new RedisHistory(redis, { keyPrefix: 'rel:' });
    for (let i = 0; i < n; i++) {
      await reports.save(report(`c${i}`, i));
      await history.append(`c${i % 3}`, {
        at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
        findings: [],
        machines: [],
        rollouts: [],
      });
    }
    const historyBefore = await Promise.all([0, 1, 2].map((i) => history.load(`c${i}`)));

    await redisServer.kill(true);
    // While Redis is down: a clear error, not a hang and not a crash.
    await expect(reports.latest('c0')).rejects.toThrow();

    await redisServer.restart();
    let lost = 0;
    let latest: Awaited<ReturnType<typeof reports.latest>>;
    for (let i = 0; i < 100; i++) {
      try {
        latest = await reports.latest('c0');
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(latest!?.report.cluster).toBe('c0');
    for (let i = 0; i < n; i++)
      if ((await reports.latest(`c${i}`))?.report.generatedAt !== report(`c${i}`, i).generatedAt) lost += 1;
    const historyAfter = await Promise.all([0, 1, 2].map((i) => history.load(`c${i}`)));
    expect(historyAfter).toEqual(historyBefore);
    recordFigure({ suite: 'store-faults', case: 'Redis kill -9 + restart (AOF)', tried: n, bad: lost });
    expect(lost).toBe(0);
    // Resumed: new writes work on the same client.
    await reports.save(report('after', 99));
    expect((await reports.latest('after'))?.report.cluster).toBe('after');
    redis.disconnect();
  });
});
