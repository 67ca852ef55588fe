import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTestKubeConfig } from '../test/support/fake-kube-api/create-test-kube-config.js';
import { summarize } from './bench-stats.js';
import { startFleetBench, type BenchWorker, type ClusterStats } from './start-fleet-bench.js';

/**
 * Bench child (fleet target): CLUSTERS small live clusters behind fake API servers (two
 * serve-fleet children), two `k8s-health worker` processes in fleet mode on one real Redis (or a Redis
 * Cluster when REDIS is `cluster`), the fake Slack Web API (set-up: bench/start-fleet-bench.ts). Measures, in one run:
 * - RSS per watched cluster at SMALL (100) and CLUSTERS clusters (workers' VmRSS minus an idle worker's);
 * - API requests per cluster per minute at steady state (STEADY_S seconds, no churn);
 * - event → alert: a node goes NotReady at the fake API → the parent message reaches the fake Slack
 *   (SAMPLES clusters, one at a time; scan.intervalSeconds is 60 s and is not what finds them);
 * - churn for CHURN_MIN minutes: kill -9 a worker, time until its clusters are all owned by the
 *   survivor (failover), start a new worker, wait until every cluster is watched again; LIST requests
 *   per (owner change × kind) and duplicate watchers sampled after each cycle.
 * argv: ROOT_OF_REPO CLUSTERS CHURN_MIN SAMPLES LEASE_S STEADY_S SMALL [REDIS: single|cluster].
 */
const [, clustersArg, churnArg, samplesArg, leaseArg, steadyArg, smallArg, redisArg] = process.argv.slice(2);
const CLUSTERS = Number(clustersArg ?? 1000);
const CHURN_MS = Number(churnArg ?? 3) * 60_000;
const SAMPLES = Number(samplesArg ?? 30);
const LEASE_S = Number(leaseArg ?? 15);
const STEADY_MS = Number(steadyArg ?? 60) * 1000;
const SMALL = Number(smallArg ?? 100);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bench = await startFleetBench({ root, tag: 'fleet', redisCluster: redisArg === 'cluster' });
const { log, sleep, redis, slack, dir } = bench;

// --- fake API servers (serve-fleet children of ≤ 500 clusters each) ---
const apis = await bench.startApiServers(CLUSTERS);
const urls = apis.urls;
log(`${urls.length} fake API servers up`);
const allStats = apis.stats;
const emit = apis.emit;

// --- config ---
const names = urls.map((_, i) => `f${String(i).padStart(4, '0')}`);
const channel = (i: number) => `C${String(i).padStart(5, '0')}`;
const kubeconfigs = await Promise.all(urls.map((u, i) => writeTestKubeConfig(u, names[i])));
async function writeConfig(n: number): Promise<string> {
  const file = path.join(dir, `config-${n}.yaml`);
  const clusters = names
    .slice(0, n)
    .map(
      (name, i) =>
        `  - name: ${name}\n    workload: { kubeconfig: ${JSON.stringify(kubeconfigs[i])} }\n    slack: { alertChannel: ${channel(i)} }\n`,
    )
    .join('');
  await writeFile(
    file,
    `clusters:${n ? `\n${clusters}` : ' []\n'}scan: { intervalSeconds: 60, leaseSeconds: ${LEASE_S}, debounceSeconds: 2 }\nthresholds: { notReadyGraceSeconds: 0 }\n`,
  );
  return file;
}

// --- workers ---
let acquisitions = 0;
type RunningWorker = BenchWorker;
// Every lease acquisition is logged ("lease: clusters acquired", with how many): the exact count of owner changes.
const spawnWorker = (config: string) =>
  bench.spawnWorker(config, {
    onLine: (line) => {
      const m = /"acquired":(\d+)/.exec(line);
      if (m && line.includes('lease: clusters acquired')) acquisitions += Number(m[1]);
    },
  });
const kill9 = bench.kill9;
const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
/** Lease owner (worker pid) of each of the first n clusters; 0 = free. */
async function owners(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 500) {
    const ids = await redis.mget(...names.slice(i, Math.min(n, i + 500)).map((c) => `{k8s-health:lease}:lease:${c}`));
    out.push(...ids.map((id) => (id ? Number(id.split('-').at(-2)) : 0)));
  }
  return out;
}
async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number, every = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(every);
  }
}
let kindsPerCluster = 0;
/** Every one of the first n clusters leased to a live worker and watched by exactly one process. */
async function settled(n: number, live: number[]): Promise<boolean> {
  const o = await owners(n);
  if (!o.every((p) => live.includes(p))) return false;
  const s = (await allStats()).slice(0, n);
  kindsPerCluster = Math.max(kindsPerCluster, ...s.map((x) => x.openUnique));
  return s.every((x) => x.open === kindsPerCluster && x.openUnique === kindsPerCluster);
}
const duplicateWatches = async (n: number) =>
  (await allStats()).slice(0, n).reduce((sum, x) => sum + (x.open - x.openUnique), 0);

const result: Record<string, unknown> = {
  clusters: CLUSTERS,
  redis: redisArg === 'cluster' ? 'cluster' : 'single',
  leaseSeconds: LEASE_S,
  churnMinutes: CHURN_MS / 60_000,
  samples: SAMPLES,
  steadySeconds: STEADY_MS / 1000,
};
try {
  // Idle worker: the resident set of a worker process that watches nothing.
  const idle = await spawnWorker(await writeConfig(0));
  await sleep(5000);
  const idleKb = rssKb(idle.pid);
  await kill9(idle);
  result.idleKb = idleKb;

  const rssPhase = async (n: number) => {
    await bench.flushAll();
    const config = await writeConfig(n);
    const ws = [await spawnWorker(config), await spawnWorker(config)];
    const t = performance.now();
    await until(
      `${n} clusters leased and watched once`,
      () =>
        settled(
          n,
          ws.map((w) => w.pid),
        ),
      15 * 60_000,
      1000,
    );
    const settleMs = performance.now() - t;
    await sleep(10_000); // let the first scans' garbage go
    const kb = ws.map((w) => rssKb(w.pid));
    const perClusterKb = (kb[0]! + kb[1]! - 2 * idleKb) / n;
    log(
      `${n} clusters: settled in ${(settleMs / 1000).toFixed(1)} s; workers RSS ${kb.map((k) => (k / 1024).toFixed(0)).join(' + ')} MB; ${perClusterKb.toFixed(0)} KB per cluster`,
    );
    return { ws, kb, perClusterKb, settleMs };
  };
  if (SMALL < CLUSTERS) {
    const small = await rssPhase(SMALL);
    result.small = { clusters: SMALL, kb: small.kb, perClusterKb: small.perClusterKb, settleMs: small.settleMs };
    for (const w of small.ws) await kill9(w);
    await sleep(1000);
  }
  const big = await rssPhase(CLUSTERS);
  result.big = {
    clusters: CLUSTERS,
    kb: big.kb,
    perClusterKb: big.perClusterKb,
    settleMs: big.settleMs,
    kindsPerCluster,
  };
  let live = big.ws;

  // Steady state: requests per cluster per minute, no churn.
  const before = await allStats();
  const t0 = performance.now();
  await sleep(STEADY_MS);
  const after = await allStats();
  const minutes = (performance.now() - t0) / 60_000;
  const sum = (xs: ClusterStats[], k: keyof ClusterStats) => xs.slice(0, CLUSTERS).reduce((s, x) => s + x[k], 0);
  result.steady = {
    requestsPerClusterMinute: (sum(after, 'requests') - sum(before, 'requests')) / CLUSTERS / minutes,
    listsPerClusterMinute: (sum(after, 'lists') - sum(before, 'lists')) / CLUSTERS / minutes,
    duplicateWatches: await duplicateWatches(CLUSTERS),
  };
  log(`steady: ${JSON.stringify(result.steady)}`);

  // Event → alert, one cluster at a time.
  const latencies: number[] = [];
  let missed = 0;
  for (let k = 0; k < SAMPLES; k++) {
    const i = Math.floor(((k + 0.5) * CLUSTERS) / SAMPLES);
    const { at } = await emit(i);
    const deadline = Date.now() + 60_000;
    let got = 0;
    while (!got && Date.now() < deadline) {
      if (slack.callsTo('chat.postMessage').some((c) => c.body.channel === channel(i) && !c.body.thread_ts))
        got = Date.now();
      else await sleep(5);
    }
    if (got) latencies.push(got - at);
    else missed += 1;
  }
  result.eventToAlert = { ...summarize(latencies), missed };
  log(`event → alert: ${JSON.stringify(result.eventToAlert)}`);

  // Churn: kill -9 a worker, wait for the failover, start a replacement, wait until settled.
  const failovers: number[] = [];
  const dupSamples: number[] = [];
  let ownerChanges = 0;
  let last = await owners(CLUSTERS);
  let polling = true;
  const poll = (async () => {
    while (polling) {
      const now = await owners(CLUSTERS);
      now.forEach((p, i) => {
        if (p !== 0 && p !== last[i]) {
          ownerChanges += 1;
          last[i] = p;
        }
      });
      await sleep(250);
    }
  })();
  const churnBefore = await allStats();
  const acquisitionsBefore = acquisitions;
  const churnStart = Date.now();
  let cycles = 0;
  while (Date.now() - churnStart < CHURN_MS) {
    const [victim, survivor] = live as [RunningWorker, RunningWorker];
    const cycleBefore = await allStats();
    const changesBefore = acquisitions;
    const theirs = (await owners(CLUSTERS)).map((p, i) => (p === victim.pid ? i : -1)).filter((i) => i >= 0);
    const killedAt = performance.now();
    await kill9(victim);
    await until(
      'failover',
      async () => {
        const o = await owners(CLUSTERS);
        return theirs.every((i) => o[i] === survivor.pid);
      },
      LEASE_S * 4000,
      50,
    );
    failovers.push(performance.now() - killedAt);
    const fresh = await spawnWorker(await writeConfig(CLUSTERS));
    live = [survivor, fresh];
    await until(
      'settled after the replacement joined',
      async () => {
        const o = await owners(CLUSTERS);
        return (
          o.filter((p) => p === fresh.pid).length >= Math.floor(CLUSTERS / 2) - 1 &&
          (await settled(
            CLUSTERS,
            live.map((w) => w.pid),
          ))
        );
      },
      15 * 60_000,
      1000,
    );
    dupSamples.push(await duplicateWatches(CLUSTERS));
    cycles += 1;
    const cycleAfter = await allStats();
    const listed = cycleAfter.slice(0, CLUSTERS).map((x, i) => x.lists - cycleBefore[i]!.lists);
    const histogram: Record<number, number> = {};
    for (const n of listed) histogram[n] = (histogram[n] ?? 0) + 1;
    log(
      `churn cycle ${cycles}: failover ${(failovers.at(-1)! / 1000).toFixed(1)} s; ${acquisitions - changesBefore} acquisitions (${ownerChanges} owner changes polled so far), ${listed.reduce((a, b) => a + b, 0)} LISTs this cycle; clusters by LISTs: ${JSON.stringify(histogram)}`,
    );
  }
  polling = false;
  await poll;
  const churnAfter = await allStats();
  const churnLists = sum(churnAfter, 'lists') - sum(churnBefore, 'lists');
  const acquired = acquisitions - acquisitionsBefore;
  result.churn = {
    cycles,
    minutes: (Date.now() - churnStart) / 60_000,
    ownerChanges: acquired,
    ownerChangesPolled: ownerChanges,
    lists: churnLists,
    listsPerOwnerChangePerKind: churnLists / Math.max(1, acquired * kindsPerCluster),
    failoverMs: summarize(failovers),
    duplicateWatchesMax: Math.max(0, ...dupSamples),
  };
  log(`churn: ${JSON.stringify(result.churn)}`);
  for (const w of live) await kill9(w);
} finally {
  await bench.close();
}
process.send!(result, () => process.exit(0));
