import { WebClient } from '@slack/web-api';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { Config } from '../config/config-schema.js';
import type { Report } from '../report/report.js';
import type { ScanFn } from '../slack/create-scan-requester.js';
import { postAlert, type NotifyRequest } from '../slack/post-alert.js';
import { createActionContext } from '../remediate/create-action-context.js';
import { createPlanSigner, type PlanSigner } from '../remediate/plan-signer.js';
import { createProposalStore } from '../slack/proposal-store.js';
import { createApprovalBackups } from '../store/approval-backups.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAuditLog } from '../store/audit-log.js';
import { createAlertStateStore } from '../store/alert-state-store.js';
import { createAlertThreadStore } from '../store/alert-thread-store.js';
import { createRedisBaselineStore } from '../store/baseline-store.js';
import { RedisHistory } from '../store/redis-history.js';
import { createReportStore } from '../store/report-store.js';
import { createChannelLimiter } from './create-channel-limiter.js';
import { createQueuedScan } from './create-queued-scan.js';
import { createRedisConnection } from './create-redis-connection.js';
import type { WorkerMetrics } from './create-worker-metrics.js';
import { BULLMQ_PREFIX, NOTIFY_QUEUE, SCAN_QUEUE } from './queue-names.js';
import { startRemediateWorker } from './remediate-worker.js';
import { createWatchCaches, type WatchCaches } from '../cluster/create-watch-caches.js';
import { runScanJob, type ScanJobData } from './run-scan-job.js';
import type { ScanDeps } from './scan-cluster.js';
import { scheduleScans } from './schedule-scans.js';
import { startApprovalExpiry } from './start-approval-expiry.js';
import { WORKER_KINDS, type WorkerKind } from './worker-kinds.js';

/** Options of {@link startWorkers}. */
export interface StartWorkersOptions {
  config: Config;
  redisUrl: string;
  /** Bot token and Web API base URL; without a token alerts are tracked but not posted. */
  slack?: { token?: string; apiUrl?: string };
  /** Run scan/notify workers here (false: only queues, schedulers are left to the workers). */
  runWorkers?: boolean;
  /**
   * Which workers to run (`k8s-health worker --only`); default all of WORKER_KINDS. The scan
   * schedulers and watch caches belong to `scan`: a process without it never touches them.
   */
  only?: readonly WorkerKind[];
  /** BullMQ prefix; every other key uses `<prefix>:`. Tests pass a random one. Default "k8s-health". */
  prefix?: string;
  /** Scans per process at once (default 5: scans wait on I/O, and a slow unreachable cluster must not hold up the others). */
  scanConcurrency?: number;
  notifyConcurrency?: number;
  flapWindowMinutes?: number;
  /** Per-channel gap between Slack messages (default 1000 ms). */
  channelIntervalMs?: number;
  /** Scan in-process when no worker listens on the scan queue (`serve --no-workers`). */
  scanFallback?: ScanFn;
  /** How long a queued `/k8s-health` scan is waited for. */
  scanTimeoutMs?: number;
  now?: () => Date;
  collect?: ScanDeps['collect'];
  log?: (line: string) => void;
  /** Job counters and watch-cache gauges (`/metrics`); absent = nothing is recorded. */
  metrics?: WorkerMetrics;
  /**
   * K8S_HEALTH_PLAN_SECRET's signer: the remediate worker re-verifies plans and votes with it and
   * refuses every request when it is missing or not ready; audit records get MACs.
   */
  signer?: PlanSigner;
}

/** Running queues and workers of one process. */
export interface WorkerSet {
  /** The workers of this process (empty without runWorkers). */
  workers: Worker[];
  /** Which kinds of worker run here (empty without runWorkers). */
  kinds: WorkerKind[];
  scanQueue: Queue;
  notifyQueue: Queue;
  /** A fresh scan through the scan queue (the path `/k8s-health` uses). */
  scan: ScanFn;
  /** This process's watch caches (scan.watch with workers running), for metrics and probes. */
  watchCaches?: WatchCaches;
  /** Redis reachable and workers running; `detail` names what is not. */
  ready(): Promise<{ ready: boolean; redis: string; workers: string }>;
  /** Graceful stop: workers finish their in-flight jobs, then connections close. */
  close(): Promise<void>;
}

/** Notify retries: 1 s, 2 s, 4 s … capped at one minute (never given up quickly: Slack outages pass). */
function backoffStrategy(attemptsMade: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attemptsMade - 1));
}

/**
 * Composition of the jobs side (used by `worker` and by `serve` unless --no-workers): queues,
 * per-cluster schedulers (stale ones removed), the scan, notify, remediate and expiry workers (all,
 * or the subset `only` names), and the queued scan for `/k8s-health`. State lives in Redis only, so any number of these processes share
 * the work and any of them may restart.
 */
export async function startWorkers(opts: StartWorkersOptions): Promise<WorkerSet> {
  const prefix = opts.prefix ?? BULLMQ_PREFIX;
  const keyPrefix = `${prefix}:`;
  const log = opts.log ?? (() => undefined);
  let lastRedisError = '';
  const connection = createRedisConnection(opts.redisUrl, { onError: (err) => (lastRedisError = err.message) });
  const runWorkers = opts.runWorkers ?? true;
  const kinds = runWorkers ? WORKER_KINDS.filter((k) => (opts.only ?? WORKER_KINDS).includes(k)) : [];
  const runs = (kind: WorkerKind) => kinds.includes(kind);
  const scanQueue = new Queue(SCAN_QUEUE, { connection, prefix });
  const notifyQueue = new Queue(NOTIFY_QUEUE, { connection, prefix });
  // QueueEvents blocks on its connection: a connection of its own, closed by us (BullMQ leaves given connections open).
  const eventsConnection = connection.duplicate();
  const events = new QueueEvents(SCAN_QUEUE, { connection: eventsConnection, prefix });
  const onError = (err: Error) => (lastRedisError = err.message);
  scanQueue.on('error', onError);
  notifyQueue.on('error', onError);
  events.on('error', onError);

  const reports = createReportStore(connection, { keyPrefix, now: opts.now });
  const alerts = createAlertStateStore(connection, { keyPrefix });
  const threads = createAlertThreadStore(connection, { keyPrefix });
  const history = new RedisHistory(connection, { keyPrefix });
  const baselines = createRedisBaselineStore(connection, { keyPrefix, log });
  const workers: Worker[] = [];
  let approvalsQueue: Queue | undefined;
  // One watch cache per live cluster this process scans (scan.watch; see collectSnapshot).
  const watchCaches = runs('scan') && opts.config.scan.watch ? createWatchCaches({ idleMs: Math.max(10 * 60_000, 10 * opts.config.scan.intervalSeconds * 1000), timeoutMs: opts.collect?.requestTimeoutMs, log }) : undefined;
  // A scan that still had to list (watch not open yet, or refused) says so in the log.
  const onCollected = (i: { cluster: string; cachedKinds: number; listedKinds: number }) => {
    if (i.listedKinds > 0) log(`scan cluster=${i.cluster} kinds from watch cache=${i.cachedKinds} listed=${i.listedKinds}`);
  };
  const collect = watchCaches ? { ...opts.collect, watchCaches, onCollected } : opts.collect;

  if (runWorkers) {
    const token = opts.slack?.token;
    const now = opts.now ?? (() => new Date());
    const proposals = createProposalStore(connection, { keyPrefix });
    if (runs('scan')) {
      const { scheduled, removed } = await scheduleScans(scanQueue, opts.config);
      log(`scan schedulers: ${scheduled.join(', ') || '(none)'}${removed.length ? `; removed stale: ${removed.join(', ')}` : ''}`);
      // With a bot token, alert changes are queued for the notify workers (here or in another process).
      workers.push(
        new Worker<ScanJobData, Report>(
          SCAN_QUEUE,
          (job: Job<ScanJobData>) =>
            runScanJob(job.data, {
              config: opts.config,
              history,
              baselines,
              reports,
              alerts,
              threads,
              notifyQueue: token ? notifyQueue : undefined,
              flapWindowMinutes: opts.flapWindowMinutes,
              now: opts.now,
              collect,
              log,
            }),
          { connection, prefix, concurrency: opts.scanConcurrency ?? 5, settings: { backoffStrategy } },
        ),
      );
    }
    if (runs('notify')) {
      if (token) {
        const client = new WebClient(token, {
          ...(opts.slack?.apiUrl ? { slackApiUrl: opts.slack.apiUrl } : {}),
          // 429s come back to us so the Redis limiter (shared by every worker) honours Retry-After;
          // other retries are BullMQ's, visible in the queue.
          rejectRateLimitedCalls: true,
          retryConfig: { retries: 0 },
          timeout: 10_000,
        });
        const deps = {
          redis: connection,
          keyPrefix,
          client,
          states: alerts,
          threads,
          limiter: createChannelLimiter(connection, { keyPrefix, intervalMs: opts.channelIntervalMs }),
          proposals,
          now,
          log,
        };
        workers.push(new Worker<NotifyRequest>(NOTIFY_QUEUE, (job) => postAlert(deps, job.data), { connection, prefix, concurrency: opts.notifyConcurrency ?? 4, settings: { backoffStrategy } }));
      } else if (opts.config.clusters.some((c) => c.slack.alertChannel)) {
        log('warning: no SLACK_BOT_TOKEN: alert threads are tracked but not posted by this process');
      }
    }
    if (runs('remediate')) {
      if (token) {
        // Approved remediations run wherever this worker runs (`worker`, `worker --only remediate`, or
        // serve without --no-workers). Exactly-once is the approval store's compare-and-set, whichever
        // process takes the job.
        // Not ready (no K8S_HEALTH_PLAN_SECRET): every approved request is refused by the executor; the
        // composition root (serve, worker) warns about it once at startup.
        const signer = opts.signer ?? createPlanSigner(undefined);
        const remediate = startRemediateWorker({
          config: opts.config,
          approvals: createApprovalStore(connection, { keyPrefix }),
          audit: createAuditLog(connection, { keyPrefix, log, signer }),
          backups: createApprovalBackups(connection, { keyPrefix, now }),
          signer,
          createContext: createActionContext,
          proposals,
          // Results are few and must arrive: the Web API client's own retries, unlike the notify client.
          slack: new WebClient(token, { ...(opts.slack?.apiUrl ? { slackApiUrl: opts.slack.apiUrl } : {}), retryConfig: { retries: 3 }, timeout: 10_000 }),
          connection,
          prefix,
          now,
          log,
        });
        workers.push(remediate.worker);
      } else {
        log('warning: no SLACK_BOT_TOKEN: approved remediations are not run by this process (results are reported in Slack)');
      }
    }
    if (runs('expiry')) {
      // The approval expiry sweep (scheduler `approvals-expiry`) runs with or without a token: requests
      // expire regardless; only updating their Slack messages needs one (see jobs/expire-approvals.ts).
      const expiry = await startApprovalExpiry({ connection, prefix, slack: opts.slack, now, log, signer: opts.signer });
      approvalsQueue = expiry.queue;
      workers.push(expiry.worker);
    }
    for (const w of workers) {
      w.on('error', (err: Error) => (lastRedisError = err.message));
      w.on('failed', (job, err) => log(`job failed queue=${w.name} id=${job?.id ?? '?'} attempt=${job?.attemptsMade ?? '?'}: ${err.message}`));
    }
    opts.metrics?.attach({ workers, watchCaches, clusters: opts.config.clusters.map((c) => c.name) });
  }

  const scan = createQueuedScan(scanQueue, events, { timeoutMs: opts.scanTimeoutMs, fallback: opts.scanFallback });
  return {
    workers,
    kinds,
    scanQueue,
    notifyQueue,
    scan,
    watchCaches,
    async ready() {
      let redis = 'ok';
      try {
        await withTimeout(connection.ping(), 900);
      } catch (err) {
        redis = lastRedisError || (err instanceof Error ? err.message : String(err));
      }
      const down = workers.filter((w) => !w.isRunning()).map((w) => w.name);
      const state = !runWorkers ? 'none in this process' : down.length ? `not running: ${down.join(', ')}` : workers.map((w) => w.name).join(', ');
      return { ready: redis === 'ok' && down.length === 0, redis, workers: state };
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      watchCaches?.close();
      await Promise.all([scanQueue.close(), notifyQueue.close(), events.close(), approvalsQueue?.close()]);
      await Promise.all([connection, eventsConnection].map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (Redis down?)`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
