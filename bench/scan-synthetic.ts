import { collectSnapshot } from '../src/cluster/live/collect-snapshot.js';
import type { WatchCaches } from '../src/cluster/live/create-watch-caches.js';
import type { Snapshot } from '../src/cluster/snapshot.js';
import { parseConfig } from '../src/config/load-config.js';
import type { Config } from '../src/config/config-schema.js';
import { scanSnapshot } from '../src/scan/scan-snapshot.js';
import type { Report } from '../src/report/report.js';
import { InMemoryHistory } from '../src/store/in-memory-history.js';
import { writeTestKubeConfig } from '../test/support/fake-kube-api/create-test-kube-config.js';

/** The bot's config for the synthetic cluster served at `url` (a live `workload` cluster). */
export async function syntheticConfig(url: string): Promise<Config> {
  const kubeconfig = await writeTestKubeConfig(url, 'fleet');
  return parseConfig(
    {
      clusters: [{ name: 'fleet-synthetic', workload: { kubeconfig }, slack: { channels: ['C0INCIDENT'] } }],
      scan: { freshSeconds: 3600 },
    },
    '/tmp',
  );
}

/** One live scan as the bot runs it: collect (readyz, discovery, every kind; or from a watch cache) then diagnose. */
export async function scanSynthetic(
  config: Config,
  watchCaches?: WatchCaches,
): Promise<{ snapshot: Snapshot; report: Report; collectMs: number; analyzeMs: number }> {
  const t0 = performance.now();
  const snapshot = await collectSnapshot(config.clusters[0]!, { watchCaches });
  const t1 = performance.now();
  const report = await scanSnapshot(snapshot, { history: new InMemoryHistory(), thresholds: config.thresholds });
  return { snapshot, report, collectMs: t1 - t0, analyzeMs: performance.now() - t1 };
}
