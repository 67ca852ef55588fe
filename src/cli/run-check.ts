import path from 'node:path';
import { findSnapshotSeries } from '../cluster/dump/find-snapshot-series.js';
import { loadDump } from '../cluster/dump/load-dump.js';
import { assertKubeconfigFiles } from './assert-kubeconfig-files.js';
import type { Snapshot } from '../cluster/snapshot.js';
import { scanSnapshot } from '../scan/scan-snapshot.js';
import { SECTION_IDS, type SectionId } from '../diagnose/finding.js';
import { renderJson } from '../report/render-json.js';
import { renderText } from '../report/render-text.js';
import type { Report } from '../report/report.js';
import { attachChanges } from '../scan/attach-changes.js';
import { createMemoryBaselineStore } from '../store/baseline-store.js';
import { InMemoryHistory } from '../store/in-memory-history.js';
import { silentLogger } from '../log/logger.js';
import type { CliIo } from './cli-io.js';
import { DEFAULT_THRESHOLDS } from '../config/defaults.js';
import { findConfigFile } from './find-config-file.js';
import { UsageError } from './usage-error.js';

export interface CheckOptions {
  cluster?: string;
  config?: string;
  from: string[];
  now?: string;
  output: string;
  section?: string;
}

/**
 * `k8s-health check`: one-shot summary. Several --from dumps are replayed in order as successive
 * scans through an in-memory History, so time-based detectors see what changed between them.
 * Exit 0: no critical finding; 1: critical findings; 2: bad usage or unreadable input.
 */
export async function runCheck(opts: CheckOptions, io: CliIo): Promise<number> {
  if (!['text', 'json', 'blocks'].includes(opts.output))
    throw new UsageError(`--output must be text, json or blocks, got "${opts.output}"`);
  if (opts.section && !SECTION_IDS.includes(opts.section as SectionId))
    throw new UsageError(`--section must be one of ${SECTION_IDS.join(', ')}, got "${opts.section}"`);
  const now = opts.now === undefined ? undefined : parseNow(opts.now);
  // check logs only at debug, and only to stderr: stdout is the report, exactly as it always was.
  // The logger (pino) is loaded only then: a plain `check` pays nothing for it.
  const log =
    io.env.LOG_LEVEL?.toLowerCase() === 'debug'
      ? (
          await (
            await import('../log/create-logger.js')
          ).createProcessLogger({ level: 'debug', destination: io.stderr, base: { process: 'check' } })
        ).log
      : silentLogger;
  const clock = io.now ?? (() => new Date());
  const history = new InMemoryHistory();
  // A replay keeps the last healthy dump's fingerprint, so a later dump says what changed since.
  const baselines = createMemoryBaselineStore();
  let report: Report;
  let runbookBaseUrl: string | undefined;
  if (opts.from.length) {
    // Without a config file a dump is read with the default thresholds, and the config schema (zod,
    // most of this command's start-up) is never loaded.
    const config = findConfigFile(opts.config, io.env)
      ? (await (await import('./resolve-config.js')).resolveConfig(opts.config, io.env, false)).config
      : undefined;
    const thresholds = config?.thresholds ?? DEFAULT_THRESHOLDS;
    runbookBaseUrl = config?.slack.runbookBaseUrl;
    const snapshots: Snapshot[] = [];
    for (const { dir, nameDir } of await expandSeries(opts.from, io)) {
      const snap = await loadDump(dir, opts.cluster ? { cluster: opts.cluster } : { nameDir });
      log.debug(
        { dump: dir, cluster: snap.cluster, collectedAt: snap.collectedAt, partial: snap.partial.length },
        'dump read',
      );
      // A file of the dump that could not be read (truncated JSON, say) is named where the user looks
      // first, as well as under "Not read" in the report.
      for (const p of snap.partial)
        if (DUMP_FILE.test(p.source)) io.stderr.write(`k8s-health: ${path.join(dir, p.source)} not read: ${p.error}\n`);
      snapshots.push(snap);
    }
    // Replay: every dump is one scan of the same cluster (the last one's name wins), in the given order.
    const cluster = snapshots[snapshots.length - 1]!.cluster;
    let last: Report | undefined;
    for (const [i, snap] of snapshots.entries()) {
      const isLast = i === snapshots.length - 1;
      const scan = { ...snap, cluster };
      last = await attachChanges(
        await scanSnapshot(scan, { history, thresholds, now: isLast ? now : undefined, generatedAt: clock() }),
        scan,
        baselines,
      );
    }
    report = last!;
  } else {
    const { resolveCluster, resolveConfig } = await import('./resolve-config.js');
    const { config, file } = await resolveConfig(opts.config, io.env, true);
    const cluster = await resolveCluster(config, opts.cluster, file);
    assertKubeconfigFiles(cluster, file);
    runbookBaseUrl = config.slack.runbookBaseUrl;
    // Live collection (client-node, etcd3) is loaded only for a live check.
    const { scanCluster } = await import('../scan/scan-cluster.js');
    log.debug({ cluster: cluster.name, live: !cluster.dump }, 'scanning');
    report = await scanCluster(cluster, {
      history,
      baselines,
      thresholds: config.thresholds,
      now: clock,
      analysisTime: now,
    });
  }
  log.debug(
    {
      cluster: report.cluster,
      status: report.status,
      findings: report.findings.length,
      partial: report.partial.length,
    },
    'report built',
  );
  const section = opts.section as SectionId | undefined;
  if (opts.output === 'json') io.stdout.write(renderJson(report));
  else if (opts.output === 'blocks') {
    // The very function and options /k8s-health posts with (handle-health-command.ts), card first;
    // without proposal ids a fix is a line of text instead of a button (nothing is stored by check).
    const { renderBlocks } = await import('../slack/render/render-blocks.js');
    io.stdout.write(JSON.stringify(renderBlocks(report, { now: clock(), section, runbookBaseUrl }), null, 2) + '\n');
  } else io.stdout.write(renderText(report, { now: clock(), section }));
  return report.findings.some((f) => f.severity === 'critical') ? 1 : 0;
}

/** A path of a file inside a dump (`nodes.json`, `etcd/member-list.json`), not a collection step ("list pods"). */
const DUMP_FILE = /^[^\s]+\.(json|ya?ml|txt|err)$/i;

/**
 * `--from` directories as dumps to replay: a directory of scan snapshots (t00, t01, …) stands for each of
 * its snapshots in name order, as if each were given with its own --from (one note on stderr says so).
 */
async function expandSeries(from: string[], io: CliIo): Promise<{ dir: string; nameDir: string }[]> {
  const out: { dir: string; nameDir: string }[] = [];
  for (const dir of from) {
    const series = await findSnapshotSeries(dir);
    if (!series) {
      out.push({ dir, nameDir: dir });
      continue;
    }
    io.stderr.write(
      `k8s-health: ${dir} holds ${series.length} scan snapshots (${series.map((d) => path.basename(d)).join(', ')}): replayed in name order, as repeated --from\n`,
    );
    out.push(...series.map((d) => ({ dir: d, nameDir: dir })));
  }
  return out;
}

function parseNow(v: string): Date {
  const d = new Date(v);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(v))
    throw new UsageError(`--now must be an ISO time such as 2023-11-30T16:00:00Z, got "${v}"`);
  return d;
}
