import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { configSchema } from '../../../src/config/config-schema.js';
import { startJobs } from '../../../src/compose/compose-jobs.js';
import { createReportStore } from '../../../src/store/report-store.js';
import { writeTestKubeConfig } from '../../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../../support/fake-kube-api/start-fake-kube-api.js';
import { useRedis } from '../../support/use-redis.js';
import { eventually } from '../../support/eventually.js';
import { randomPrefix } from './replay-cluster.js';

/**
 * Scheduled scans of a live cluster on BullMQ with `scan.watch` (the default): after the first scan
 * lists every kind, later scans make no list request (only /readyz), and a change the API server
 * streams reaches the stored report `/k8s-health` answers from. The same with `scan.watch: false`
 * lists on every scan.
 */
const HEALTHY = path.resolve('examples/scenarios/benign-healthy');

/** GETs of a collection that are not watches: list requests. */
const listCount = (api: FakeKubeApi) =>
  api.requests.filter(
    (r) =>
      r.method === 'GET' &&
      r.query.watch === undefined &&
      (r.query.limit !== undefined || r.query.continue !== undefined),
  ).length;

/** Wait for a state (eventually), then fail naming it when it never came. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const v = await eventually(read, ok, 30_000, 100);
  if (!ok(v)) throw new Error(`timed out waiting for ${what}`);
  return v;
}

describe('scheduled scans of a live cluster from the watch cache', () => {
  const db = useRedis();

  const configFor = async (api: FakeKubeApi, watch: boolean) =>
    configSchema.parse({
      clusters: [{ name: 'live', workload: { kubeconfig: await writeTestKubeConfig(api.url, 'live') } }],
      scan: { intervalSeconds: 1, watch },
      thresholds: { notReadyGraceSeconds: 0 },
    });

  it('lists once, then scans from the watches; a node going NotReady reaches the stored report', async () => {
    const api = await startFakeKubeApi({ dir: HEALTHY });
    const prefix = randomPrefix();
    const set = await startJobs({
      config: await configFor(api, true),
      redisUrl: db.server.url,
      prefix,
      scanConcurrency: 1,
    });
    const history = () => db.redis.llen(`${prefix}:history:live`);
    try {
      await until(history, (n) => n >= 1, 'the first scan');
      const afterFirst = listCount(api);
      expect(afterFirst).toBeGreaterThanOrEqual(14); // every served kind listed once
      const scansBefore = await history();
      await until(history, (n) => n >= scansBefore + 3, 'three more scans');
      expect(listCount(api)).toBe(afterFirst);
      expect(set.watchCaches?.list().map((c) => c.cluster)).toEqual(['live']);

      const reports = createReportStore(db.redis, { keyPrefix: `${prefix}:` });
      const before = await reports.latest('live');
      expect(before?.report.findings.filter((f) => f.id === 'node.not-ready')).toEqual([]);
      // a GET without limit: not a counted list
      const node = structuredClone(api.find('Node', (await firstNodeName(api))!)!);
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
      const after = await until(
        () => reports.latest('live'),
        (r) =>
          Boolean(r?.report.findings.some((f) => f.id === 'node.not-ready' && f.subject.name === node.metadata.name)),
        'node.not-ready in the stored report',
      );
      expect(after?.report.findings.find((f) => f.id === 'node.not-ready')?.evidence.join(' ')).toContain('Unknown');
      expect(listCount(api)).toBe(afterFirst); // still no list: the change came by the watch
    } finally {
      await set.close();
      await api.close();
    }
  });

  it('scan.watch: false lists every kind on every scan', async () => {
    const api = await startFakeKubeApi({ dir: HEALTHY });
    const prefix = randomPrefix();
    const set = await startJobs({
      config: await configFor(api, false),
      redisUrl: db.server.url,
      prefix,
      scanConcurrency: 1,
    });
    const history = () => db.redis.llen(`${prefix}:history:live`);
    try {
      await until(history, (n) => n >= 1, 'the first scan');
      const afterFirst = listCount(api);
      await until(history, (n) => n >= 3, 'two more scans');
      expect(listCount(api)).toBeGreaterThanOrEqual(afterFirst * 2);
      expect(set.watchCaches).toBeUndefined();
      expect(api.requests.some((r) => r.query.watch !== undefined)).toBe(false);
    } finally {
      await set.close();
      await api.close();
    }
  });
});

async function firstNodeName(api: FakeKubeApi): Promise<string | undefined> {
  const res = await fetch(`${api.url}/api/v1/nodes`);
  const list = (await res.json()) as { items: { metadata: { name: string } }[] };
  return list.items[0]?.metadata.name;
}
