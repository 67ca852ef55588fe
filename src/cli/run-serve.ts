import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App, CustomRoute } from '@slack/bolt';
import type { Config } from '../config/config-schema.js';
import type { EnvOptions } from '../config/read-env-options.js';
import type { History } from '../diagnose/history.js';
import { createProcessLogger } from '../log/create-logger.js';
import { createWorkerMetrics } from '../jobs/create-worker-metrics.js';
import { scanCluster } from '../scan/scan-cluster.js';
import { createPlanSigner } from '../approvals/plan-signer.js';
import { createHealthRoutes } from '../slack/receive/create-health-routes.js';
import { createMetrics } from '../slack/receive/create-metrics.js';
import { createAlertmanagerRoute } from '../alertmanager/create-alertmanager-route.js';
import { createAlertmanagerMetrics } from '../alertmanager/create-alertmanager-metrics.js';
import type { ScanFn } from '../slack/handle/create-scan-requester.js';
import { createReplayGuard } from '../slack/receive/create-replay-guard.js';
import { createSlackApp } from '../slack/receive/create-slack-app.js';
import { registerListeners } from '../slack/register-listeners.js';
import { RedisHistory } from '../store/redis-history.js';
import { REDIS_PREFIX } from '../store/redis-prefix.js';
import { createReportStore } from '../store/report-store.js';
import { composeSlackDeps } from '../compose/compose-slack-deps.js';
import { createApprovalAuthorizer } from '../slack/handle/handle-approval-authorizer.js';
import { composeJobs, type WorkerSet } from '../compose/compose-jobs.js';
import { startFleet } from '../compose/start-fleet.js';
import { waitForSignal } from './wait-for-signal.js';
import { describeError } from '../errors/describe-error.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import { HTTP_SERVER_OPTIONS } from '../slack/receive/slack-http-limits.js';
import { createCommandRedis } from '../jobs/create-redis-connection.js';
import { createRedisOutageReporter } from '../store/create-redis-outage-reporter.js';
import { describeRedisTarget } from '../store/connect-redis.js';
import { registerStateStoreGuard } from '../slack/receive/guard-state-store.js';
import { postNotice } from '../slack/post/post-notice.js';
import { stopBudgetMs, stopWithin } from './stop-within.js';
import { startScanWatchdog } from '../jobs/start-scan-watchdog.js';

export interface ServeIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  now?: () => Date;
}

/** Replaceable parts (tests). */
export interface ServeDeps {
  /** Scan one cluster (default: scanCluster in-process). */
  scan?: ScanFn;
  history?: History;
  /** Resolves when the process should stop (default: the first SIGTERM or SIGINT). */
  stopSignal?: Promise<unknown>;
}

/**
 * `k8s-health serve`: the Slack app plus /healthz, /readyz, /metrics on PORT. Resolves with the exit
 * code: 1 on a startup error (one line on stderr), 0 after a graceful stop on SIGTERM/SIGINT.
 * With `workers` (the default) the BullMQ scan and notify workers run in this process too.
 *
 * `clusterAccess: false` (`--no-cluster-access`, with --no-workers): this process never opens a
 * connection to a cluster, so the internet-facing pod can run without any cluster credential
 * (docs/security.md "The Helm chart"). Scans then happen only in worker replicas (none listening:
 * the command says so instead of scanning here). Fixes need nothing of a cluster here either in any
 * mode: a fix-button click is planned and dry-run by the remediation worker (`worker --only remediate`).
 */
export async function runServe(
  opts: { config: Config; env: EnvOptions; workers: boolean; clusterAccess?: boolean },
  io: ServeIo,
  deps: ServeDeps = {},
): Promise<number> {
  const { config, env } = opts;
  const clusterAccess = opts.clusterAccess ?? true;
  const now = io.now ?? (() => new Date());
  // Structured logs on stdout at LOG_LEVEL: JSON lines, pretty (and neutralized) on a terminal.
  const { log, announce } = await createProcessLogger({
    level: env.logLevel,
    destination: io.stdout,
    base: { process: 'serve' },
  });
  const metrics = createMetrics();
  // Plans, votes, backups and audit records are signed with K8S_HEALTH_PLAN_SECRET. Without it the
  // read-only bot runs as before; proposing and executing fixes refuse with one line naming it.
  const signer = createPlanSigner(env.planSecret);
  if (!signer.ready && config.clusters.some((c) => c.remediation.enabled)) announce.warn(signer.problem!);
  // Fleet mode (docs/fleet.md): discovered clusters join config.clusters. With in-process workers this
  // process discovers (it scans); otherwise it follows the shared directory, without any credential.
  let jobs: Promise<WorkerSet> | undefined;
  // Every Redis client of this process reports to one outage reporter: one warning line per 30 s
  // while Redis is unreachable, naming the address without its password.
  const outage = createRedisOutageReporter({ log: announce, address: describeRedisTarget(env.redis) });
  const fleet = startFleet({
    config,
    redisUrl: env.redis,
    outage,
    mode: opts.workers ? 'discover' : 'follow',
    log,
    onRemoved: (names) =>
      void jobs?.then(
        (set) => set.retireClusters(names),
        () => undefined,
      ),
  });
  // Commands must not hang on a dead Redis: fail fast per command, keep reconnecting in the background.
  const redis = createCommandRedis(env.redis, { outage });
  const history = deps.history ?? new RedisHistory(redis, { keyPrefix: REDIS_PREFIX });
  const scanInProcess: ScanFn = async (name) => {
    const cluster = config.clusters.find((c) => c.name === name);
    if (!cluster) throw new K8sHealthError('E_SCAN_UNAVAILABLE', `cluster "${name}" is not configured`);
    if (!clusterAccess)
      throw new K8sHealthError(
        'E_SCAN_UNAVAILABLE',
        `this serve has no cluster access (--no-cluster-access) and no k8s-health worker process took the scan of ${name}: are the worker pods and Redis up?`,
      );
    return scanCluster(cluster, { history, thresholds: config.thresholds, now });
  };
  // The jobs side, composed once here (compose/compose-jobs.ts): queues and producers work at once; the
  // workers (scan, notify, remediate with proposals, expiry; unless --no-workers) start in the
  // background once the Slack app is up, so a Redis outage at startup does not keep the Slack app
  // from answering, and a startup error leaves no worker running. In-process workers record into
  // serve's registry: one /metrics (command-requested scans are k8s_health_scans_total, jobs
  // k8s_health_scan_jobs_total).
  // One approver check (its group cache) for the Slack app and the in-process workers.
  const isAuthorized = createApprovalAuthorizer({ log });
  const composed = composeJobs({
    config,
    redisUrl: env.redis,
    outage,
    isAuthorized,
    runWorkers: opts.workers,
    scanFallback: opts.workers ? undefined : scanInProcess,
    slack: { token: env.slackBotToken, apiUrl: env.slackApiUrl },
    log,
    now: io.now,
    metrics: opts.workers ? createWorkerMetrics({ registry: metrics.registry }) : undefined,
    signer,
    clusterSet: fleet.clusterSet,
  });
  // Assigned once the Slack app is up. Until the workers run (and with --no-workers and no worker
  // replica listening) `/k8s-health` scans run in-process.
  const scan: ScanFn =
    deps.scan ??
    (async (name) => {
      const set = await Promise.race([
        (jobs ?? Promise.resolve(undefined)).catch(() => undefined),
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 5000).unref()),
      ]);
      return set ? set.scan(name) : scanInProcess(name);
    });
  const reports = createReportStore(redis, { keyPrefix: REDIS_PREFIX, now });
  const slackDeps = composeSlackDeps({
    redis,
    keyPrefix: REDIS_PREFIX,
    config,
    signer,
    jobs: composed,
    reports,
    scan,
    metrics,
    now,
    log,
    isAuthorized,
    onScan: (ok) => (ok ? metrics.scans.inc() : (metrics.scans.inc(), metrics.scanErrors.inc())),
  });

  let slackApp: App | undefined;
  // Clusters nobody scans for three intervals: /readyz `unscanned`, /metrics, one alert each.
  const watchdog = startScanWatchdog({
    config,
    redis,
    keyPrefix: REDIS_PREFIX,
    registry: metrics.registry,
    log,
    now: () => now().getTime(),
    post: async (channel, text) => {
      if (!slackApp)
        throw new K8sHealthError(
          'E_SLACK_NOT_STARTED',
          'the Slack app has not started yet: the unscanned-cluster alert is posted on the next check',
        );
      await postNotice(slackApp.client, channel, text);
    },
  });
  // Alertmanager's webhook (docs/alertmanager.md): answered once queued; 404 without K8S_HEALTH_ALERTMANAGER_TOKEN.
  const alertmanagerRoute = createAlertmanagerRoute({
    token: env.alertmanagerToken,
    maxBodyBytes: config.alertmanager.maxBodyBytes,
    maxAlertsPerRequest: config.alertmanager.maxAlertsPerRequest,
    enqueue: composed.enqueueAlertmanager,
    metrics: createAlertmanagerMetrics(metrics.registry),
    log: log.child({ component: 'alertmanager' }),
    now,
  });
  const routes: CustomRoute[] = [
    ...createHealthRoutes({
      unscanned: () => watchdog.unscanned(),
      redis,
      redisProblem: () => (outage.down() ? `unreachable at ${outage.address}` : undefined),
      slackAuthTest: () =>
        slackApp ? slackApp.client.auth.test() : Promise.reject(new Error('Slack app not started')),
      metrics,
      // `jobs` is assigned once the Slack app is up; until then the workers are "starting".
      workers: opts.workers
        ? async () => {
            // Workers wait for Redis to start: until then (however long an outage lasts) they are "starting".
            const set = await Promise.race([
              jobs?.catch(() => undefined),
              new Promise<undefined>((r) => setTimeout(() => r(undefined), 100).unref()),
            ]);
            return set
              ? set.ready()
              : {
                  ready: false,
                  workers: outage.down() ? `starting (Redis unreachable at ${outage.address})` : 'starting',
                };
          }
        : undefined,
    }),
    alertmanagerRoute,
  ];
  let started: Awaited<ReturnType<typeof createSlackApp>>;
  try {
    started = await createSlackApp({
      botToken: env.slackBotToken,
      signingSecret: env.slackSigningSecret,
      appToken: env.slackAppToken,
      apiUrl: env.slackApiUrl,
      logLevel: env.logLevel,
      logger: log,
      customRoutes: routes,
      replayGuard: createReplayGuard(redis, {
        keyPrefix: REDIS_PREFIX,
        onReplay: () => log.warn('replayed Slack request ignored'),
        onError: () => log.warn('replay check skipped: Redis unavailable'),
      }),
      requestPolicy: config.slack,
      onOversized: (status, reason) => {
        // Counted, and logged at debug only: under a flood a line per request would be the flood.
        metrics.errors.inc({ where: 'request-refused' });
        log.debug({ status, reason }, 'slack request refused before reading its body');
      },
      onRefused: (r) => {
        metrics.errors.inc({ where: 'request-refused' });
        log.warn({ status: r.status, reason: r.reason, detail: r.detail }, 'slack request refused');
      },
    });
  } catch (err) {
    watchdog.stop();
    redis.disconnect();
    await fleet.stop().catch(() => undefined);
    await composed.close().catch(() => undefined);
    io.stderr.write(`k8s-health serve: ${describeError(err)}\n`);
    return 1;
  }
  const { app, mode } = started;
  slackApp = app;
  // First: while Redis is unreachable, every command and click is answered at once instead of timing out.
  registerStateStoreGuard(app, {
    reachable: () => redis.status === 'ready',
    address: outage.address,
    onRefused: () => metrics.errors.inc({ where: 'state-store-unreachable' }),
  });
  registerListeners(app, slackDeps);
  if (!deps.scan) {
    // The scan schedulers are synced at start: wait (a while) for the first discovery, so the
    // discovered clusters' schedulers are not removed and re-added.
    jobs = Promise.race([fleet.ready, new Promise((r) => setTimeout(r, 30_000).unref())]).then(() => composed.start());
    jobs.catch((err: unknown) => announce.error({ err }, 'workers failed to start'));
  }
  redis.connect().catch(() => undefined);
  // Workers finish their in-flight jobs before the connections close; never started (or Redis down
  // since startup: not waited for forever), only the queues close.
  const closeJobs = async () => {
    const set = await Promise.race([
      jobs?.catch(() => undefined),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), outage.down() ? 0 : 5_000).unref()),
    ]);
    await (set ? set.close() : composed.close()).catch(() => undefined);
  };

  let healthServer: http.Server | undefined;
  let port: number;
  try {
    if (mode === 'http') {
      const server = (await app.start(env.port)) as http.Server;
      port = (server.address() as AddressInfo).port;
    } else {
      // Probes first: /healthz must answer while the socket connection is still being opened.
      healthServer = await serveRoutes(routes, env.port);
      port = (healthServer.address() as AddressInfo).port;
      await app.start();
    }
  } catch (err) {
    watchdog.stop();
    redis.disconnect();
    healthServer?.close();
    await closeJobs();
    await fleet.stop().catch(() => undefined);
    io.stderr.write(`k8s-health serve: cannot start on PORT ${env.port}: ${describeError(err)}\n`);
    return 1;
  }
  announce.info({ port, mode }, `k8s-health serve listening on :${port} (${mode} mode)`);

  await (deps.stopSignal ?? waitForSignal());
  announce.info('stopping');
  // In-flight work finishes, but never longer than Kubernetes' grace period allows: with Redis
  // unreachable nothing would ever finish, so what is left is dropped (BullMQ retries it elsewhere).
  const budget = stopBudgetMs(outage.down());
  const graceful = await stopWithin(budget, async () => {
    watchdog.stop();
    await app.stop().catch(() => undefined);
    await closeJobs();
    await fleet.stop().catch(() => undefined);
    if (healthServer) await new Promise<void>((resolve) => healthServer!.close(() => resolve()));
    await redis.quit().catch(() => redis.disconnect());
  });
  if (!graceful) {
    redis.disconnect();
    healthServer?.closeAllConnections();
    announce.warn(
      `stopped without finishing in-flight work within ${budget / 1000} s${outage.down() ? ` (Redis unreachable at ${outage.address})` : ''}`,
    );
  }
  announce.info('stopped');
  return 0;
}

/** Socket Mode has no HTTP receiver: the probe and metrics routes get their own small server. */
async function serveRoutes(routes: CustomRoute[], port: number): Promise<http.Server> {
  const server = http.createServer(HTTP_SERVER_OPTIONS, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes.find((r) => r.path === path && [r.method].flat().includes(req.method ?? 'GET'));
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    route.handler(Object.assign(req, { params: {} }), res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}
