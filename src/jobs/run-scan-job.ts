import { UnrecoverableError, type Queue } from 'bullmq';
import type { Config } from '../config/config-schema.js';
import type { History } from '../diagnose/history.js';
import type { Report } from '../report/report.js';
import type { AlertStateStore } from '../alerts/alert-state-store.js';
import type { BaselineStore } from '../store/baseline-store.js';
import type { AlertThreadStore } from '../store/alert-thread-store.js';
import type { ReportStore } from '../store/report-store.js';
import { DEFAULT_FLAP_WINDOW_MINUTES } from '../alerts/analyze-alert-changes.js';
import { recordAlertChanges } from '../alerts/record-alert-changes.js';
import { enqueueNotify } from './enqueue-notify.js';
import { scanCluster, type ScanDeps } from '../scan/scan-cluster.js';
import type { Logger } from '../log/logger.js';

/** Data of a scan job (scheduled per cluster, or requested by `/k8s-health`). */
export interface ScanJobData {
  cluster: string;
}

/** What a scan job needs (built once per worker process). */
export interface ScanJobDeps {
  config: Config;
  history: History;
  /** Last healthy fingerprint per cluster and the changes seen since (issue 18); absent: no "what changed". */
  baselines?: BaselineStore;
  reports: ReportStore;
  alerts: AlertStateStore;
  threads: AlertThreadStore;
  /** The notify queue; absent = alerts are tracked but not posted (no Slack token). */
  notifyQueue?: Queue;
  flapWindowMinutes?: number;
  /** Told when this scan changed the cluster's alerts (an incident opened, changed or resolved): App Home refresh; never fails the scan. */
  onAlertsChanged?: (cluster: string) => Promise<void>;
  now?: () => Date;
  collect?: ScanDeps['collect'];
  log?: Logger;
}

/**
 * One scan job (numbered flow): 1. collect + analyze with the Redis History (scan/scan-cluster.ts);
 * 2. store the report `/k8s-health` answers from; 3. turn it into alert changes against the cluster's
 * alert state (alerts/record-alert-changes.ts); 4. hand every incident with unposted changes to the notify queue
 * (idempotent job ids). Returns the report (the job's return value, read by queued `/k8s-health` scans).
 * Clusters without `slack.alertChannel` get reports but no alerts (docs/alerts.md).
 */
export async function runScanJob(data: ScanJobData, deps: ScanJobDeps): Promise<Report> {
  const cluster = deps.config.clusters.find((c) => c.name === data.cluster);
  // A scheduler left from an older config: retrying cannot help (schedulers are pruned at startup).
  if (!cluster) throw new UnrecoverableError(`cluster "${data.cluster}" is not in the config: its scan scheduler is stale and will be removed at the next worker start`);
  const report = await scanCluster(cluster, { history: deps.history, baselines: deps.baselines, thresholds: deps.config.thresholds, now: deps.now, collect: deps.collect });
  const stored = await deps.reports.save(report);
  // A later scan of this cluster finished first (a slow collect): its report is stored and its alert
  // transition applied; applying this older one would flap the threads. Answer with the newer report.
  if (!stored.saved) {
    deps.log?.info({ cluster: cluster.name, generatedAt: report.generatedAt, stored: stored.report.generatedAt }, 'scan older than the stored report: not stored, alerts untouched');
    return stored.report;
  }
  const channel = cluster.slack.alertChannel;
  if (!channel) return report;

  const next = await recordAlertChanges(deps.alerts, report, {
    channel,
    resolveAfterScans: deps.config.scan.resolveAfterScans,
    pausedReminderHours: deps.config.scan.pausedReminderHours,
    flapWindowMinutes: deps.flapWindowMinutes ?? DEFAULT_FLAP_WINDOW_MINUTES,
  });
  // Hand over what is not posted yet: this scan's changes and any left over by a crash or a Slack
  // outage (the thread record says how far each thread was posted).
  if (deps.notifyQueue) {
    for (const [fp, inc] of Object.entries(next.state.incidents)) {
      const thread = await deps.threads.get(cluster.name, inc.key);
      if (inc.seq > (thread?.postedSeq ?? 0)) await enqueueNotify(deps.notifyQueue, { cluster: cluster.name, fingerprint: fp, seq: inc.seq });
    }
  }
  if (next.changed.length > 0) {
    deps.log?.info({ cluster: cluster.name, changed: next.changed.map((i) => `${i.finding.id}#${i.seq}`) }, 'alerts changed');
    await deps.onAlertsChanged?.(cluster.name).catch((err: unknown) => deps.log?.warn({ cluster: cluster.name, error: String(err) }, 'app home refresh failed'));
  }
  return report;
}
