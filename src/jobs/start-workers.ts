import type { WebClient } from '@slack/web-api';
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AlertStateStore } from '../alerts/alert-state-store.js';
import type { ApprovalRequest } from '../approvals/approval-request.js';
import type { AnswerCardStore } from '../store/answer-card-store.js';
import { refreshAlertParent, type PostAlertDeps } from '../slack/post/post-alert.js';
import type { InPlaceStore } from '../store/in-place-store.js';
import { listInPlace } from '../slack/post/list-in-place.js';
import { prometheusOnParent } from '../slack/post/prometheus-on-parent.js';
import type { Incident } from '../alerts/incident.js';
import type { FleetIncident } from '../alerts/fleet-incident.js';
import type { FleetIncidentStore } from '../alerts/fleet-incident-store.js';
import type { WatchCaches } from '../cluster/live/create-watch-caches.js';
import type { ClusterConfig, Config } from '../config/config-schema.js';
import type { History } from '../diagnose/history.js';
import type { ActionContext } from '../approvals/execute/action-context.js';
import type { ApprovalBackups, ApprovalStore, AuditLog } from '../approvals/approval-stores.js';
import type { PlanSigner } from '../approvals/plan-signer.js';
import type { ScanDeps } from '../scan/scan-cluster.js';
import type { ChannelLimiter } from '../slack/post/create-channel-limiter.js';
import type { AlertQuietStore } from '../alerts/alert-quiet-store.js';
import type { AlertThreadStore } from '../alerts/alert-thread-store.js';
import { isConfiguredChannel } from '../slack/post/is-configured-channel.js';
import type { HomeViewersStore } from '../store/home-viewers-store.js';
import { createApprovalAuthorizer } from '../slack/handle/handle-approval-authorizer.js';
import { refreshAppHomes } from '../slack/post/publish-app-home.js';
import type { BaselineStore } from '../store/baseline-store.js';
import type { ProposalStore } from '../store/proposal-store.js';
import type { ReportStore } from '../store/report-store.js';
import type { WorkerMetrics } from './create-worker-metrics.js';
import { startNotifyWorker } from './workers/notify.js';
import { startProposeWorker } from './workers/propose.js';
import { startRemediateWorker } from './workers/remediate.js';
import { runScanJob, startScanWorker } from './workers/scan.js';
import { scheduleScans } from './schedule-scans.js';
import { startFleetScans, type FleetScans, type FleetScansOptions } from './start-fleet-scans.js';
import { isLeasedCluster } from './is-leased-cluster.js';
import { startApprovalExpiry } from './workers/expiry.js';
import { startAlertsWorker } from './workers/alerts.js';
import type { AlertReceiptStore } from '../alertmanager/alert-receipt-store.js';
import type { WorkerKind } from './worker-kinds.js';
import type { Logger } from '../log/logger.js';
import type { Report } from '../report/report.js';

/** The queues of the bot (created by the composition root on one connection). */
export interface JobQueues {
  scan: Queue;
  notify: Queue;
  remediate: Queue;
  propose: Queue;
  approvals: Queue;
  /** Alertmanager notifications (serve's `POST /alertmanager`). */
  alerts: Queue;
}

/** The stores the workers use (created by the composition root). */
export interface JobStores {
  reports: ReportStore;
  alerts: AlertStateStore;
  threads: AlertThreadStore<Incident>;
  /** Owners and snoozes of alert threads: honoured by the notify workers. */
  quiet: AlertQuietStore;
  /** Who opened the App Home recently: re-published when a cluster's alerts change. */
  homeViewers: HomeViewersStore;
  /** Posted answer cards: marked outdated when an incident they show resolves. */
  answers?: AnswerCardStore;
  /** Reversible fixes still in place (the thread says so until their undo runs). */
  inPlace?: InPlaceStore;
  history: History;
  /** Last healthy fingerprint per cluster and the changes since ("what changed"). */
  baselines: BaselineStore;
  approvals: ApprovalStore;
  audit: AuditLog;
  backups: ApprovalBackups;
  proposals: ProposalStore;
  /** Prometheus alerts: receipts (each shown once), where each is shown, thread tallies. */
  receipts: AlertReceiptStore;
  /** Fleet incidents (docs/fleet.md); absent: every incident keeps a thread of its own. */
  fleetIncidents?: FleetIncidentStore<FleetIncident>;
}

/**
 * Slack Web API clients of the workers, each tuned to its job (absent: no bot token — alerts are
 * tracked but not posted, remediation and proposals do not run, expiry still expires).
 */
export interface JobSlackClients {
  /** Alert threads: 429s come back (rejectRateLimitedCalls) so the shared Redis limiter honours Retry-After. */
  notify: WebClient;
  /** Remediation results and proposals: few, must arrive (the client's own retries). */
  results: WebClient;
  /** The expiry sweep: no retries, a tick stays short (the next sweep is the retry). */
  expiry: WebClient;
}

/** What {@link startWorkers} needs: everything created and passed in by the composition root. */
export interface WorkerDeps {
  config: Config;
  /** The BullMQ connection (maxRetriesPerRequest: null, docs/development.md "Stack notes"). */
  connection: Redis;
  /** BullMQ prefix; store keys use `<prefix>:`. */
  prefix: string;
  queues: JobQueues;
  stores: JobStores;
  slack?: JobSlackClients;
  limiter: ChannelLimiter;
  /** This process's watch caches (scan.watch), for scans and metrics. */
  watchCaches?: WatchCaches;
  /** K8S_HEALTH_PLAN_SECRET's signer: plans signed and verified, audit records MACed. */
  signer: PlanSigner;
  /** Live access to a cluster for proposals and remediations (createActionContext in production). */
  createContext: (cluster: ClusterConfig) => Promise<ActionContext>;
  /** Which workers to run. */
  kinds: readonly WorkerKind[];
  /** A fresh scan through the scan queue (the alerts worker's, for an alert no finding explains yet). */
  scan?: (cluster: string) => Promise<Report>;
  /**
   * The process's approver check for App Home refreshes (approvers.users, or approvers.groups through Slack); default:
   * one built here.
   */
  isAuthorized?: ReturnType<typeof createApprovalAuthorizer>;
  scanConcurrency?: number;
  notifyConcurrency?: number;
  flapWindowMinutes?: number;
  collect?: ScanDeps['collect'];
  now: () => Date;
  log: Logger;
  metrics?: WorkerMetrics;
  /**
   * Fleet mode (scan.leases with scan.watch): the lease store; live clusters are then scanned by the
   * worker holding their lease (jobs/start-fleet-scans.ts) instead of the BullMQ schedulers.
   */
  leases?: Pick<FleetScansOptions, 'store' | 'clusters' | 'clusterOf' | 'id'>;
}

/** What {@link startWorkers} started. */
export interface StartedWorkers {
  workers: Worker[];
  /** Fleet mode's leases and owned scans (stop it before the workers close). */
  fleet?: FleetScans;
}

/** Notify retries: 1 s, 2 s, 4 s … capped at one minute (never given up quickly: Slack outages pass). */
function backoffStrategy(attemptsMade: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attemptsMade - 1));
}

/**
 * The BullMQ workers of one process (used by `worker` and by `serve` unless --no-workers), the ones
 * `kinds` names: scan (with the per-cluster schedulers, stale ones removed), notify, remediate (with
 * fix proposals) and expiry. Nothing is created here but the Workers themselves: connections, queues,
 * stores and Slack clients come from the composition root (compose/compose-jobs.ts). State lives in Redis
 * only, so any number of these processes share the work and any of them may restart.
 */
export async function startWorkers(deps: WorkerDeps): Promise<StartedWorkers> {
  const { connection, prefix, stores, log, now } = deps;
  const runs = (kind: WorkerKind) => deps.kinds.includes(kind);
  const workers: Worker[] = [];
  // Built once for the process: one approver check (its group cache) serves the App Home refreshes of
  // the scan and propose workers. The remediate worker keeps a check of its own on purpose: its
  // execution-time re-check must not reuse a group lookup made for a vote moments before.
  const authorizer = deps.isAuthorized ?? createApprovalAuthorizer({ log });
  const homes = {
    config: deps.config,
    reports: stores.reports,
    approvals: stores.approvals,
    viewers: stores.homeViewers,
    isAuthorized: authorizer,
    now,
    log,
  };
  let fleet: FleetScans | undefined;
  if (runs('scan')) {
    const fleetMode =
      deps.leases !== undefined && deps.watchCaches !== undefined && deps.config.scan.watch && deps.config.scan.leases;
    const leased = (c: ClusterConfig) => fleetMode && isLeasedCluster(deps.config, c);
    const { scheduled, removed } = await scheduleScans(deps.queues.scan, deps.config, { leased });
    log.info({ scheduled, removed }, 'scan schedulers');
    // A scan that still had to list (watch not open yet, or refused) says so in the log.
    const onCollected = (i: { cluster: string; cachedKinds: number; listedKinds: number }) => {
      if (i.listedKinds > 0)
        log.info(
          { cluster: i.cluster, cachedKinds: i.cachedKinds, listedKinds: i.listedKinds },
          'scan listed kinds the watch cache does not hold yet',
        );
    };
    const collect = deps.watchCaches ? { ...deps.collect, watchCaches: deps.watchCaches, onCollected } : deps.collect;
    // App Home tabs opened recently are re-published when a cluster's alerts change.
    const slackClients = deps.slack;
    const onAlertsChanged = slackClients
      ? async () => void (await refreshAppHomes(homes, slackClients.results))
      : undefined;
    // With a bot token, alert changes are queued for the notify workers (here or in another process).
    const scanDeps = {
      config: deps.config,
      history: stores.history,
      baselines: stores.baselines,
      reports: stores.reports,
      alerts: stores.alerts,
      notifyQueue: deps.slack ? deps.queues.notify : undefined,
      onAlertsChanged,
      flapWindowMinutes: deps.flapWindowMinutes,
      fleet: stores.fleetIncidents,
      now,
      collect,
    };
    workers.push(
      startScanWorker({
        connection,
        prefix,
        concurrency: deps.scanConcurrency ?? 5,
        settings: { backoffStrategy },
        log,
        deps: scanDeps,
      }).worker,
    );
    if (fleetMode) {
      fleet = startFleetScans({
        ...deps.leases!,
        config: deps.config,
        watchCaches: deps.watchCaches!,
        concurrency: deps.scanConcurrency ?? 5,
        log,
        metrics: deps.metrics,
        scan: (cluster) => runScanJob({ cluster }, { ...scanDeps, log: log.child({ cluster, owner: true }) }),
      });
    }
  }
  // Reversible changes still in place, each with whether its backend still looks down in the latest report.
  const inPlaceOf = stores.inPlace ? listInPlace(stores.inPlace, stores.reports) : undefined;
  // What posting and re-rendering an alert thread needs: one set for the notify worker, the parents a
  // fix that ran re-renders, and the Prometheus tally's re-render, so every path checks the same channels.
  const alertPost: PostAlertDeps | undefined = deps.slack && {
    client: deps.slack.notify,
    threads: stores.threads,
    quiet: stores.quiet,
    limiter: deps.limiter,
    proposals: stores.proposals,
    fleet: stores.fleetIncidents,
    fixesRan: (keys: readonly string[]) => stores.approvals.fixesRan(keys),
    answers: stores.answers,
    inPlace: inPlaceOf,
    prometheusTally: (channel: string, ts: string) =>
      prometheusOnParent(stores.receipts, channel, ts, Boolean(deps.config.alertmanager.url)),
    now,
    log,
    channelAllowed: (cluster: string, channel: string) => isConfiguredChannel(deps.config, cluster, channel),
  };
  if (runs('notify')) {
    if (alertPost) {
      workers.push(
        startNotifyWorker({
          ...alertPost,
          connection,
          prefix,
          queue: deps.queues.notify,
          concurrency: deps.notifyConcurrency ?? 4,
          settings: { backoffStrategy },
        }).worker,
      );
    } else if (deps.config.clusters.some((c) => c.slack.alertChannel)) {
      log.warn('no SLACK_BOT_TOKEN: alert threads are tracked but not posted by this process');
    }
  }
  if (runs('remediate')) {
    if (deps.slack) {
      // Approved remediations run wherever this worker runs (`worker`, `worker --only remediate`, or
      // serve without --no-workers). Exactly-once is the approval store's compare-and-set, whichever
      // process takes the job. Not ready (no K8S_HEALTH_PLAN_SECRET): every approved request is refused
      // by the executor; the composition root warns about it once at startup.
      const slackResults = deps.slack.results;
      // A fix that ran: the alert parents offering it are re-rendered at once, without its button.
      // Every parent of the cluster is re-rendered: the fix's buttons go, and a reversible change
      // still in place (or undone now) shows (or no longer shows) in its thread.
      const onFixRan = async (req: ApprovalRequest) => {
        if (!alertPost) return;
        const { state } = await stores.alerts.load(req.cluster);
        for (const inc of Object.values(state.incidents))
          await refreshAlertParent(alertPost, inc.cluster, inc.fingerprint);
      };
      const remediate = {
        config: deps.config,
        approvals: stores.approvals,
        audit: stores.audit,
        backups: stores.backups,
        signer: deps.signer,
        createContext: deps.createContext,
        proposals: stores.proposals,
        slack: slackResults,
        connection,
        prefix,
        now,
        log,
        onFixRan,
        inPlace: stores.inPlace,
      };
      workers.push(startRemediateWorker(remediate).worker);
      // Fix-button clicks are planned and dry-run here too: the same credential.
      workers.push(
        startProposeWorker({ ...remediate, onApprovalsChanged: () => refreshAppHomes(homes, slackResults) }).worker,
      );
    } else {
      log.warn('no SLACK_BOT_TOKEN: approved remediations are not run by this process (results are reported in Slack)');
    }
  }
  if (runs('expiry')) {
    // The approval expiry sweep (scheduler `approvals-expiry`) runs with or without a token: requests
    // expire regardless; only updating their Slack messages needs one (see jobs/expire-approvals.ts).
    workers.push(
      (
        await startApprovalExpiry({
          queue: deps.queues.approvals,
          connection,
          prefix,
          approvals: stores.approvals,
          audit: stores.audit,
          slack: deps.slack?.expiry,
          signer: deps.signer,
          now,
          log,
        })
      ).worker,
    );
  }
  if (runs('alerts')) {
    if (deps.slack && alertPost) {
      const alerts = {
        config: deps.config,
        receipts: stores.receipts,
        reports: stores.reports,
        alerts: stores.alerts,
        threads: stores.threads,
        client: deps.slack.notify,
        limiter: deps.limiter,
        scan: deps.scan,
        metrics: deps.metrics,
        now,
        log,
        // The root cause's parent shows "N of M resolved" (slack/post/post-alert.ts refreshAlertParent, under the
        // thread's lock).
        refreshParent: (cluster: string, fingerprint: string) =>
          refreshAlertParent(alertPost, cluster, fingerprint).then(() => undefined),
      };
      workers.push(
        startAlertsWorker({
          ...alerts,
          connection,
          prefix,
          concurrency: deps.notifyConcurrency ?? 4,
          settings: { backoffStrategy },
        }).worker,
      );
    } else {
      log.warn('no SLACK_BOT_TOKEN: Prometheus alerts from Alertmanager are not shown by this process');
    }
  }
  deps.metrics?.attach({ workers, watchCaches: deps.watchCaches, clusters: deps.config.clusters.map((c) => c.name) });
  return { workers, fleet };
}
