import { WebClient } from '@slack/web-api';
import { Queue, QueueEvents, type Worker } from 'bullmq';
import { createAlertStateStore } from '../alerts/alert-state-store.js';
import { createWatchCaches, type WatchCaches } from '../cluster/live/create-watch-caches.js';
import type { ClusterSet } from '../config/cluster-set.js';
import type { Config } from '../config/config-schema.js';
import { describeError } from '../errors/describe-error.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { createProposalRequester } from '../jobs/create-proposal-requester.js';
import { createQueuedScan } from '../jobs/create-queued-scan.js';
import { createCommandRedis, createRedisConnection } from '../jobs/create-redis-connection.js';
import type { RedisOutageReporter } from '../store/create-redis-outage-reporter.js';
import type { WorkerMetrics } from '../jobs/create-worker-metrics.js';
import { enqueueRemediation } from '../jobs/enqueue-remediation.js';
import { retireCluster } from '../jobs/retire-cluster.js';
import { scheduleScans } from '../jobs/schedule-scans.js';
import { isLeasedCluster } from '../jobs/is-leased-cluster.js';
import { createFleetIncidentStore } from '../alerts/fleet-incident-store.js';
import type { FleetIncident } from '../alerts/fleet-incident.js';
import {
  ALERTS_QUEUE,
  ALL_QUEUES,
  APPROVALS_QUEUE,
  NOTIFY_QUEUE,
  PROPOSE_QUEUE,
  REMEDIATE_QUEUE,
  SCAN_QUEUE,
} from '../jobs/queue-names.js';
import { createAlertIntakePusher } from '../jobs/create-alert-intake-pusher.js';
import { startAlertIntakeForwarder, type AlertIntakeForwarder } from '../jobs/start-alert-intake-forwarder.js';
import { createAlertReceiptStore } from '../alertmanager/alert-receipt-store.js';
import type { AlertmanagerNotification, QueuedWebhook } from '../alertmanager/webhook-payload.js';
import {
  startWorkers,
  type JobQueues,
  type JobSlackClients,
  type JobStores,
  type WorkerDeps,
} from '../jobs/start-workers.js';
import { WORKER_KINDS, type WorkerKind } from '../jobs/worker-kinds.js';
import type { FleetScans, FleetScansOptions } from '../jobs/start-fleet-scans.js';
import { createClusterLeaseStore } from '../store/cluster-lease-store.js';
import { createActionContext } from '../approvals/execute/create-action-context.js';
import { createPlanSigner, type PlanSigner } from '../approvals/plan-signer.js';
import type { ScanDeps } from '../scan/scan-cluster.js';
import { createChannelLimiter } from '../slack/post/create-channel-limiter.js';
import type { ScanFn } from '../slack/handle/create-scan-requester.js';
import type { RequestProposal } from '../slack/handle/handle-approval-deps.js';
import { createAlertQuietStore } from '../alerts/alert-quiet-store.js';
import { createAnswerCardStore } from '../store/answer-card-store.js';
import { createInPlaceStore } from '../store/in-place-store.js';
import { createHomeViewersStore } from '../store/home-viewers-store.js';
import { createAlertThreadStore } from '../alerts/alert-thread-store.js';
import { createRecordSeal } from '../store/create-record-seal.js';
import type { RedisEnv } from '../config/read-env-options.js';
import { sealAlertRecords } from '../store/seal-alert-records.js';
import { createApprovalBackups } from '../store/approval-backups.js';
import { createApprovalStore } from '../store/approval-store.js';
import { createAuditLog } from '../store/audit-log.js';
import { createRedisBaselineStore } from '../store/baseline-store.js';
import { createProposalStore } from '../store/proposal-store.js';
import { RedisHistory } from '../store/redis-history.js';
import { BULLMQ_PREFIX, queuePrefix } from '../store/redis-prefix.js';
import { migrateKeyLayout } from '../store/migrate-key-layout.js';
import { createReportStore } from '../store/report-store.js';

/** Options of {@link composeJobs}. */
export interface JobsOptions {
  config: Config;
  /** Where Redis is: a URL, or the environment's topology (store/connect-redis.ts). */
  redisUrl: string | RedisEnv;
  /**
   * The process's Redis outage reporter (one warning line per 30 s while Redis is unreachable); every connection here
   * reports to it.
   */
  outage?: RedisOutageReporter;
  /** Bot token and Web API base URL; without a token alerts are tracked but not posted. */
  slack?: { token?: string; apiUrl?: string };
  /** Run workers here (false: only the queues, for `serve --no-workers`). */
  runWorkers?: boolean;
  /**
   * Which workers to run (`k8s-health worker --only`); default all of WORKER_KINDS. The scan
   * schedulers and watch caches belong to `scan`: a process without it never touches them.
   */
  only?: readonly WorkerKind[];
  /** BullMQ prefix; every other key uses `<prefix>:`. Tests pass a random one. Default "k8s-health". */
  prefix?: string;
  /**
   * Scans per process at once (default 5: scans wait on I/O, and a slow unreachable cluster must not hold up the
   * others).
   */
  scanConcurrency?: number;
  notifyConcurrency?: number;
  flapWindowMinutes?: number;
  /** Per-channel gap between Slack messages (default 1000 ms). */
  channelIntervalMs?: number;
  /**
   * The process's approver check, when its root already built one for the Slack app (the App Home refreshes share its
   * group cache; the executor keeps its own).
   */
  isAuthorized?: WorkerDeps['isAuthorized'];
  /** Scan in-process when no worker listens on the scan queue (`serve --no-workers`). */
  scanFallback?: ScanFn;
  /** How long a queued `/k8s-health` scan is waited for. */
  scanTimeoutMs?: number;
  /** How long a fix-button click waits for a remediation worker (default 30 s). */
  proposeTimeoutMs?: number;
  now?: () => Date;
  collect?: ScanDeps['collect'];
  log?: Logger;
  /** Job counters and watch-cache gauges (`/metrics`); absent = nothing is recorded. */
  metrics?: WorkerMetrics;
  /**
   * K8S_HEALTH_PLAN_SECRET's signer: the remediate worker plans, signs and re-verifies with it and
   * refuses every request when it is missing or not ready; audit records get MACs.
   */
  signer?: PlanSigner;
  /**
   * Configured ∪ discovered clusters (fleet mode, docs/fleet.md), keeping `config.clusters` current: with
   * the scan worker, every change re-syncs the scan schedulers.
   */
  clusterSet?: ClusterSet;
  /** Fleet mode: another cluster set (discovery) or a fixed worker id (tests). */
  leases?: Partial<Pick<FleetScansOptions, 'clusters' | 'clusterOf' | 'id'>>;
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
  /** Fleet mode's leases and owned scans (scan.leases with scan.watch and a scan worker here). */
  fleet?: FleetScans;
  /** Redis reachable and workers running; `detail` names what is not. */
  ready(): Promise<{ ready: boolean; redis: string; workers: string }>;
  /**
   * Discovered clusters whose Cluster object was deleted (or that were renamed): threads resolved, scans stopped
   * (docs/fleet.md).
   */
  retireClusters(clusters: readonly { name: string; renamedTo?: string }[]): Promise<void>;
  /** Graceful stop: workers finish their in-flight jobs, then connections close. */
  close(): Promise<void>;
}

/** The jobs side of a process, composed but not started: producers work at once, workers on start(). */
export interface Jobs {
  queues: JobQueues;
  /** `/k8s-health`'s fresh scan through the scan queue (in-process fallback when no worker listens). */
  scan: ScanFn;
  /** A fix-button click handed to the remediation worker. */
  requestProposal: RequestProposal;
  /** The decisive approval's remediate job (job id = request id). */
  enqueueRemediation: (requestId: string) => Promise<void>;
  /**
   * An Alertmanager notification handed to the alerts workers (serve's `POST /alertmanager`): pushed onto the alert
   * intake, which the alerts workers' forwarder moves into the `k8s-health-alerts` queue.
   */
  enqueueAlertmanager: (n: AlertmanagerNotification, queued: QueuedWebhook, raw?: Buffer) => Promise<void>;
  /** Schedulers and workers (needs Redis: waits for it). */
  start(): Promise<WorkerSet>;
  /** Close the queues and connections (when start() was never called or failed). */
  close(): Promise<void>;
}

/**
 * The composition of the jobs side of one process (serve's and worker's roots call it): the BullMQ
 * connection and the blocking ones QueueEvents need, every queue, the stores the workers use, the
 * Slack clients (one per job kind, each with its retry policy), the channel limiter and the watch
 * caches — created here, once, and passed in (jobs/start-workers.ts creates only Workers). Queues and
 * producers are usable at once (they wait for Redis themselves); start() upserts the schedulers and
 * starts the workers, so a Redis outage at startup delays only that.
 */
export function composeJobs(opts: JobsOptions): Jobs {
  const prefix = opts.prefix ?? BULLMQ_PREFIX;
  const keyPrefix = `${prefix}:`;
  const log = opts.log ?? silentLogger;
  const now = opts.now ?? (() => new Date());
  let lastRedisError = '';
  const onError = (err: Error) => (lastRedisError = err.message);
  const connection = createRedisConnection(opts.redisUrl, { onError, outage: opts.outage });
  // QueueEvents block on their connection: one each, closed by us (BullMQ leaves given connections open).
  const scanEventsConnection = connection.duplicate();
  const proposeEventsConnection = connection.duplicate();
  const queue = (name: string) =>
    new Queue(name, { connection, prefix: queuePrefix(prefix, name) }).on('error', onError);
  const queues: JobQueues = {
    scan: queue(SCAN_QUEUE),
    notify: queue(NOTIFY_QUEUE),
    remediate: queue(REMEDIATE_QUEUE),
    propose: queue(PROPOSE_QUEUE),
    approvals: queue(APPROVALS_QUEUE),
    alerts: queue(ALERTS_QUEUE),
  };
  const scanEvents = new QueueEvents(SCAN_QUEUE, {
    connection: scanEventsConnection,
    prefix: queuePrefix(prefix, SCAN_QUEUE),
  }).on('error', onError);
  const proposeEvents = new QueueEvents(PROPOSE_QUEUE, {
    connection: proposeEventsConnection,
    prefix: queuePrefix(prefix, PROPOSE_QUEUE),
  }).on('error', onError);
  // serve's pushes onto the alert intake fail fast while Redis is unreachable (Alertmanager gets a 503 and retries)
  // instead of waiting on the BullMQ connection; connected at the first webhook.
  const intakeConnection = createCommandRedis(opts.redisUrl, { outage: opts.outage });
  const connections = [connection, scanEventsConnection, proposeEventsConnection];
  const closeQueues = async () => {
    await Promise.all([...Object.values(queues).map((q) => q.close()), scanEvents.close(), proposeEvents.close()]);
    await Promise.all([
      ...connections.map((c) => c.quit().catch(() => c.disconnect())),
      intakeConnection.status === 'wait'
        ? intakeConnection.disconnect()
        : intakeConnection.quit().catch(() => intakeConnection.disconnect()),
    ]);
  };
  const scan = createQueuedScan(queues.scan, scanEvents, {
    timeoutMs: opts.scanTimeoutMs,
    fallback: opts.scanFallback,
  });

  return {
    queues,
    scan,
    requestProposal: createProposalRequester(queues.propose, proposeEvents, { timeoutMs: opts.proposeTimeoutMs }),
    enqueueRemediation: (id) => enqueueRemediation(queues.remediate, id),
    enqueueAlertmanager: createAlertIntakePusher(intakeConnection, { keyPrefix }),
    close: closeQueues,
    async start() {
      const runWorkers = opts.runWorkers ?? true;
      const kinds = runWorkers ? WORKER_KINDS.filter((k) => (opts.only ?? WORKER_KINDS).includes(k)) : [];
      const signer = opts.signer ?? createPlanSigner(undefined);
      // Records that decide where the bot posts and what it edits are sealed with the server secret;
      // those written before sealing existed are sealed once, so no open thread is lost.
      // Keys written before hash tags existed get their tagged names first (once per Redis, under a lock).
      const layout = await migrateKeyLayout(connection, { keyPrefix, queues: ALL_QUEUES });
      if (layout.ran)
        log.info(
          { moved: layout.moved },
          'Redis keys renamed to their hash-tagged names (docs/reliability.md, "Redis Cluster")',
        );
      if (layout.kept.length)
        log.warn(
          { kept: layout.kept.slice(0, 20), count: layout.kept.length },
          'Redis keys of the old layout left in place: their new name already holds data',
        );
      const stateSeal = createRecordSeal(signer, 'alert-state');
      const threadSeal = createRecordSeal(signer, 'alert-thread');
      if (stateSeal && threadSeal) {
        const n = await sealAlertRecords(connection, { keyPrefix, states: stateSeal, threads: threadSeal });
        if (n) log.info({ sealed: n }, 'alert states and thread records from before sealing sealed once');
      }
      const alerts = createAlertStateStore(connection, {
        keyPrefix,
        seal: stateSeal,
        onTampered: (cluster) =>
          log.error(
            { cluster },
            'alert state does not verify with K8S_HEALTH_PLAN_SECRET (written by someone else?): not used; the next scan starts afresh',
          ),
      });
      const stores: JobStores = {
        reports: createReportStore(connection, { keyPrefix, now: opts.now }),
        alerts,
        threads: createAlertThreadStore(connection, {
          keyPrefix,
          states: alerts,
          seal: threadSeal,
          onTampered: (cluster, key) =>
            log.error(
              { cluster, thread: key },
              'alert thread record does not verify with K8S_HEALTH_PLAN_SECRET (written by someone else?): ignored',
            ),
        }),
        fleetIncidents: createFleetIncidentStore<FleetIncident>(connection, { keyPrefix }),
        quiet: createAlertQuietStore(connection, { keyPrefix, now }),
        homeViewers: createHomeViewersStore(connection, { keyPrefix }),
        answers: createAnswerCardStore(connection, {
          keyPrefix,
          seal: createRecordSeal(signer, 'answer-card'),
          onTampered: (cluster) =>
            log.error(
              { cluster },
              'answer card record does not verify with K8S_HEALTH_PLAN_SECRET (written by someone else?): not edited',
            ),
        }),
        inPlace: createInPlaceStore(connection, { keyPrefix }),
        history: new RedisHistory(connection, { keyPrefix }),
        baselines: createRedisBaselineStore(connection, { keyPrefix, log }),
        approvals: createApprovalStore(connection, { keyPrefix }),
        audit: createAuditLog(connection, { keyPrefix, log, signer }),
        backups: createApprovalBackups(connection, { keyPrefix, now }),
        proposals: createProposalStore(connection, { keyPrefix }),
        receipts: createAlertReceiptStore(connection, { keyPrefix }),
      };
      const token = opts.slack?.token;
      const api = opts.slack?.apiUrl ? { slackApiUrl: opts.slack.apiUrl } : {};
      const slack: JobSlackClients | undefined = token
        ? {
            // 429s come back to us so the Redis limiter (shared by every worker) honours Retry-After;
            // other retries are BullMQ's, visible in the queue.
            notify: new WebClient(token, {
              ...api,
              rejectRateLimitedCalls: true,
              retryConfig: { retries: 0 },
              timeout: 10_000,
            }),
            // Results are few and must arrive: the Web API client's own retries, unlike the notify client.
            results: new WebClient(token, { ...api, retryConfig: { retries: 3 }, timeout: 10_000 }),
            // Failures are retried by the next sweep (the message is marked stale): a tick stays short.
            expiry: new WebClient(token, {
              ...api,
              rejectRateLimitedCalls: true,
              retryConfig: { retries: 0 },
              timeout: 10_000,
            }),
          }
        : undefined;
      // One watch cache per live cluster this process scans (scan.watch; see collectSnapshot).
      const watchCaches =
        kinds.includes('scan') && opts.config.scan.watch
          ? createWatchCaches({
              idleMs: Math.max(10 * 60_000, 10 * opts.config.scan.intervalSeconds * 1000),
              timeoutMs: opts.collect?.requestTimeoutMs,
              log,
            })
          : undefined;
      let workers: Worker[];
      let fleet: FleetScans | undefined;
      try {
        ({ workers, fleet } = await startWorkers({
          config: opts.config,
          connection,
          prefix,
          queues,
          stores,
          slack,
          limiter: createChannelLimiter(connection, { keyPrefix, intervalMs: opts.channelIntervalMs }),
          watchCaches,
          signer,
          createContext: createActionContext,
          kinds,
          scan: (name) => scan(name),
          scanConcurrency: opts.scanConcurrency,
          notifyConcurrency: opts.notifyConcurrency,
          flapWindowMinutes: opts.flapWindowMinutes,
          collect: opts.collect,
          now,
          log,
          metrics: opts.metrics,
          isAuthorized: opts.isAuthorized,
          // Fleet mode (scan.leases): one owner per live cluster among every worker on this Redis.
          leases: { store: createClusterLeaseStore(connection, { keyPrefix }), ...opts.leases },
        }));
      } catch (err) {
        watchCaches?.close();
        throw err;
      }
      // Fleet mode: the clusters change while running; the scan schedulers follow (one sync at a time).
      let syncing: Promise<unknown> = Promise.resolve();
      const unfollow =
        kinds.includes('scan') && opts.clusterSet
          ? opts.clusterSet.onChange((change) => {
              syncing = syncing
                .then(() =>
                  scheduleScans(queues.scan, opts.config, {
                    leased: (c) => fleet !== undefined && isLeasedCluster(opts.config, c),
                  }),
                )
                .then(
                  (r) =>
                    log.info(
                      { ...change, scheduled: r.scheduled.length, removed: r.removed },
                      'fleet: clusters changed; scan schedulers synced',
                    ),
                  (err: unknown) => log.warn({ err }, 'fleet: scan schedulers not synced (next change retries)'),
                );
            })
          : undefined;
      // Wherever the alerts workers run, the intake's forwarder feeds their queue (with or without a Slack token here:
      // the jobs wait in the queue for a process that has one).
      const forwarder: AlertIntakeForwarder | undefined = kinds.includes('alerts')
        ? startAlertIntakeForwarder({
            redis: connection,
            queue: queues.alerts,
            keyPrefix,
            log: log.child({ component: 'alert-intake' }),
            metrics: opts.metrics,
          })
        : undefined;
      for (const w of workers) {
        w.on('error', onError);
        w.on('failed', (job, err) =>
          log.warn({ queue: w.name, jobId: job?.id, attempt: job?.attemptsMade, err }, 'job failed'),
        );
      }
      return {
        workers,
        kinds,
        scanQueue: queues.scan,
        notifyQueue: queues.notify,
        scan,
        watchCaches,
        async ready() {
          let redis = 'ok';
          try {
            await withTimeout(connection.ping(), 900);
          } catch (err) {
            redis = lastRedisError || describeError(err);
          }
          const down = workers.filter((w) => !w.isRunning()).map((w) => w.name);
          const state = !runWorkers
            ? 'none in this process'
            : down.length
              ? `not running: ${down.join(', ')}`
              : workers.map((w) => w.name).join(', ');
          return { ready: redis === 'ok' && down.length === 0, redis, workers: state };
        },
        async retireClusters(clusters) {
          for (const { name, renamedTo } of clusters) {
            await retireCluster(
              name,
              {
                alerts: stores.alerts,
                threads: stores.threads,
                scanQueue: queues.scan,
                notifyQueue: slack ? queues.notify : undefined,
                now,
                log,
              },
              renamedTo,
            ).catch((err: unknown) => log.warn({ cluster: name, err }, 'fleet: could not retire a deleted cluster'));
          }
        },
        fleet,
        async close() {
          unfollow?.();
          await syncing;
          // Leases first: the other workers take this one's clusters over at their next tick.
          await fleet?.stop();
          await Promise.all([forwarder?.stop(), ...workers.map((w) => w.close())]);
          watchCaches?.close();
          await closeQueues();
        },
      };
    },
  };
}

/** Compose the jobs side and start it (what a `worker` process and the tests do). */
export async function startJobs(opts: JobsOptions): Promise<WorkerSet> {
  const jobs = composeJobs(opts);
  try {
    return await jobs.start();
  } catch (err) {
    await jobs.close().catch(() => undefined);
    throw err;
  }
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
