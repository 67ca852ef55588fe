import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import type { ClusterConfig, Config } from '../config/config-schema.js';
import { parseConfig } from '../config/load-config.js';
import { composeJobs, type WorkerSet } from '../compose/compose-jobs.js';
import { composeSlackDeps } from '../compose/compose-slack-deps.js';
import { createApprovalAuthorizer } from '../slack/handle/handle-approval-authorizer.js';
import type { Logger } from '../log/logger.js';
import { createPlanSigner } from '../approvals/plan-signer.js';
import { createMetrics } from '../slack/receive/create-metrics.js';
import { createReplayGuard } from '../slack/receive/create-replay-guard.js';
import { createSlackApp } from '../slack/receive/create-slack-app.js';
import { registerListeners } from '../slack/register-listeners.js';
import { REDIS_PREFIX } from '../store/redis-prefix.js';
import { createReportStore } from '../store/report-store.js';
import { createAlertmanagerRoute } from '../alertmanager/create-alertmanager-route.js';
import { createPrometheusAlerts } from './create-prometheus-alerts.js';
import { createSimulatedControllers, type SimulatedControllers } from './create-simulated-controllers.js';
import { signSlackBody } from './create-slack-request.js';
import { startFakeKubeApi, type FakeKubeApi } from './kube-api/start-fake-kube-api.js';
import type { SandboxScenario } from './list-sandbox-scenarios.js';
import { SANDBOX_APPROVERS, SANDBOX_CHANNEL, SANDBOX_TEAM_ID } from './sandbox-people.js';
import type { SandboxSlack } from './start-sandbox-slack.js';

/** Key prefix of the stores, as in `serve` (run-serve.ts). */
const KEY_PREFIX = REDIS_PREFIX;
/** Simulated time one "next scan" moves the clock (a replay step moves it to that step's capture time when later). */
export const SANDBOX_SCAN_STEP_MINUTES = 6;

/** What a session needs from the process around it (start-sandbox-page.ts builds these once). */
export interface SandboxSessionOptions {
  scenario: SandboxScenario;
  /** ioredis connection string (start-sandbox-redis.ts); emptied by the caller between sessions. */
  redisUrl: string;
  slack: SandboxSlack;
  /** The sandbox clock the fake Slack stamps messages with; the session sets it. */
  setClock: (clock: () => Date) => void;
  log: Logger;
}

/** One scenario being played: the bot, its workers and its simulated cluster. */
export interface SandboxSession {
  scenario: SandboxScenario;
  config: Config;
  cluster: ClusterConfig;
  /** Simulated time: the scenario's capture time plus what passed since, plus every "next scan" step. */
  now: () => Date;
  /** Index of the scenario step the cluster shows now. */
  readonly step: number;
  /** POST a raw Slack request body to the bot's request URL, signed as Slack signs it. */
  send(body: string): Promise<{ status: number; body: string }>;
  /**
   * Move time (and a replay to its next step; the live cluster's controllers one step), then scan
   * through the scan queue as a scheduled tick does.
   */
  nextScan(): Promise<void>;
  /**
   * Prometheus alerts about the cluster's current symptoms (and one about an unrelated pod), posted to
   * the bot's `POST /alertmanager` as Alertmanager would (sandbox/create-prometheus-alerts.ts).
   */
  sendPrometheusAlerts(): Promise<{ status: number; alerts: number }>;
  /** The simulated Kubernetes API servers of a live scenario (workload, then management when split). */
  kube: FakeKubeApi[];
  stop(): Promise<void>;
}

/**
 * The sandbox's composition root for one scenario: the real Bolt app (HTTP receiver with the request
 * checks and replay guard, every listener), the real workers (scan, notify, remediate, expiry on
 * BullMQ) and the real approval flow, wired exactly as `serve` wires them (cli/run-serve.ts), with
 * three differences: the Slack Web API is the sandbox's (start-sandbox-slack.ts), the cluster is a
 * bundled scenario (a `dump:` directory, or for the live scenario the simulated Kubernetes API server
 * serving it), and time is simulated (the scenario's capture time, moved by "next scan").
 * Everything else — stores, Lua scripts, queues, signatures, policy — is the production code.
 */
export async function startSandbox(opts: SandboxSessionOptions): Promise<SandboxSession> {
  const { scenario, slack } = opts;
  const dir = await mkdtemp(path.join(tmpdir(), 'k8s-health-sandbox-'));
  // Also when the process ends without stop() (run-sandbox.ts exits at once if its store dies).
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeDir);
  const started = Date.now();
  const base = Date.parse(scenario.collectedAt[0] ?? '') || started;
  let skippedMs = 0;
  const now = () => new Date(base + (Date.now() - started) + skippedMs);
  opts.setClock(now);
  let step = 0;

  // The cluster: a replay is a symlink that "next scan" moves (a dump: path is re-read every scan);
  // the live scenario is a simulated API server per side, remediation enabled.
  const kube: FakeKubeApi[] = [];
  const current = path.join(dir, 'current');
  let cluster: Record<string, unknown>;
  let controllers: SimulatedControllers | undefined;
  if (scenario.live) {
    const split = (await readdir(scenario.steps[0]!)).includes('management');
    kube.push(await startFakeKubeApi({ dir: scenario.steps[0], cluster: 'workload' }));
    if (split) kube.push(await startFakeKubeApi({ dir: scenario.steps[0], cluster: 'management' }));
    controllers = createSimulatedControllers({ workload: kube[0]!, management: kube[1] ?? kube[0]! });
    const kubeconfigs = await Promise.all(
      kube.map((k, i) => writeKubeconfig(dir, i === 0 ? 'workload' : 'management', k.url)),
    );
    cluster = {
      workload: { kubeconfig: kubeconfigs[0] },
      ...(kubeconfigs[1] ? { management: { kubeconfig: kubeconfigs[1] } } : {}),
      remediation: { enabled: true },
    };
  } else {
    await symlink(scenario.steps[0]!, current);
    cluster = { dump: current };
  }
  const config = parseConfig(
    {
      clusters: [
        {
          name: scenario.name,
          ...cluster,
          slack: { alertChannel: SANDBOX_CHANNEL.id, channels: [SANDBOX_CHANNEL.id] },
          approvers: { users: SANDBOX_APPROVERS },
        },
      ],
      slack: { teamId: SANDBOX_TEAM_ID },
      // Scans come from "next scan" and from commands; the schedule would tick once a day.
      // No leases (fleet mode, docs/fleet.md): one process, and a watch event must not scan between steps.
      scan: { intervalSeconds: 86_400, freshSeconds: 30, resolveAfterScans: 2, leases: false },
      approvals: { required: 2, ttlMinutes: 30, confirmByTyping: true },
    },
    dir,
  );
  const signingSecret = randomBytes(24).toString('hex');
  // The Alertmanager webhook's bearer token (K8S_HEALTH_ALERTMANAGER_TOKEN in serve): random per session.
  const alertmanagerToken = randomBytes(24).toString('hex');
  // K8S_HEALTH_PLAN_SECRET: random per session, never shown.
  const signer = createPlanSigner(randomBytes(32).toString('hex'));
  const redis = new Redis(opts.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  const log = opts.log.child({ scenario: scenario.name });
  const metrics = createMetrics({ defaultMetrics: false });
  let jobs: WorkerSet | undefined;
  // The jobs side composed as serve and worker compose it (compose/compose-jobs.ts); notify posts
  // keep Slack's pace of about one message per second per channel, a little quicker here.
  // One approver check (its group cache) for the Slack app and the workers, as in serve.
  const isAuthorized = createApprovalAuthorizer({ log });
  const composed = composeJobs({
    config,
    redisUrl: opts.redisUrl,
    slack: { token: slack.token, apiUrl: slack.apiUrl },
    log,
    now,
    signer,
    channelIntervalMs: 250,
    isAuthorized,
  });
  const reports = createReportStore(redis, { keyPrefix: KEY_PREFIX, now });
  const slackDeps = composeSlackDeps({
    redis,
    keyPrefix: KEY_PREFIX,
    config,
    signer,
    jobs: composed,
    reports,
    metrics,
    now,
    log,
    isAuthorized,
    scan: (name) => (jobs ? jobs.scan(name) : Promise.reject(new Error('the workers are starting'))),
  });

  const { app } = await createSlackApp({
    botToken: slack.token,
    signingSecret,
    apiUrl: slack.apiUrl,
    logLevel: 'error',
    logger: log,
    replayGuard: createReplayGuard(redis, {
      keyPrefix: KEY_PREFIX,
      onReplay: () => log.warn('replayed Slack request ignored'),
    }),
    requestPolicy: config.slack,
    onRefused: (r) => log.warn({ status: r.status, reason: r.reason, detail: r.detail }, 'slack request refused'),
    // POST /alertmanager on the same port, as in serve (docs/alertmanager.md).
    customRoutes: [
      createAlertmanagerRoute({
        token: alertmanagerToken,
        maxBodyBytes: config.alertmanager.maxBodyBytes,
        maxAlertsPerRequest: config.alertmanager.maxAlertsPerRequest,
        enqueue: composed.enqueueAlertmanager,
        log,
        now,
      }),
    ],
  });
  registerListeners(app, slackDeps);
  jobs = await composed.start();
  // Loopback only: the receiver is reached by the sandbox's page server, never from outside.
  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  const eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  const clusterConfig = config.clusters[0]!;

  const scan = async () => {
    await jobs!.scan(clusterConfig.name);
  };
  // The first scan is the scheduler's: BullMQ runs an `every` scheduler's first job at once. Wait
  // for its report (a second scan now would only add a reply to some threads); scan if it never lands.
  for (const deadline = Date.now() + 15_000; !(await reports.latest(clusterConfig.name));) {
    if (Date.now() > deadline) {
      await scan();
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    scenario,
    config,
    cluster: clusterConfig,
    now,
    get step() {
      return step;
    },
    kube,
    async send(body) {
      const signed = signSlackBody(signingSecret, body);
      const res = await fetch(eventsUrl, { method: 'POST', headers: signed.headers, body: signed.body });
      return { status: res.status, body: await res.text() };
    },
    async sendPrometheusAlerts() {
      const stored = await reports.latest(clusterConfig.name);
      const body = createPrometheusAlerts(clusterConfig.name, stored?.report.findings ?? [], now());
      const res = await fetch(eventsUrl.replace(/\/slack\/events$/, '/alertmanager'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${alertmanagerToken}` },
        body,
      });
      await res.text();
      return { status: res.status, alerts: (JSON.parse(body) as { alerts: unknown[] }).alerts.length };
    },
    async nextScan() {
      let target = now().getTime() + SANDBOX_SCAN_STEP_MINUTES * 60_000;
      if (step + 1 < scenario.steps.length) {
        step += 1;
        // Swap the symlink atomically: a scan never sees the dump path missing.
        const next = path.join(dir, `next-${step}`);
        await symlink(scenario.steps[step]!, next);
        await rename(next, current);
        target = Math.max(target, Date.parse(scenario.collectedAt[step] ?? '') || 0);
      }
      skippedMs += target - now().getTime();
      // The live cluster's controllers take their step in the time that passed (they move only once
      // the approved fix unblocked them: create-simulated-controllers.ts).
      for (const line of controllers?.reconcile(now()) ?? [])
        log.info({ cluster: scenario.name }, `prod cluster: ${line}`);
      await scan();
    },
    async stop() {
      await app.stop().catch(() => undefined);
      await (jobs ?? composed).close();
      await Promise.all(kube.map((k) => k.close()));
      await redis.quit().catch(() => redis.disconnect());
      process.off('exit', removeDir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A kubeconfig file for a simulated API server (plain HTTP on loopback, a token it ignores). */
async function writeKubeconfig(dir: string, name: string, server: string): Promise<string> {
  const file = path.join(dir, `${name}.kubeconfig`);
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: { token: 'sandbox' } }],
    contexts: [{ name, context: { cluster: name, user: name } }],
    'current-context': name,
  };
  await writeFile(file, stringify(kubeconfig), { mode: 0o600 });
  return file;
}
