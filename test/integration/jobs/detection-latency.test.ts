import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { configSchema } from '../../../src/config/config-schema.js';
import { runScanJob } from '../../../src/jobs/workers/scan.js';
import { createAlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { RedisHistory } from '../../../src/store/redis-history.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { useRedis } from '../../support/use-redis.js';
import { createReplayCluster, randomPrefix, REPLAY_DIR, type ReplayCluster } from './replay-cluster.js';

/**
 * Detection latency on replay, in data time: each scan job reads the dump the symlink points at
 * (as a live scan every interval would), and we note the first scan whose alert state holds an
 * open incident for the finding.
 */
describe('detection latency (scan jobs on a time-evolving dump cluster)', () => {
  const db = useRedis();
  let replay: ReplayCluster;
  beforeAll(() => {
    replay = createReplayCluster();
  });
  afterAll(() => {
    replay.cleanup();
  });

  async function playUntilOpened(
    findingId: string,
    dumps: string[],
    thresholds: Record<string, number>,
  ): Promise<string | undefined> {
    const keyPrefix = `${randomPrefix()}:`;
    const config = configSchema.parse({
      clusters: [{ name: 'c', dump: replay.link, slack: { alertChannel: 'C0ALERTS' } }],
      thresholds,
    });
    const alerts = createAlertStateStore(db.redis, { keyPrefix });
    const deps = {
      config,
      history: new RedisHistory(db.redis, { keyPrefix }),
      reports: createReportStore(db.redis, { keyPrefix }),
      alerts,
    };
    for (const dump of dumps) {
      replay.show(dump);
      const report = await runScanJob({ cluster: 'c' }, deps);
      const { state } = await alerts.load('c');
      if (Object.values(state.incidents).some((i) => i.finding.id === findingId && i.status === 'open'))
        return report.collectedAt;
    }
    return undefined;
  }

  it('flags the S3 recreation loop (12-minute cycle) before the third recreation, with the default thresholds', async () => {
    // Recreations (a looping machine gone and a new one created) at 10:09, 10:21 and 10:33. Scans every
    // 6 minutes read the dump that is current at that time (t24's data holds until 10:33).
    const third = Date.parse('2025-02-17T10:33:00Z');
    const at6 = (t: string, hhmm: string) => replay.derive(path.join(REPLAY_DIR, t), `2025-02-17T${hhmm}:00Z`);
    const every6 = [
      at6('t00', '10:00'),
      at6('t00', '10:06'),
      at6('t12', '10:12'),
      at6('t12', '10:18'),
      at6('t24', '10:24'),
      at6('t24', '10:30'),
      at6('t36', '10:36'),
    ];
    // Default loopReplacements (3): two replacements done and the third machine already failing
    // (no Node 9 minutes after creation) count as three.
    const at = await playUntilOpened('capi.recreation-loop', every6, {});
    expect(at).toBe('2025-02-17T10:30:00Z');
    expect(Date.parse(at!)).toBeLessThan(third);
    // Only the four 12-minute-apart dumps: the 10:24 scan sees the new machine 3 minutes old (still
    // booting), so the default flags at 10:36; a lower threshold flags at 10:24 (docs/alerts.md).
    const scans = ['t00', 't12', 't24', 't36'].map((t) => path.join(REPLAY_DIR, t));
    expect(await playUntilOpened('capi.recreation-loop', scans, {})).toBe('2025-02-17T10:36:00Z');
    expect(await playUntilOpened('capi.recreation-loop', scans, { loopReplacements: 2 })).toBe('2025-02-17T10:24:00Z');
  });

  it('flags a machine stuck Provisioning within one scan interval after its threshold', async () => {
    // t00 holds Machine tkc-loop-control-plane-r5m2k, created 09:57, Provisioning, no Node.
    const created = Date.parse('2025-02-17T09:57:00Z');
    const intervalMs = 5 * 60_000;
    const dumps = Array.from({ length: 8 }, (_, k) =>
      replay.derive(
        path.join(REPLAY_DIR, 't00'),
        new Date(Date.parse('2025-02-17T10:00:00Z') + k * intervalMs).toISOString(),
      ),
    );
    const at = await playUntilOpened('capi.machine-stuck-provisioning', dumps, { provisioningMinutes: 20 });
    expect(at).toBeDefined();
    const threshold = created + 20 * 60_000;
    expect(Date.parse(at!)).toBeGreaterThanOrEqual(threshold);
    expect(Date.parse(at!) - threshold).toBeLessThanOrEqual(intervalMs);
  });
});
