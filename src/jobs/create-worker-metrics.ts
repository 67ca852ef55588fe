import type { Job, Worker } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { WatchCaches } from '../cluster/live/create-watch-caches.js';
import type { KindWatchState } from '../cluster/live/watch-kind.js';
import { APPROVALS_QUEUE, NOTIFY_QUEUE, REMEDIATE_QUEUE, SCAN_QUEUE } from './queue-names.js';

/**
 * Every state a kind watch can be in: each is exported per cluster (0 included), so an alert on `state="failed"` has a
 * series to compare.
 */
const WATCH_STATES: readonly KindWatchState[] = ['listing', 'watching', 'reconnecting', 'failed', 'absent', 'stopped'];

/**
 * `outcome` of k8s_health_remediations_total: the request's end state, or `error` when the job threw. Other states (the
 * job found nothing to run) are `skipped`.
 */
const REMEDIATION_OUTCOMES = new Set(['succeeded', 'failed', 'aborted', 'interrupted']);

/** Scans take milliseconds from a warm watch cache and up to the request timeouts on an unreachable cluster. */
const SCAN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The `/metrics` of the jobs side (`worker`, and `serve` running workers): see docs/architecture.md "Metrics". */
export interface WorkerMetrics {
  registry: Registry;
  scanJobs: Counter<'cluster' | 'outcome'>;
  scanSeconds: Histogram<'cluster'>;
  notifyJobs: Counter<'outcome'>;
  remediations: Counter<'outcome'>;
  /** Approval requests the expiry sweep moved to `expired` (this process won their compare-and-set). */
  approvalsExpired: Counter;
  /** Prometheus alerts the alerts worker handled, by outcome (jobs/run-alerts-job.ts). */
  alertmanagerAlerts: Counter<'outcome'>;
  /** Webhooks the alert intake's forwarder took, by outcome (jobs/start-alert-intake-forwarder.ts). */
  alertIntake: Counter<'outcome'>;
  /** The alert intake's length as this process's forwarder last saw it. */
  alertIntakePending: Gauge;
  /**
   * Count and time the jobs of these BullMQ workers (scan, notify, remediate; told apart by queue
   * name) from their `completed`/`failed` events, and read the watch gauges from `watchCaches` at
   * every scrape. `clusters` (the configured names) start their scan series at 0, so `increase()`
   * sees the first scan. Called by startWorkers once its workers exist.
   */
  attach(opts: { workers: Worker[]; watchCaches?: WatchCaches; clusters?: string[] }): void;
}

/**
 * Job counters and watch-cache gauges for the processes that run the BullMQ workers. A private
 * registry per process (like slack/receive/create-metrics.ts) unless `registry` is given: `serve` passes its
 * own so one `/metrics` holds both (`defaultMetrics: false` then, serve already collects them).
 *
 * Job metrics come from the Worker events rather than from wrapping the processors: the jobs code
 * stays free of metrics, and every queue is counted the same way. A retried attempt that fails
 * counts once per attempt (outcome="error"). Durations are `processedOn` (set when the job became
 * active) to the event, so they include the one Redis round trip that records the result.
 */
export function createWorkerMetrics(opts: { registry?: Registry; defaultMetrics?: boolean } = {}): WorkerMetrics {
  const registry = opts.registry ?? new Registry();
  if (opts.defaultMetrics ?? !opts.registry) collectDefaultMetrics({ register: registry, prefix: 'k8s_health_' });
  const registers = [registry];
  const scanJobs = new Counter({
    name: 'k8s_health_scan_jobs_total',
    help: 'Scan jobs run by this process, by cluster and outcome (ok|error; each failed attempt counts)',
    labelNames: ['cluster', 'outcome'] as const,
    registers,
  });
  const scanSeconds = new Histogram({
    name: 'k8s_health_scan_duration_seconds',
    help: 'Duration of scan jobs (collect, diagnose, store the report, queue alerts), by cluster',
    labelNames: ['cluster'] as const,
    buckets: SCAN_BUCKETS,
    registers,
  });
  const notifyJobs = new Counter({
    name: 'k8s_health_notify_jobs_total',
    help: 'Alert thread jobs (Slack posts) run by this process, by outcome (ok|error)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const remediations = new Counter({
    name: 'k8s_health_remediations_total',
    help: 'Remediation jobs run by this process, by outcome (succeeded|failed|aborted|interrupted|skipped|error)',
    labelNames: ['outcome'] as const,
    registers,
  });

  const alertmanagerAlerts = new Counter({
    name: 'k8s_health_alertmanager_alerts_total',
    help: "Prometheus alerts from Alertmanager by outcome: joined (a reply in its root cause's thread), own (a thread of its own), resolved, repeated (already shown), unknown-cluster (no cluster matched), overflow (beyond alertmanager.maxAlertsPerRequest)",
    labelNames: ['outcome'] as const,
    registers,
  });
  const alertIntake = new Counter({
    name: 'k8s_health_alertmanager_intake_total',
    help: 'Alertmanager webhooks taken from the alert intake by this process, by outcome: forwarded (its alerts job stored, or already there), dropped (not an item serve writes), recovered (given back from a forwarder that stopped answering)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const alertIntakePending = new Gauge({
    name: 'k8s_health_alertmanager_intake_pending',
    help: "Alertmanager webhooks waiting in the alert intake for the alerts workers' forwarder, as this process last saw it",
    registers,
  });
  const approvalsExpired = new Counter({
    name: 'k8s_health_approvals_expired_total',
    help: 'Approval requests expired by the sweep in this process (untouched past expiresAt)',
    registers,
  });

  const caches: WatchCaches[] = [];
  /**
   * Per cluster, what its watch cache holds now (the cache of a cluster not scanned here for a while is dropped, and so
   * are its series).
   */
  const perCluster = () =>
    caches
      .flatMap((c) => c.list())
      .map((cache) => {
        const kinds = cache.all();
        const states = new Map<KindWatchState, number>(WATCH_STATES.map((s) => [s, 0]));
        const requests = { list: 0, watch: 0, relist: 0 };
        let objects = 0;
        let events = 0;
        for (const k of kinds) {
          states.set(k.state, (states.get(k.state) ?? 0) + 1);
          objects += k.size();
          requests.list += k.stats.lists;
          requests.watch += k.stats.watches;
          requests.relist += k.stats.relists;
          events += k.stats.events;
        }
        return { cluster: cache.cluster, states, objects, requests, events };
      });
  // Read from the watch caches at scrape time: one series per cluster (and state / request type).
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    values: (c: ReturnType<typeof perCluster>[number]) => [Partial<Record<L, string>>, number][],
  ) =>
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const c of perCluster())
          for (const [labels, n] of values(c))
            this.set({ cluster: c.cluster, ...labels } as Partial<Record<L, string>>, n);
      },
    });
  gauge(
    'k8s_health_watch_kinds',
    'Kind watches of the watch cache by cluster and state (listing|watching|reconnecting|failed|absent|stopped)',
    ['cluster', 'state'] as const,
    (c) => [...c.states].map(([state, n]) => [{ state }, n]),
  );
  gauge(
    'k8s_health_watch_objects',
    'Objects kept by the watch cache (compact projections), by cluster',
    ['cluster'] as const,
    (c) => [[{}, c.objects]],
  );
  gauge(
    'k8s_health_watch_requests',
    'Requests made by the watch cache since it started, by cluster and type (list: every list incl. relists; watch; relist: lists after 410 Gone); restarts at 0 when the cache is recreated',
    ['cluster', 'type'] as const,
    (c) => Object.entries(c.requests).map(([type, n]) => [{ type }, n]),
  );
  gauge(
    'k8s_health_watch_events',
    'Watch events received by the watch cache since it started, by cluster; restarts at 0 when the cache is recreated',
    ['cluster'] as const,
    (c) => [[{}, c.events]],
  );

  const seconds = (job: Job) => (job.processedOn ? Math.max(0, Date.now() - job.processedOn) / 1000 : undefined);
  const cluster = (job: Job) => {
    const name = (job.data as { cluster?: unknown } | undefined)?.cluster;
    return typeof name === 'string' ? name : 'unknown';
  };
  const record = (queue: string, job: Job, ok: boolean, result?: unknown) => {
    if (queue === SCAN_QUEUE) {
      scanJobs.inc({ cluster: cluster(job), outcome: ok ? 'ok' : 'error' });
      const s = seconds(job);
      if (s !== undefined) scanSeconds.observe({ cluster: cluster(job) }, s);
    } else if (queue === NOTIFY_QUEUE) {
      notifyJobs.inc({ outcome: ok ? 'ok' : 'error' });
    } else if (queue === REMEDIATE_QUEUE) {
      const status = String((result as { status?: unknown } | undefined)?.status);
      remediations.inc({ outcome: !ok ? 'error' : REMEDIATION_OUTCOMES.has(status) ? status : 'skipped' });
    } else if (queue === APPROVALS_QUEUE && ok) {
      const expired = Number((result as { expired?: unknown } | undefined)?.expired);
      if (Number.isFinite(expired) && expired > 0) approvalsExpired.inc(expired);
    }
  };

  return {
    registry,
    scanJobs,
    scanSeconds,
    notifyJobs,
    remediations,
    approvalsExpired,
    alertmanagerAlerts,
    alertIntake,
    alertIntakePending,
    attach({ workers, watchCaches, clusters = [] }) {
      if (watchCaches) caches.push(watchCaches);
      for (const name of clusters) {
        scanJobs.inc({ cluster: name, outcome: 'ok' }, 0);
        scanJobs.inc({ cluster: name, outcome: 'error' }, 0);
        scanSeconds.zero({ cluster: name });
      }
      for (const w of workers) {
        w.on('completed', (job, result) => record(w.name, job, true, result));
        w.on('failed', (job) => {
          if (job) record(w.name, job, false);
        });
      }
    },
  };
}
