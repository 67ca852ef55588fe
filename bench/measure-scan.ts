import { diagnoseSnapshot } from '../src/diagnose/diagnose-snapshot.js';
import { InMemoryHistory } from '../src/store/in-memory-history.js';
import { summarize } from './bench-stats.js';
import { fetchFloor } from './fetch-floor.js';
import { scanSynthetic, syntheticConfig } from './scan-synthetic.js';

/**
 * Bench child (targets 2 and 7): alternate floor and live scan + analysis in this one process,
 * after one untimed warm-up of each, so both see the same machine load; then analysis alone.
 * argv: URL ITERATIONS. Sends { floorMs, scanMs, collectMs, analyzeMs, items, pods, findings } to the parent.
 */
const [url, iterationsArg] = process.argv.slice(2);
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
  await diagnoseSnapshot(last!.snapshot, { history: new InMemoryHistory(), thresholds: config.thresholds });
  analyzeMs.push(performance.now() - t);
}
process.send!({
  floorMs: summarize(floorMs), scanMs: summarize(scanMs), collectMs: summarize(collectMs), analyzeMs: summarize(analyzeMs),
  items, pods: last!.snapshot.pods.length, nodes: last!.snapshot.nodes.length, partial: last!.snapshot.partial, findings: last!.report.findings.length,
}, () => process.exit(0));
