import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readDumpObjects } from '../src/cluster/dump/read-dump-objects.js';
import type { KubeObject } from '../src/cluster/snapshot.js';
import { writeTestKubeConfig } from '../test/support/fake-kube-api/create-test-kube-config.js';
import { startFakeKubeApi } from '../test/support/fake-kube-api/start-fake-kube-api.js';
import { summarize } from './bench-stats.js';
import { startFleetBench } from './start-fleet-bench.js';

/**
 * Bench child (fleet incidents): for each size in SIZES, that many live clusters (each its own fake
 * API server serving the same small healthy dump) whose Cluster API objects all live in ONE namespace
 * of one fake management cluster, two `k8s-health worker` processes in fleet mode, one real Redis (or a
 * Redis Cluster when REDIS is `cluster`), the fake Slack Web API (set-up: bench/start-fleet-bench.ts),
 * every cluster alerting into ONE channel. Then the same fault hits every cluster
 * within SPREAD_S seconds (its first node goes NotReady at its API server, in a shuffled order). Measures:
 * - per cluster, from its event to the first Slack message naming it (a parent, a reply, or the fleet
 *   parent's edit): p99 over the clusters;
 * - threads (parents posted in the channel) against the distinct root causes of the stored reports;
 * - scoping: no stored report quotes a Machine of another cluster (every cluster's node has the same
 *   name, and its Machine sits next to the others' in the shared namespace).
 * argv: ROOT_OF_REPO SIZES(comma-separated) SPREAD_S CORRELATE_S (scan.correlateSeconds; 0 = the reference without
 * fleet incidents) [REDIS: single|cluster].
 */
const [root, sizesArg, spreadArg, correlateArg, redisArg] = process.argv.slice(2) as [
  string,
  string?,
  string?,
  string?,
  string?,
];
const CORRELATE_S = Number(correlateArg ?? 60);
const SIZES = (sizesArg ?? '10,100').split(',').map(Number);
const SPREAD_MS = Number(spreadArg ?? 10) * 1000;
const DUMP = path.join(root, 'examples/scenarios/benign-healthy');
const CHANNEL = 'C0FLEET';
const NAMESPACE = 'fleet';
const bench = await startFleetBench({ root, tag: 'fleet-incident', redisCluster: redisArg === 'cluster' });
const { log, sleep, redis, slack, dir } = bench;

const total = SIZES.reduce((a, b) => a + b, 0);
// Workload API servers: one for every cluster of every size (each phase uses fresh ones).
const apis = await bench.startApiServers(total);
const urls = apis.urls;
const names = urls.map((_, i) => `f${String(i).padStart(4, '0')}`);
const nodeNames = (await readDumpObjects(DUMP)).workload.filter((o) => o.kind === 'Node').map((o) => o.metadata.name);

// The management side: every cluster's Cluster and Machines (no MachineHealthCheck) in one namespace; the nodes of
// every cluster have the same names.
const management = await startFakeKubeApi({
  objects: names.flatMap((c): KubeObject[] => [
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: c, namespace: NAMESPACE, uid: `uid-${c}` },
      spec: {},
      status: { phase: 'Provisioned' },
    },
    ...nodeNames.map((node, k) => ({
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Machine',
      metadata: {
        name: `${c}-m${k}`,
        namespace: NAMESPACE,
        uid: `uid-${c}-m${k}`,
        labels: { 'cluster.x-k8s.io/cluster-name': c },
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: { clusterName: c, version: 'v1.29.4' },
      status: { phase: 'Running', nodeRef: { kind: 'Node', name: node } },
    })),
  ]),
});
log(
  `${urls.length} workload API servers and one management API server (${names.length} Clusters in namespace ${NAMESPACE}) up`,
);

const mgmtKc = await writeTestKubeConfig(management.url, 'management');
const kubeconfigs = await Promise.all(urls.map((u, i) => writeTestKubeConfig(u, names[i])));

/** A deterministic shuffle (the same order every run). */
function shuffled<T>(xs: T[]): T[] {
  const out = [...xs];
  let seed = 23;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const results: Record<string, unknown>[] = [];
let offset = 0;
try {
  for (const size of SIZES) {
    const idx = Array.from({ length: size }, (_, k) => offset + k);
    offset += size;
    await bench.flushAll();
    const seenCalls = slack.calls.length;
    const config = path.join(dir, `config-${size}.yaml`);
    const clusters = idx
      .map(
        (i) =>
          `  - name: ${names[i]}\n    workload: { kubeconfig: ${JSON.stringify(kubeconfigs[i])} }\n    management: { kubeconfig: ${JSON.stringify(mgmtKc)}, namespace: ${NAMESPACE}, clusterName: ${names[i]} }\n    slack: { alertChannel: ${CHANNEL} }\n`,
      )
      .join('');
    await writeFile(
      config,
      `clusters:\n${clusters}scan: { intervalSeconds: 60, debounceSeconds: 2, correlateSeconds: ${CORRELATE_S} }\nthresholds: { notReadyGraceSeconds: 0 }\n`,
    );
    const workers = [
      await bench.spawnWorker(config, { logLevel: 'warn' }),
      await bench.spawnWorker(config, { logLevel: 'warn' }),
    ];
    // Settled: every cluster scanned once (a stored report), healthy, nothing posted.
    const deadline = Date.now() + 10 * 60_000;
    while ((await bench.keys('*report:f*')).length < size && Date.now() < deadline) await sleep(500);
    await sleep(3000);
    log(`${size} clusters: every one scanned once; failing them within ${SPREAD_MS / 1000} s`);

    // The fault: each cluster's node goes NotReady at a spread-out moment.
    const at = new Map<string, number>();
    const order = shuffled(idx);
    const start = Date.now();
    const emits = order.map(async (i, k) => {
      await sleep(Math.max(0, start + (k * SPREAD_MS) / size - Date.now()));
      const r = await apis.emit(i);
      at.set(names[i]!, r.at);
    });
    // First Slack message naming each cluster (posts and parent edits in the channel), polled every 5 ms.
    const firstSeen = new Map<string, number>();
    let scanned = seenCalls;
    const watchDeadline = Date.now() + SPREAD_MS + 120_000;
    while (firstSeen.size < size && Date.now() < watchDeadline) {
      const calls = slack.calls;
      for (; scanned < calls.length; scanned++) {
        const c = calls[scanned]!;
        if ((c.method !== 'chat.postMessage' && c.method !== 'chat.update') || c.body.channel !== CHANNEL) continue;
        const text = `${c.body.text ?? ''} ${JSON.stringify(c.body.blocks ?? [])}`;
        for (const i of idx) {
          const n = names[i]!;
          if (!firstSeen.has(n) && new RegExp(`\\b${n}\\b`).test(text)) firstSeen.set(n, Date.now());
        }
      }
      await sleep(5);
    }
    await Promise.all(emits);
    const latencies = [...firstSeen.entries()].map(([n, t]) => t - at.get(n)!);
    const missed = size - firstSeen.size;
    await sleep(3000);
    const posts = slack.calls
      .slice(seenCalls)
      .filter((c) => c.method === 'chat.postMessage' && c.body.channel === CHANNEL);
    const threads = posts.filter((c) => !c.body.thread_ts).length;

    // Root causes and scoping, from the stored reports.
    const roots = new Set<string>();
    let foreign = 0;
    let ownMachineQuoted = 0;
    for (const i of idx) {
      const raw = await redis.get(`k8s-health:report:${names[i]}`);
      const report = raw
        ? (
            JSON.parse(raw) as {
              report: {
                cluster: string;
                findings: {
                  id: string;
                  severity: string;
                  causedBy?: string[];
                  correlationKey?: string;
                  fingerprint: string;
                  evidence: string[];
                }[];
              };
            }
          ).report
        : undefined;
      if (!report) continue;
      for (const f of report.findings) {
        if (f.severity !== 'info' && !f.causedBy?.length)
          roots.add(f.correlationKey ? `${f.id} ${f.correlationKey}` : `${report.cluster} ${f.fingerprint}`);
        for (const e of f.evidence) {
          for (const m of e.matchAll(/Machine fleet\/(f\d{4})-m\d+/g)) {
            if (m[1] === report.cluster) ownMachineQuoted += 1;
            else foreign += 1;
          }
        }
      }
    }
    const r = {
      clusters: size,
      redis: redisArg === 'cluster' ? 'cluster' : 'single',
      spreadSeconds: SPREAD_MS / 1000,
      correlateSeconds: CORRELATE_S,
      firstAlertMs: { ...summarize(latencies), max: Math.max(...latencies), missed },
      threads,
      rootCauses: roots.size,
      posts: posts.length,
      foreignObjectsInReports: foreign,
      ownMachineQuoted,
    };
    log(`${size} clusters: ${JSON.stringify(r)}`);
    results.push(r);
    for (const w of workers) await bench.kill9(w);
  }
} finally {
  await management.close();
  await bench.close();
}
process.send!({ sizes: results }, () => process.exit(0));
