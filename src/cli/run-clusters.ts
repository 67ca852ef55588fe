import { connectRedis, describeRedisTarget } from '../store/connect-redis.js';
import type { DiscoveredCluster } from '../cluster/fleet/discovered-cluster.js';
import { readEnvOptions } from '../config/read-env-options.js';
import { describeError } from '../errors/describe-error.js';
import { createClusterDirectory } from '../store/cluster-directory.js';
import { REDIS_PREFIX } from '../store/redis-prefix.js';
import { createReportStore } from '../store/report-store.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import type { CliIo } from './cli-io.js';
import { resolveConfig } from './resolve-config.js';
import { UsageError } from './usage-error.js';

/** One row of `k8s-health clusters` (JSON keys are the contract: docs/design.md "Interfaces"). */
export interface ClusterRow {
  name: string;
  /** The fleet that discovered it; null for a configured cluster. */
  fleet: string | null;
  /** Namespace of its Cluster object (discovered), or management.namespace (configured); null when none. */
  namespace: string | null;
  /** The stored report's status (healthy, degraded, critical, unknown); `unknown` when no report is known. */
  status: string;
  /**
   * Workload credentials: true for a configured live cluster, an enrolled (or CAPI-secret) discovered one; false for a
   * dump or a discovered cluster read from the management side only.
   */
  enrolled: boolean;
}

const STATUS_ORDER = ['critical', 'degraded', 'unknown', 'healthy'];

/**
 * `k8s-health clusters [--config FILE] [-o text|json]`: every configured and discovered cluster. With
 * Redis (REDIS_URL) reachable, the discovered ones are the bot's shared directory and each status is
 * its stored report's; without Redis, or while the directory is still empty, the fleets' management
 * clusters are read once and every status is `unknown`. Exit 0; 2 on bad usage.
 */
export async function runClusters(opts: { config?: string; output: string }, io: CliIo): Promise<number> {
  if (!['text', 'json'].includes(opts.output))
    throw new UsageError(`--output must be text or json, got "${opts.output}"`);
  const env = readEnvOptions(io.env);
  const { config } = await resolveConfig(opts.config ?? env.configFile, io.env, true);
  const redis = connectRedis(env.redis, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 2000,
  });
  redis.on('error', () => undefined);
  let connected = false;
  const notes: string[] = [];
  try {
    try {
      await redis.connect();
      connected = true;
    } catch (err) {
      notes.push(`Redis not reachable at ${describeRedisTarget(env.redis)} (${describeError(err)}): statuses unknown`);
    }
    // Entries of fleets no longer in this config are left out (nobody syncs them any more).
    const fleets = new Set(config.fleets.map((f) => f.name));
    let discovered: DiscoveredCluster[] =
      connected && config.fleets.length
        ? (await createClusterDirectory(redis, { keyPrefix: REDIS_PREFIX }).list()).filter((d) => fleets.has(d.fleet))
        : [];
    if (config.fleets.length && !discovered.length) {
      const { discoverFleetsOnce } = await import('../cluster/fleet/start-fleet-discovery.js');
      const found = await discoverFleetsOnce(config.fleets, {
        configuredNames: new Set(config.clusters.map((c) => c.name)),
        timeoutMs: 15_000,
      });
      discovered = found.clusters;
      notes.push(...found.errors);
    }
    const rows: ClusterRow[] = [
      ...config.clusters.map((c) => ({
        name: c.name,
        fleet: null,
        namespace: c.management?.namespace ?? null,
        status: 'unknown',
        enrolled: !c.dump,
      })),
      ...discovered.map((d) => ({
        name: d.name,
        fleet: d.fleet,
        namespace: d.namespace,
        status: 'unknown',
        enrolled: d.enrolled,
      })),
    ];
    if (connected) {
      const reports = createReportStore(redis, { keyPrefix: REDIS_PREFIX });
      for (const r of rows) r.status = (await reports.latest(r.name))?.report.status ?? 'unknown';
    }
    if (opts.output === 'json') io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else io.stdout.write(renderRows(rows));
    for (const n of notes) io.stderr.write(`k8s-health clusters: ${neutralizePlainText(n)}\n`);
    return 0;
  } finally {
    redis.disconnect();
  }
}

/** Worst first, then by name: a table a person scans from the top. */
function renderRows(rows: ClusterRow[]): string {
  if (!rows.length) return 'no clusters configured or discovered\n';
  const sorted = [...rows].sort(
    (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || a.name.localeCompare(b.name),
  );
  const table = [
    ['CLUSTER', 'STATUS', 'FLEET', 'NAMESPACE', 'WORKLOAD ACCESS'],
    ...sorted.map((r) => [
      r.name,
      r.status,
      r.fleet ?? '-',
      r.namespace ?? '-',
      r.enrolled ? 'yes' : 'management side only',
    ]),
  ].map((cols) => cols.map((c) => neutralizePlainText(c)));
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  return (
    table.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n'
  );
}
