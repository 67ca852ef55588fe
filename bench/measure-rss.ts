import { fetchFloor } from './fetch-floor.js';
import { scanSynthetic, syntheticConfig } from './scan-synthetic.js';

/**
 * Bench child (target 5): one live scan + analysis (or, with `floor`, one floor fetch) in a fresh
 * process, then its peak resident set size (getrusage maxrss, KiB) — the bot's peak during a scan.
 * argv: URL scan|floor.
 */
const [url, what] = process.argv.slice(2);
const baselineKb = process.resourceUsage().maxRSS;
let pods = 0;
if (what === 'floor') await fetchFloor(url!);
else pods = (await scanSynthetic(await syntheticConfig(url!))).snapshot.pods.length;
process.send!({ peakKb: process.resourceUsage().maxRSS, baselineKb, pods }, () => process.exit(0));
