import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { Redis } from 'ioredis';
import { configSchema } from '../../../src/config/config-schema.js';
import { runScanJob, type ScanJobDeps } from '../../../src/jobs/workers/scan.js';
import { createAlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { RedisHistory } from '../../../src/store/redis-history.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { startRedis, type RedisServer } from '../../support/start-redis.js';
import { createReplayCluster, randomPrefix, type ReplayCluster } from './replay-cluster.js';

const CASE = path.resolve('test/fixtures/real/capd-quickstart-cni-missing-remediation-churn-stopped');

/**
 * Defect class 12: a recreation loop that has stopped must not survive a restart of the bot
 * as an open thread. The real CAPD quickstart churn (control-plane machines recreated while no CNI was
 * installed) is scanned by one "process" with the Redis history and alert state; the bot restarts
 * (new connections, new stores: a new process reading Redis); the next scans see the loop stopped.
 */
describe('a stopped recreation loop across a restart of the bot', () => {
  let server: RedisServer;
  let replay: ReplayCluster;
  const conns: Redis[] = [];
  const keyPrefix = `${randomPrefix()}:`;

  beforeAll(async () => {
    server = await startRedis();
    replay = createReplayCluster();
  });
  afterAll(async () => {
    for (const c of conns) c.disconnect();
    await server?.stop();
    replay?.cleanup();
  });

  /** One bot process: its own Redis connection and stores over the shared Redis. */
  const startProcess = (): ScanJobDeps => {
    const conn = new Redis(server.url);
    conns.push(conn);
    const config = configSchema.parse({
      clusters: [{ name: 'capi-quickstart', dump: replay.link, slack: { alertChannel: 'C0ALERTS' } }],
      scan: { resolveAfterScans: 3 },
    });
    return {
      config,
      history: new RedisHistory(conn, { keyPrefix }),
      reports: createReportStore(conn, { keyPrefix }),
      alerts: createAlertStateStore(conn, { keyPrefix }),
    };
  };
  const loopIncident = async (deps: ScanJobDeps) =>
    Object.values((await deps.alerts.load('capi-quickstart')).state.incidents).find(
      (i) => i.finding.id === 'capi.recreation-loop',
    );

  it('opens one incident while the churn is recent, and resolves it after the restart once the loop has stopped', async () => {
    let bot = startProcess();
    for (const t of ['t0522', 't0527', 't0531']) {
      replay.show(path.join(CASE, t));
      await runScanJob({ cluster: 'capi-quickstart' }, bot);
    }
    const open = await loopIncident(bot);
    expect(open?.status).toBe('open');
    expect(open?.finding.severity).toBe('critical');

    // Restart: the old process is gone; a new one reads the same Redis.
    for (const c of conns.splice(0)) c.disconnect();
    bot = startProcess();
    replay.show(path.join(CASE, 't0605'));
    for (let scan = 1; scan <= 3; scan++) {
      const report = await runScanJob({ cluster: 'capi-quickstart' }, bot);
      // The stop is judged from the snapshot and the Redis history alone: gone from the first scan on.
      expect(report.findings.map((f) => f.id)).not.toContain('capi.recreation-loop');
      const inc = await loopIncident(bot);
      expect(inc?.key).toBe(open!.key); // the same thread, not a new one
      expect(inc?.status).toBe(scan < 3 ? 'open' : 'resolved');
    }
    const resolved = await loopIncident(bot);
    expect(resolved?.changes.at(-1)?.kinds).toEqual(['resolved']);
    // Nothing else is left open.
    const still = Object.values((await bot.alerts.load('capi-quickstart')).state.incidents).filter(
      (i) => i.status === 'open',
    );
    expect(still.map((i) => i.finding.id)).toEqual([]);
  });
});
