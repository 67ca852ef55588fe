import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clusterSchema, DEFAULT_THRESHOLDS, type ClusterConfig } from '../../src/config/config-schema.js';
import { scanCluster } from '../../src/scan/scan-cluster.js';
import type { Report } from '../../src/report/report.js';
import { InMemoryHistory } from '../../src/store/in-memory-history.js';
import { writeTestKubeConfig } from '../support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi, type FakeKubeApi } from '../support/fake-kube-api/start-fake-kube-api.js';
import { recordFigure, scaled } from './figures.js';

/**
 * Faults of the Kubernetes API during a scan: 500s, 403 on some kinds, connection resets and
 * timeouts. Each scan must finish with a report whose `partial` names every gap (the kind that could
 * not be read), never throw, and the next scan after the fault clears must be complete again.
 */
const FIXTURE = path.resolve('test/fixtures/live/self-managed');
const PATHS = [
  '/api/v1/nodes',
  '/api/v1/pods',
  '/apis/cluster.x-k8s.io/v1beta1/machines',
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  '/api/v1/events',
];

let api: FakeKubeApi;
let cluster: ClusterConfig;
const history = new InMemoryHistory();

beforeAll(async () => {
  api = await startFakeKubeApi({ dir: FIXTURE });
  cluster = clusterSchema.parse({
    name: 'self-managed',
    workload: { kubeconfig: await writeTestKubeConfig(api.url, 'workload') },
  });
});
afterAll(async () => {
  await api?.close();
});

const scan = (timeoutMs = 5000): Promise<Report> =>
  scanCluster(cluster, { history, thresholds: DEFAULT_THRESHOLDS, collect: { requestTimeoutMs: timeoutMs } });
const gaps = (r: Report) => r.partial.map((p) => `${p.source}: ${p.error}`).join('\n');
/** "/apis/cluster.x-k8s.io/v1beta1/machines" → "machines" (what a partial entry must name). */
const plural = (p: string) => p.split('/').pop()!;

describe('scans under Kubernetes API faults', () => {
  it('a clean scan first: complete, no partial', async () => {
    const r = await scan();
    expect(r.partial).toEqual([]);
    expect(r.sections.length).toBeGreaterThan(3);
  });

  const rounds = scaled(3);
  for (const fault of [
    { name: '500 Internal Server Error', rule: { status: 500 } },
    { name: '403 Forbidden', rule: { status: 403 } },
    { name: 'connection reset', rule: { status: 0, reset: true } },
  ]) {
    it(`${rounds} scans × ${PATHS.length} kinds with ${fault.name}: every gap named, no crash, next scan complete`, async () => {
      let unnamed = 0;
      for (let i = 0; i < rounds; i++) {
        // Each faulty kind fails every request of this scan (client retries included), then heals.
        for (const p of PATHS) api.fail({ method: 'GET', path: p, times: 20, ...fault.rule });
        const r = await scan();
        for (const p of PATHS) if (!r.partial.some((e) => e.source.includes(plural(p)))) unnamed += 1;
        if (fault.name.startsWith('403')) expect(gaps(r)).toMatch(/forbidden/i);
        api.clearFaults();
        const healed = await scan();
        expect(gaps(healed)).toBe('');
      }
      recordFigure({ suite: 'scan-faults', case: fault.name, tried: rounds * PATHS.length, bad: unnamed });
      expect(unnamed).toBe(0);
    });
  }

  it('every request slower than the deadline: the scan ends with named timeouts, then resumes when the server is fast again', async () => {
    api.delayMs = 1500;
    const r = await scan(300);
    api.delayMs = 0;
    expect(r.partial.length).toBeGreaterThan(0);
    expect(gaps(r)).toMatch(/did not answer within 300 ms — not read: nodes, pods/);
    recordFigure({ suite: 'scan-faults', case: 'timeouts (every request)', tried: 1, bad: r.partial.length ? 0 : 1 });
    const healed = await scan();
    expect(gaps(healed)).toBe('');
  });
});
