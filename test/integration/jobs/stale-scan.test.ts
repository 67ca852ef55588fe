import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { configSchema } from '../../../src/config/config-schema.js';
import { runScanJob } from '../../../src/jobs/workers/scan.js';
import { createAlertStateStore } from '../../../src/alerts/alert-state-store.js';
import { RedisHistory } from '../../../src/store/redis-history.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { useRedis } from '../../support/use-redis.js';
import { randomPrefix } from './replay-cluster.js';

/** A scan that finishes after a later one neither overwrites its report nor moves the alert threads. */
describe('a scan older than the stored report', () => {
  const db = useRedis();

  it('is not stored, leaves the alert state alone and answers with the newer report', async () => {
    const keyPrefix = `${randomPrefix()}:`;
    const dump = path.resolve('examples/scenarios/s3-recreation-loop-webhook-down');
    const config = configSchema.parse({ clusters: [{ name: 'c', dump, slack: { alertChannel: 'C0ALERTS' } }] });
    const reports = createReportStore(db.redis, { keyPrefix });
    const alerts = createAlertStateStore(db.redis, { keyPrefix });
    const newer = {
      cluster: 'c',
      generatedAt: '2099-01-01T00:00:00.000Z',
      collectedAt: '2099-01-01T00:00:00.000Z',
      status: 'healthy' as const,
      sections: [],
      findings: [],
      partial: [],
    };
    await reports.save(newer);
    const deps = { config, history: new RedisHistory(db.redis, { keyPrefix }), reports, alerts };

    const answered = await runScanJob({ cluster: 'c' }, deps);
    expect(answered.generatedAt).toBe(newer.generatedAt);
    expect((await reports.latest('c'))?.report.generatedAt).toBe(newer.generatedAt);
    expect(Object.keys((await alerts.load('c')).state.incidents)).toEqual([]);

    // Without the newer report the same scan opens its incidents: the guard above is what kept them shut.
    const fresh = {
      ...deps,
      reports: createReportStore(db.redis, { keyPrefix: `${keyPrefix}2:` }),
      alerts: createAlertStateStore(db.redis, { keyPrefix: `${keyPrefix}2:` }),
    };
    await runScanJob({ cluster: 'c' }, fresh);
    expect(Object.keys((await fresh.alerts.load('c')).state.incidents).length).toBeGreaterThan(0);
  });
});
