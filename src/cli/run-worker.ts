import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config/config-schema.js';
import type { EnvOptions } from '../config/read-env-options.js';
import { createWorkerMetrics } from '../jobs/create-worker-metrics.js';
import { startJobs, type JobsOptions, type WorkerSet } from '../compose/compose-jobs.js';
import { startFleet } from '../compose/start-fleet.js';
import { startUnscannedWatchdog } from '../compose/start-unscanned-watchdog.js';
import { WORKER_KINDS, type WorkerKind } from '../jobs/worker-kinds.js';
import { createPlanSigner } from '../approvals/plan-signer.js';
import { createProcessLogger } from '../log/create-logger.js';
import { waitForSignal } from './wait-for-signal.js';
import { describeError } from '../errors/describe-error.js';
import { HTTP_SERVER_OPTIONS } from '../slack/receive/slack-http-limits.js';
import { createRedisOutageReporter } from '../store/create-redis-outage-reporter.js';
import { describeRedisTarget } from '../store/connect-redis.js';
import { REDIS_PREFIX } from '../store/redis-prefix.js';
import { stopBudgetMs, stopWithin } from './stop-within.js';

export interface WorkerIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  now?: () => Date;
}

/** Replaceable parts (tests). */
export interface WorkerDeps {
  /** Resolves when the process should stop (default: the first SIGTERM or SIGINT). */
  stopSignal?: Promise<unknown>;
  /** Extra composeJobs options (tests: a random prefix, a faster channel limiter). */
  workers?: Partial<JobsOptions>;
}

/**
 * `k8s-health worker [--only KINDS]`: the BullMQ workers only (add replicas to scale out): all of
 * WORKER_KINDS, or the subset `only` names (the Helm chart runs `--only scan,notify,expiry` under a
 * read-only ServiceAccount and `--only remediate` under the one that may write), with
 * /healthz (process up), /readyz (Redis answers and the workers run; 503 with the reason
 * otherwise; clusters nobody scans listed under `unscanned`) and /metrics (Prometheus: jobs, watch
 * cache and scan ages, jobs/create-worker-metrics.ts and jobs/start-scan-watchdog.ts) on PORT.
 * The probe server starts first, so a Redis outage at startup shows on /readyz instead of a silent
 * hang. Resolves with the exit code: 1 on a startup error, 0 after a graceful
 * stop (in-flight jobs finish first).
 */
export async function runWorker(
  opts: { config: Config; env: EnvOptions; only?: readonly WorkerKind[] },
  io: WorkerIo,
  deps: WorkerDeps = {},
): Promise<number> {
  const { config, env } = opts;
  const kinds = opts.only ?? WORKER_KINDS;
  // Structured logs on stdout at LOG_LEVEL: JSON lines, pretty (and neutralized) on a terminal.
  const { log, announce } = await createProcessLogger({
    level: env.logLevel,
    destination: io.stdout,
    base: { process: 'worker' },
  });
  const alerting = config.clusters.filter((c) => c.slack.alertChannel).map((c) => c.name);
  if (kinds.includes('notify') && alerting.length > 0 && !env.slackBotToken) {
    io.stderr.write(
      `k8s-health worker: SLACK_BOT_TOKEN is not set but clusters ${alerting.join(', ')} have slack.alertChannel: set the bot token (xoxb-…) so alert threads can be posted\n`,
    );
    return 1;
  }
  // Run with every worker, a missing token only skips remediation (with a warning); asked for by
  // name, a remediation worker that cannot report its results would run nothing at all.
  if (opts.only?.includes('remediate') && !env.slackBotToken) {
    io.stderr.write(
      'k8s-health worker: --only remediate needs SLACK_BOT_TOKEN (xoxb-…): every remediation result is reported in its Slack thread\n',
    );
    return 1;
  }
  let set: WorkerSet | undefined;
  let startError = '';
  // Every Redis client of this process reports here: one warning line per 30 s while Redis is unreachable.
  const outage = createRedisOutageReporter({ log: announce, address: describeRedisTarget(env.redis) });
  // Its own registry (default process metrics included): scan and notify jobs, watch-cache gauges.
  const metrics = createWorkerMetrics();
  // Clusters nobody scans for three intervals: /readyz `unscanned`, /metrics, one alert among every
  // serve and worker process — so a worker alerts when no serve runs (docs/fleet.md "Who watches a cluster").
  const unscannedWatchdog = startUnscannedWatchdog({
    config,
    redisUrl: env.redis,
    outage,
    keyPrefix: deps.workers?.prefix ? `${deps.workers.prefix}:` : REDIS_PREFIX,
    registry: metrics.registry,
    slack: { token: env.slackBotToken, apiUrl: env.slackApiUrl },
    log,
    now: io.now ? () => io.now!().getTime() : undefined,
  });
  // Node's 300 s request timeouts shortened as on serve's port (slack/slack-http-limits.ts).
  const server = http.createServer(HTTP_SERVER_OPTIONS, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    if (path === '/metrics') {
      void metrics.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
        (err: unknown) =>
          res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${describeError(err)}\n`),
      );
      return;
    }
    if (path !== '/readyz') return void res.writeHead(404).end();
    const answer = set
      ? set.ready()
      : Promise.resolve({
          ready: false,
          redis: startError || (outage.down() ? `unreachable at ${outage.address}` : 'starting (waiting for Redis)'),
          workers: 'not started',
        });
    // Unscanned clusters are named without changing readiness, as on serve: an unready worker scans nothing more.
    void answer.then((r) => {
      const unscanned = unscannedWatchdog.watchdog.unscanned();
      res
        .writeHead(r.ready ? 200 : 503, { 'content-type': 'application/json' })
        .end(`${JSON.stringify({ ...r, ...(unscanned.length ? { unscanned } : {}) })}\n`);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(env.port, resolve);
    });
  } catch (err) {
    unscannedWatchdog.close();
    io.stderr.write(`k8s-health worker: cannot listen on PORT ${env.port}: ${describeError(err)}\n`);
    return 1;
  }
  const port = (server.address() as AddressInfo).port;
  announce.info({ port }, `k8s-health worker listening on :${port} (probes, metrics)`);
  const stop = deps.stopSignal ?? waitForSignal();
  // Without K8S_HEALTH_PLAN_SECRET this worker scans and alerts as before and refuses every approved fix.
  const signer = createPlanSigner(env.planSecret);
  if (!signer.ready && kinds.includes('remediate') && config.clusters.some((c) => c.remediation.enabled))
    announce.warn(signer.problem!);
  // Fleet mode (docs/fleet.md): a worker that scans or remediates discovers (it needs the enrolled
  // kubeconfigs); notify/expiry-only workers follow the shared directory. The first discovery is
  // waited for (a while) so the scan schedulers are synced once with every cluster in.
  const fleet = startFleet({
    config,
    redisUrl: env.redis,
    outage,
    mode: kinds.includes('scan') || kinds.includes('remediate') ? 'discover' : 'follow',
    log,
    keyPrefix: deps.workers?.prefix ? `${deps.workers.prefix}:` : undefined,
    onRemoved: (names) => void set?.retireClusters(names),
  });
  const starting = Promise.race([fleet.ready, new Promise((r) => setTimeout(r, 30_000).unref())])
    .then(() =>
      startJobs({
        config,
        redisUrl: env.redis,
        outage,
        only: kinds,
        slack: { token: env.slackBotToken, apiUrl: env.slackApiUrl },
        log,
        now: io.now,
        metrics,
        signer,
        clusterSet: fleet.clusterSet,
        ...deps.workers,
      }),
    )
    .then(
      (s) => {
        set = s;
        announce.info(
          { kinds: s.kinds, clusters: config.clusters.length },
          `workers running (${s.kinds.join(', ')}) for ${config.clusters.length} cluster(s)`,
        );
      },
      (err: unknown) => {
        startError = describeError(err);
        announce.error({ err }, 'workers failed to start');
      },
    );
  await stop;
  announce.info('stopping (finishing in-flight jobs)');
  unscannedWatchdog.close();
  // In-flight jobs finish, within SIGTERM's 10 s: Redis down since startup (or now) is not waited
  // for; what is left is dropped, and BullMQ hands a dropped job to another worker when its lock expires.
  const budget = stopBudgetMs(outage.down());
  const graceful = await stopWithin(budget, async () => {
    await Promise.race([starting, new Promise((r) => setTimeout(r, outage.down() ? 0 : 5_000).unref())]);
    await set?.close();
    await fleet.stop().catch(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  if (!graceful) {
    server.closeAllConnections();
    announce.warn(
      `stopped without finishing in-flight jobs within ${budget / 1000} s${outage.down() ? ` (Redis unreachable at ${outage.address})` : ''}`,
    );
  }
  announce.info('stopped');
  return startError ? 1 : 0;
}
