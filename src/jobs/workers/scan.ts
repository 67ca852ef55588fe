import { UnrecoverableError, Worker, type Job, type Queue, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { StartedWorker } from './started-worker.js';
import { SCAN_QUEUE, queuePrefix } from '../queue-names.js';
import type { Config } from '../../config/config-schema.js';
import type { History } from '../../diagnose/history.js';
import type { Report } from '../../report/report.js';
import { updateAlertState, type AlertStateStore } from '../../alerts/alert-state-store.js';
import type { BaselineStore } from '../../store/baseline-store.js';
import type { ReportStore } from '../../store/report-store.js';
import { DEFAULT_FLAP_WINDOW_MINUTES } from '../../alerts/analyze-alert-changes.js';
import { analyzeAlertChanges } from '../../alerts/analyze-alert-changes.js';
import { enqueueNotify, notifyPriority } from '../enqueue-notify.js';
import { scanCluster, type ScanDeps } from '../../scan/scan-cluster.js';
import type { Logger } from '../../log/logger.js';
import { correlateFleetIncidents } from '../correlate-fleet-incidents.js';
import type { FleetIncident } from '../../alerts/fleet-incident.js';
import type { FleetIncidentStore } from '../../alerts/fleet-incident-store.js';

/** Data of a scan job (scheduled per cluster, or requested by `/k8s-health`). */
export interface ScanJobData {
  cluster: string;
}

/** What a scan job needs (built once per worker process). */
export interface ScanJobDeps {
  config: Config;
  history: History;
  /** Last healthy fingerprint per cluster and the changes seen since; absent: no "what changed". */
  baselines?: BaselineStore;
  reports: ReportStore;
  alerts: AlertStateStore;
  /** The notify queue; absent = alerts are tracked but not posted (no Slack token). */
  notifyQueue?: Queue;
  flapWindowMinutes?: number;
  /** Fleet incidents (docs/fleet.md): absent, every incident keeps a thread of its own. */
  fleet?: FleetIncidentStore<FleetIncident>;
  /**
   * Told when this scan changed the cluster's alerts (an incident opened, changed or resolved): App Home refresh; never
   * fails the scan.
   */
  onAlertsChanged?: (cluster: string) => Promise<void>;
  now?: () => Date;
  collect?: ScanDeps['collect'];
  log?: Logger;
}

/**
 * One scan job (numbered flow): 1. collect + analyze with the Redis History (scan/scan-cluster.ts);
 * 2. store the report `/k8s-health` answers from; 3. turn it into alert changes against the cluster's
 * alert state (the pure alerts/analyze-alert-changes.ts applied by compare-and-set, alert-state-store.ts
 * updateAlertState); 4. hand every incident's latest change to the notify queue (idempotent job ids: a change
 * already handed over is a no-op, one whose job failed for good is retried, and the notify worker
 * posts only what its thread record does not have yet). Returns the report (the job's return value, read by queued
 * `/k8s-health` scans). Clusters without `slack.alertChannel` get reports but no alerts (docs/alerts.md).
 */
export async function runScanJob(data: ScanJobData, deps: ScanJobDeps): Promise<Report> {
  const cluster = deps.config.clusters.find((c) => c.name === data.cluster);
  // A scheduler left from an older config: retrying cannot help (schedulers are pruned at startup).
  if (!cluster)
    throw new UnrecoverableError(
      `cluster "${data.cluster}" is not in the config: its scan scheduler is stale and will be removed at the next worker start`,
    );
  const report = await scanCluster(cluster, {
    history: deps.history,
    baselines: deps.baselines,
    thresholds: deps.config.thresholds,
    now: deps.now,
    collect: deps.collect,
  });
  const stored = await deps.reports.save(report);
  // A later scan of this cluster finished first (a slow collect): its report is stored and its alert
  // transition applied; applying this older one would flap the threads. Answer with the newer report.
  if (!stored.saved) {
    deps.log?.info(
      { cluster: cluster.name, generatedAt: report.generatedAt, stored: stored.report.generatedAt },
      'scan older than the stored report: not stored, alerts untouched',
    );
    return stored.report;
  }
  const channel = cluster.slack.alertChannel;
  if (!channel) return report;

  const opts = {
    channel,
    resolveAfterScans: deps.config.scan.resolveAfterScans,
    pausedReminderHours: deps.config.scan.pausedReminderHours,
    flapWindowMinutes: deps.flapWindowMinutes ?? DEFAULT_FLAP_WINDOW_MINUTES,
  };
  const next = await updateAlertState(deps.alerts, cluster.name, (prev) => analyzeAlertChanges(prev, report, opts));
  // Hand over each incident's latest change: this scan's, and any left over by a crash or a Slack
  // outage (a job already there is a no-op, a failed one is retried; the worker posts what is missing).
  // The same root cause on other clusters of the channel: one fleet thread (before the notify jobs, so their posters
  // know).
  if (deps.fleet && next.changed.length)
    await correlateFleetIncidents(deps.fleet, next.changed, { windowSeconds: deps.config.scan.correlateSeconds });
  if (deps.notifyQueue) {
    // Worst first, and the first message of a new incident before any follow-up (enqueue-notify.ts).
    const incidents = Object.entries(next.state.incidents).sort(
      ([, a], [, b]) => notifyPriority(a) - notifyPriority(b),
    );
    for (const [fp, inc] of incidents)
      await enqueueNotify(
        deps.notifyQueue,
        { cluster: cluster.name, fingerprint: fp, seq: inc.seq },
        notifyPriority(inc),
      );
  }
  if (next.changed.length > 0) {
    deps.log?.info(
      { cluster: cluster.name, changed: next.changed.map((i) => `${i.finding.id}#${i.seq}`) },
      'alerts changed',
    );
    await deps
      .onAlertsChanged?.(cluster.name)
      .catch((err: unknown) => deps.log?.warn({ cluster: cluster.name, err }, 'app home refresh failed'));
  }
  return report;
}

/**
 * The scan worker: takes each job of queue `k8s-health-scan` (scheduled per cluster, or requested by
 * `/k8s-health`) and runs {@link runScanJob} with a child logger carrying the job and the cluster.
 */
export function startScanWorker(opts: {
  connection: Redis;
  prefix: string;
  concurrency: number;
  settings?: WorkerOptions['settings'];
  log: Logger;
  deps: Omit<ScanJobDeps, 'log'>;
}): StartedWorker {
  const worker = new Worker<ScanJobData, Report>(
    SCAN_QUEUE,
    (job: Job<ScanJobData>) =>
      runScanJob(job.data, {
        ...opts.deps,
        log: opts.log.child({ queue: SCAN_QUEUE, jobId: job.id, cluster: job.data.cluster }),
      }),
    {
      connection: opts.connection,
      prefix: queuePrefix(opts.prefix, SCAN_QUEUE),
      concurrency: opts.concurrency,
      ...(opts.settings ? { settings: opts.settings } : {}),
    },
  );
  return { worker, close: () => worker.close() };
}
