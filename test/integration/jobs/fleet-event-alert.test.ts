import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startJobs } from '../../../src/compose/compose-jobs.js';
import { configSchema } from '../../../src/config/config-schema.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { startFakeSlackApi, type FakeSlackApi } from '../../support/fake-slack-api.js';
import { useRedis } from '../../support/use-redis.js';
import { randomPrefix } from './replay-cluster.js';

/**
 * Fleet mode's event-driven path in one process: the worker takes the cluster's lease,
 * lists and watches it, scans it once; with scan.intervalSeconds an hour away, a node going NotReady
 * at the fake API is seen by the watch, re-analysed after the debounce, and its alert reaches the
 * fake Slack. No BullMQ scheduler exists for the leased cluster.
 */
const HEALTHY = path.resolve('examples/scenarios/benign-healthy');

describe('fleet mode: a watch event alerts without the periodic scan', () => {
  const db = useRedis();
  let slack: FakeSlackApi;
  beforeAll(async () => {
    slack = await startFakeSlackApi();
  });
  afterAll(async () => {
    await slack?.close();
  });

  it("node NotReady at the API server → alert posted; the lease is this worker's and there is no scheduler", async () => {
    const api = await startFakeKubeApi({ dir: HEALTHY });
    const prefix = randomPrefix();
    const config = configSchema.parse({
      clusters: [
        {
          name: 'live',
          workload: { kubeconfig: await writeTestKubeConfig(api.url, 'live') },
          slack: { alertChannel: 'C0ALERTS' },
        },
      ],
      scan: { intervalSeconds: 3600, debounceSeconds: 1, leaseSeconds: 5 },
      thresholds: { notReadyGraceSeconds: 0 },
    });
    const set = await startJobs({
      config,
      redisUrl: db.server.url,
      prefix,
      slack: { token: 'xoxb-test-token', apiUrl: slack.apiUrl },
      channelIntervalMs: 100,
      leases: { id: 'worker-one' },
    });
    try {
      const scanned = async () => (await db.redis.llen(`${prefix}:history:live`)) >= 1;
      for (let i = 0; i < 300 && !(await scanned()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await db.redis.get(`{${prefix}:lease}:lease:live`)).toBe('worker-one');
      expect(set.fleet?.keeper.owned()).toEqual(['live']);
      expect((await set.scanQueue.getJobSchedulers(0, -1)).map((s) => s.key)).toEqual([]);
      expect(slack.callsTo('chat.postMessage')).toHaveLength(0);

      const node = structuredClone(api.list('Node')[0]!);
      const since = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      node.status = {
        ...(node.status as object),
        conditions: [
          {
            type: 'Ready',
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastTransitionTime: since,
            lastHeartbeatTime: since,
          },
        ],
      };
      api.emit('MODIFIED', node);
      const parent = await slack.waitFor(
        'the alert of the NotReady node',
        () => slack.callsTo('chat.postMessage').find((c) => c.body.channel === 'C0ALERTS' && !c.body.thread_ts),
        30_000,
      );
      expect(JSON.stringify(parent.body.blocks)).toContain(node.metadata.name);
      // the event's scan, not a tick an hour away
      expect(await db.redis.llen(`${prefix}:history:live`)).toBeGreaterThanOrEqual(2);
    } finally {
      await set.close();
      await api.close();
    }
    // Stopping released the lease for the other workers.
    expect(await db.redis.get(`{${prefix}:lease}:lease:live`)).toBeNull();
  });
});
