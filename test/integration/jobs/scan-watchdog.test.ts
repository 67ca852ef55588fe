import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Registry } from 'prom-client';
import { configSchema } from '../../../src/config/config-schema.js';
import { startScanWatchdog } from '../../../src/jobs/start-scan-watchdog.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { silentLogger } from '../../../src/log/logger.js';
import { useRedis } from '../../support/use-redis.js';
import { randomPrefix } from './replay-cluster.js';

/**
 * Scans that stop silently (a lease parked by a Redis writer, every worker gone) must show: a
 * cluster unscanned for more than three scan intervals is listed, its scan age exported, and one
 * alert posted per episode — by any number of serve replicas together — in its configured channel.
 */
describe('scan watchdog', () => {
  const db = useRedis();
  const dump = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
  const config = configSchema.parse({
    clusters: [
      { name: 'east', dump, slack: { alertChannel: 'C0ALERTS' } },
      { name: 'west', dump, slack: { channels: ['C0WEST'] } },
    ],
    scan: { intervalSeconds: 60 },
  });
  const report = (cluster: string, at: Date) => ({
    cluster,
    generatedAt: at.toISOString(),
    collectedAt: at.toISOString(),
    status: 'healthy' as const,
    sections: [],
    findings: [],
    partial: [],
  });

  it('lists and alerts once the clusters unscanned beyond three intervals; a new scan ends the episode, the next gets its own alert', async () => {
    const keyPrefix = `${randomPrefix()}:`;
    let t = Date.UTC(2026, 0, 1, 12, 0, 0);
    const posts: [string, string][] = [];
    const registry = new Registry();
    const replicas = [0, 1].map((i) =>
      startScanWatchdog({
        config,
        redis: db.redis,
        keyPrefix,
        registry: i === 0 ? registry : undefined,
        log: silentLogger,
        now: () => t,
        post: async (channel, text) => void posts.push([channel, text]),
      }),
    );
    try {
      const reportsAt = (ms: number) => createReportStore(db.redis, { keyPrefix, now: () => new Date(ms) });
      await reportsAt(t).save(report('west', new Date(t)));
      t += 2 * 60_000;
      for (const r of replicas) await r.check();
      expect(replicas[0]!.unscanned()).toEqual([]);

      t += 2 * 60_000; // east never scanned for 4 min (counted from the start), west scanned 4 min ago
      for (const r of replicas) await r.check();
      for (const r of replicas) await r.check();
      expect(replicas[0]!.unscanned()).toEqual([
        { cluster: 'east', scanAgeSeconds: 240 },
        { cluster: 'west', scanAgeSeconds: 240 },
      ]);
      expect(posts.map(([c]) => c).sort()).toEqual(['C0ALERTS', 'C0WEST']);
      expect(posts.find(([c]) => c === 'C0ALERTS')![1]).toContain('*east* has not been scanned for 4 min');
      const metrics = await registry.metrics();
      expect(metrics).toContain('k8s_health_cluster_scan_age_seconds{cluster="east"} 240');

      await reportsAt(t).save(report('west', new Date(t)));
      await replicas[1]!.check();
      expect(replicas[1]!.unscanned().map((u) => u.cluster)).toEqual(['east']);
      t += 4 * 60_000; // west stops again: a new episode, one more alert; east's stays one
      for (const r of replicas) await r.check();
      expect(posts.map(([c]) => c).sort()).toEqual(['C0ALERTS', 'C0WEST', 'C0WEST']);
    } finally {
      for (const r of replicas) r.stop();
    }
  });
});
