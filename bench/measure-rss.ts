import { createWatchCaches } from '../src/cluster/live/create-watch-caches.js';
import { fetchFloor } from './fetch-floor.js';
import { scanSynthetic, syntheticConfig } from './scan-synthetic.js';

/**
 * Bench child (target 5): one live scan + analysis (or, with `floor`, one floor fetch) in a fresh
 * process, then its peak resident set size (getrusage maxrss, KiB) — the bot's peak during a scan.
 * With `watch`: a watch cache warmed by one scan, then one scan from it — the resident cost of
 * keeping the cluster's projections (scan.watch). argv: URL scan|floor|watch.
 */
const [url, what] = process.argv.slice(2);
const baselineKb = process.resourceUsage().maxRSS;
let pods = 0;
if (what === 'floor') await fetchFloor(url!);
else if (what === 'watch') {
  const config = await syntheticConfig(url!);
  const caches = createWatchCaches();
  await scanSynthetic(config, caches);
  pods = (await scanSynthetic(config, caches)).snapshot.pods.length;
  caches.close();
} else pods = (await scanSynthetic(await syntheticConfig(url!))).snapshot.pods.length;
process.send!({ peakKb: process.resourceUsage().maxRSS, baselineKb, pods }, () => process.exit(0));
