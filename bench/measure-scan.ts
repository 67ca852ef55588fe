import { scanSnapshot } from '../src/scan/scan-snapshot.js';
import { createWatchCaches } from '../src/cluster/live/create-watch-caches.js';
import { InMemoryHistory } from '../src/store/in-memory-history.js';
import { summarize } from './bench-stats.js';
import { fetchFloor } from './fetch-floor.js';
import { scanSynthetic, syntheticConfig } from './scan-synthetic.js';

/**
 * Bench child (targets 2 and 7): alternate floor and live scan + analysis in this one process,
 * after one untimed warm-up of each, so both see the same machine load; then analysis alone.
 * Then target 8: the same scan with a warm watch cache (scan.watch), counting the API requests it makes.
 * argv: URL ITERATIONS CONTROL_URL. Sends { floorMs, scanMs, collectMs, analyzeMs, watch, items, pods, findings } to
 * the parent.
 */
const [url, iterationsArg, controlUrl] = process.argv.slice(2);
const iterations = Number(iterationsArg ?? 5);
const config = await syntheticConfig(url!);
const floorMs: number[] = [];
const scanMs: number[] = [];
const collectMs: number[] = [];
let items = 0;
let last: Awaited<ReturnType<typeof scanSynthetic>> | undefined;
for (let i = 0; i <= iterations; i++) {
  let t = performance.now();
  items = await fetchFloor(url!);
  if (i > 0) floorMs.push(performance.now() - t);
  last = undefined; // let the previous snapshot go before the next scan
  t = performance.now();
  last = await scanSynthetic(config);
  if (i > 0) {
    scanMs.push(performance.now() - t);
    collectMs.push(last.collectMs);
  }
}
const analyzeMs: number[] = [];
for (let i = 0; i < Math.max(3, iterations); i++) {
  const t = performance.now();
  await scanSnapshot(last!.snapshot, { history: new InMemoryHistory(), thresholds: config.thresholds });
  analyzeMs.push(performance.now() - t);
}
// Target 8: a warm watch cache. The first scan lists every kind and opens the watches (untimed);
// then each scan reads from the cache: /readyz only. Requests are counted at the fake server.
const requests = async () => ((await (await fetch(`${controlUrl}/requests`)).json()) as { requests: number }).requests;
const caches = createWatchCaches();
const t0 = performance.now();
await scanSynthetic(config, caches);
const warmMs = performance.now() - t0;
const cachedMs: number[] = [];
const before = await requests();
let cachedPods = 0;
for (let i = 0; i < iterations; i++) {
  const t = performance.now();
  const r = await scanSynthetic(config, caches);
  cachedMs.push(performance.now() - t);
  cachedPods = r.snapshot.pods.length;
}
const cachedRequests = (await requests()) - before;
caches.close();
process.send!(
  {
    floorMs: summarize(floorMs),
    scanMs: summarize(scanMs),
    collectMs: summarize(collectMs),
    analyzeMs: summarize(analyzeMs),
    watch: { warmMs, scanMs: summarize(cachedMs), requests: cachedRequests, scans: iterations, pods: cachedPods },
    items,
    pods: last!.snapshot.pods.length,
    nodes: last!.snapshot.nodes.length,
    partial: last!.snapshot.partial,
    findings: last!.report.findings.length,
  },
  () => process.exit(0),
);
