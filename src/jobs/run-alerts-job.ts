import type { AlertStateStore } from '../alerts/alert-state-store.js';
import type { Incident } from '../alerts/incident.js';
import type { AlertThreadStore } from '../alerts/alert-thread-store.js';
import type { AlertReceiptStore, ShownAlert } from '../alertmanager/alert-receipt-store.js';
import { mapAlertCluster } from '../alertmanager/map-alert-cluster.js';
import { matchAlertFinding, type FindingMatch } from '../alertmanager/match-alert-finding.js';
import type { AlertmanagerAlert, AlertmanagerNotification } from '../alertmanager/webhook-payload.js';
import type { ClusterConfig, Config } from '../config/config-schema.js';
import type { Logger } from '../log/logger.js';
import type { Report } from '../report/report.js';
import type { ReportStore } from '../store/report-store.js';
import {
  postPrometheusMessage,
  updatePrometheusMessage,
  type PostPrometheusDeps,
} from '../slack/post/post-prometheus-alert.js';
import {
  renderAlertOverflow,
  renderAlertTally,
  renderOncallPage,
  renderPrometheusAlert,
  type PrometheusAlertContext,
} from '../slack/render/render-prometheus-alert.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { WorkerMetrics } from './create-worker-metrics.js';

/** What one alerts job needs (created by the composition root, passed through startWorkers). */
export interface AlertsJobDeps extends PostPrometheusDeps {
  config: Config;
  receipts: AlertReceiptStore;
  reports: ReportStore;
  alerts: AlertStateStore;
  threads: AlertThreadStore<Incident>;
  /** Re-render a root cause's parent (its "N of M resolved" line); absent: only the tally reply changes. */
  refreshParent?: (cluster: string, rootFingerprint: string) => Promise<void>;
  /** A fresh scan of a cluster (the scan queue), for an alert no finding explains yet. */
  scan?: (cluster: string) => Promise<Report>;
  metrics?: WorkerMetrics;
  now: () => Date;
  log: Logger;
}

/**
 * While the root cause's thread is not posted yet (its notify job is on its way), the job is retried
 * this many times before the alert opens a thread of its own.
 */
export const WAIT_FOR_THREAD_ATTEMPTS = 5;

/** The root cause's thread exists in the alert state but is not posted yet: retry the job shortly. */
export class ThreadNotPostedError extends K8sHealthError {
  override readonly name: string = 'ThreadNotPostedError';
  constructor(cluster: string) {
    super('E_ALERT_THREAD_PENDING', `the root-cause thread of ${cluster} is not posted yet: retried`);
  }
}

/**
 * One Alertmanager notification (docs/alertmanager.md), each alert once: its receipt (group key,
 * fingerprint, startsAt, status) claimed first, so a replayed or repeated notification shows nothing
 * twice and a retried job only what is missing. A firing alert is placed (which cluster; which finding
 * and root cause; after a fresh scan when the report is older than `scan.freshSeconds` and nothing
 * matched) and shown: a reply in its root cause's thread, or a thread of its own. A resolved alert
 * edits the message that showed it. Each thread keeps a tally ("N of M resolved"). Alerts beyond
 * `alertmanager.maxAlertsPerRequest` are said once, in the thread of the first alert.
 */
export async function runAlertsJob(
  deps: AlertsJobDeps,
  n: AlertmanagerNotification,
  ctx: { jobId: string; attemptsMade: number },
): Promise<{ shown: number; repeated: number }> {
  let shown = 0;
  let repeated = 0;
  let first: { channel: string; threadTs: string } | undefined;
  const count = (outcome: string) => deps.metrics?.alertmanagerAlerts.inc({ outcome });
  // Each report is read (or scanned) at most once per job, and each root cause's thread looked up once.
  const cache: JobCache = { reports: new Map(), threads: new Map() };
  const touched: Touched = new Map();
  for (const alert of n.alerts) {
    if (!(await deps.receipts.claim(n.groupKey, alert))) {
      repeated += 1;
      count('repeated');
      const known = await deps.receipts.shown(alert);
      if (known && !first) first = { channel: known.channel, threadTs: known.threadTs };
      continue;
    }
    try {
      const where = await showAlert(deps, alert, cache, ctx.attemptsMade, touched);
      if (where) {
        shown += 1;
        first ??= { channel: where.channel, threadTs: where.threadTs };
      }
      await deps.receipts.done(n.groupKey, alert);
    } catch (err) {
      await deps.receipts.release(n.groupKey, alert);
      throw err;
    }
  }
  for (const key of [...touched.keys()].sort()) {
    const t = touched.get(key)!;
    await refreshTally(deps, t.channel, t.threadTs);
    // The root cause's parent shows "N of M resolved" too (it resolves with the incident, not with its alerts).
    if (t.cluster && t.root && deps.refreshParent) await deps.refreshParent(t.cluster, t.root);
  }
  const more = n.overflow + n.truncatedAlerts;
  // Said and counted once per notification, however often it is retried or replayed.
  if (more > 0 && (await deps.receipts.once(`overflow:${ctx.jobId}`))) {
    deps.metrics?.alertmanagerAlerts.inc({ outcome: 'overflow' }, more);
    const channel = first?.channel ?? deps.config.alertmanager.defaultChannel;
    if (channel) await postPrometheusMessage(deps, channel, renderAlertOverflow(more), first?.threadTs);
    deps.log.warn({ groupKey: n.groupKey, more }, 'alertmanager notification had more alerts than taken');
  }
  return { shown, repeated };
}

/** What one job reads once however many of its alerts need it: reports, and root causes' threads. */
interface JobCache {
  reports: Map<string, Promise<Report | undefined>>;
  threads: Map<string, ReturnType<typeof rootThread>>;
}

async function showAlert(
  deps: AlertsJobDeps,
  alert: AlertmanagerAlert,
  cache: JobCache,
  attemptsMade: number,
  touched: Touched,
): Promise<ShownAlert | undefined> {
  const count = (outcome: string) => deps.metrics?.alertmanagerAlerts.inc({ outcome });
  const before = await deps.receipts.shown(alert);
  if (before) {
    // The same firing, seen again (another group, or its resolution): edit what showed it.
    if (alert.status === 'resolved' && before.status !== 'resolved') {
      count('resolved');
      const ctx: PrometheusAlertContext =
        before.placement === 'joined'
          ? joinedContext(before)
          : {
              placement: 'own',
              reason: before.cluster ? 'no-cause' : 'unknown-cluster',
              ...(before.cluster ? { cluster: before.cluster } : {}),
            };
      await updatePrometheusMessage(
        deps,
        before.channel,
        before.ts,
        renderPrometheusAlert(alert, ctx, { silence: canSilence(deps) }),
      );
      const next = { ...before, status: 'resolved' as const };
      await deps.receipts.saveShown({ ...next, fingerprint: alert.fingerprint });
      await countTally(deps, before, alert, touched);
      return next;
    }
    return before;
  }
  const place = await placeAlert(deps, alert, cache, attemptsMade);
  if (!place) return undefined;
  const message = renderPrometheusAlert(alert, place.ctx, { silence: canSilence(deps) });
  const posted = await postPrometheusMessage(deps, place.channel, message, place.threadTs);
  const record: ShownAlert = {
    ...(place.cluster ? { cluster: place.cluster } : {}),
    channel: posted.channel,
    threadTs: place.threadTs ?? posted.ts,
    ts: posted.ts,
    placement: place.ctx.placement,
    ...(place.rootFingerprint ? { rootFingerprint: place.rootFingerprint } : {}),
    ...(place.ctx.placement === 'joined' ? { finding: place.ctx.finding } : {}),
    labels: alert.labels,
    startsAt: alert.startsAt,
    status: alert.status,
  };
  await deps.receipts.saveShown({ ...record, fingerprint: alert.fingerprint });
  count(
    place.ctx.placement === 'joined' ? 'joined' : place.ctx.reason === 'unknown-cluster' ? 'unknown-cluster' : 'own',
  );
  if (alert.status === 'resolved') count('resolved');
  if (
    place.page &&
    alert.status === 'firing' &&
    place.cluster &&
    (await deps.receipts.once(`oncall:${record.channel}:${record.threadTs}`))
  ) {
    await postPrometheusMessage(
      deps,
      record.channel,
      renderOncallPage(place.page.group, { cluster: place.cluster, title: place.page.title }),
      record.threadTs,
    );
  }
  await countTally(deps, record, alert, touched);
  return record;
}

function joinedContext(before: ShownAlert): PrometheusAlertContext {
  const finding = before.finding ?? { id: 'a finding', title: 'the root cause of this thread' };
  return { placement: 'joined', cluster: before.cluster ?? '', finding, root: finding };
}

interface Placement {
  channel: string;
  threadTs?: string;
  cluster?: string;
  rootFingerprint?: string;
  ctx: PrometheusAlertContext;
  /** A critical root cause: its cluster's on-call group, paged once per thread. */
  page?: { group: string; title: string };
}

async function placeAlert(
  deps: AlertsJobDeps,
  alert: AlertmanagerAlert,
  cache: JobCache,
  attemptsMade: number,
): Promise<Placement | undefined> {
  const am = deps.config.alertmanager;
  const mapped = mapAlertCluster(alert.labels, deps.config.clusters, am.clusterLabel);
  if (!mapped) {
    if (!am.defaultChannel) {
      deps.metrics?.alertmanagerAlerts.inc({ outcome: 'unknown-cluster' });
      deps.log.warn(
        { fingerprint: alert.fingerprint },
        'alertmanager alert of no known cluster and no alertmanager.defaultChannel: not shown',
      );
      return undefined;
    }
    return { channel: routeOf(deps, alert) ?? am.defaultChannel, ctx: { placement: 'own', reason: 'unknown-cluster' } };
  }
  const cluster = mapped.cluster;
  let report = await reportOf(deps, cluster, cache.reports, false);
  let match = report ? matchAlertFinding(alert.labels, report.findings) : undefined;
  if (!match && deps.scan) {
    report = await reportOf(deps, cluster, cache.reports, true);
    match = report ? matchAlertFinding(alert.labels, report.findings) : undefined;
  }
  const ownChannel = routeOf(deps, alert) ?? cluster.slack.alertChannel ?? am.defaultChannel;
  // An alert of its own that is critical is its own root cause: paged like one.
  const ownPage =
    alert.labels.severity === 'critical' && cluster.slack.oncall
      ? { page: { group: cluster.slack.oncall, title: alert.labels.alertname ?? 'Prometheus alert' } }
      : {};
  const own = (): Placement | undefined =>
    ownChannel
      ? {
          channel: ownChannel,
          cluster: cluster.name,
          ctx: { placement: 'own', cluster: cluster.name, reason: 'no-cause' },
          ...ownPage,
        }
      : undefined;
  if (!match) return own();
  const threadKey = `${cluster.name}\n${match.root.fingerprint}`;
  let lookup = cache.threads.get(threadKey);
  if (!lookup) cache.threads.set(threadKey, (lookup = rootThread(deps, cluster.name, match)));
  const thread = await lookup;
  if (thread === 'pending') {
    if (attemptsMade + 1 < WAIT_FOR_THREAD_ATTEMPTS) throw new ThreadNotPostedError(cluster.name);
    return own();
  }
  if (!thread) return own();
  return {
    channel: thread.channel,
    threadTs: thread.ts,
    cluster: cluster.name,
    rootFingerprint: thread.fingerprint,
    ctx: {
      placement: 'joined',
      cluster: cluster.name,
      finding: { id: match.finding.id, title: match.finding.title },
      root: { id: match.root.id, title: match.root.title },
    },
    ...(match.root.severity === 'critical' && cluster.slack.oncall
      ? { page: { group: cluster.slack.oncall, title: match.root.title } }
      : {}),
  };
}

/** The channel of the first `alertmanager.routes` entry for the alert's severity label. */
function routeOf(deps: AlertsJobDeps, alert: AlertmanagerAlert): string | undefined {
  const severity = alert.labels.severity;
  return severity ? deps.config.alertmanager.routes.find((r) => r.severity === severity)?.channel : undefined;
}

/** The thread of the root cause's open incident (following a merge), `pending` while not posted yet. */
async function rootThread(
  deps: AlertsJobDeps,
  cluster: string,
  match: FindingMatch,
): Promise<{ channel: string; ts: string; fingerprint: string } | 'pending' | undefined> {
  const { state } = await deps.alerts.load(cluster);
  let inc = state.incidents[match.root.fingerprint];
  for (let hops = 0; inc?.mergedInto && hops < 5; hops++) inc = state.incidents[inc.mergedInto];
  if (!inc || inc.status !== 'open' || !inc.channel) return undefined;
  const thread = await deps.threads.get(cluster, inc.key);
  return thread ? { channel: thread.channel, ts: thread.ts, fingerprint: inc.fingerprint } : 'pending';
}

/** The cluster's latest report; `fresh`: scanned now unless the stored one is younger than scan.freshSeconds. */
async function reportOf(
  deps: AlertsJobDeps,
  cluster: ClusterConfig,
  reports: Map<string, Promise<Report | undefined>>,
  fresh: boolean,
): Promise<Report | undefined> {
  const key = `${cluster.name}:${fresh}`;
  let p = reports.get(key);
  if (!p) {
    p = (async () => {
      const stored = await deps.reports.latest(cluster.name);
      if (!fresh) return stored?.report;
      const age = stored ? (deps.now().getTime() - Date.parse(stored.storedAt)) / 1000 : Infinity;
      if (age <= deps.config.scan.freshSeconds || !deps.scan) return stored?.report;
      try {
        return await deps.scan(cluster.name);
      } catch (err) {
        deps.log.warn(
          { cluster: cluster.name, err },
          'alertmanager: the scan for an unexplained alert failed; the alert opens its own thread',
        );
        return stored?.report;
      }
    })();
    reports.set(key, p);
  }
  return p;
}

/** Threads whose tally changed in this job (`channel ts`): their tally line is edited once, at the end of the job. */
type Touched = Map<string, { channel: string; threadTs: string; cluster?: string; root?: string }>;

async function countTally(
  deps: AlertsJobDeps,
  shown: ShownAlert,
  alert: AlertmanagerAlert,
  touched: Touched,
): Promise<void> {
  await deps.receipts.tally(shown.channel, shown.threadTs, alert);
  touched.set(`${shown.channel} ${shown.threadTs}`, {
    channel: shown.channel,
    threadTs: shown.threadTs,
    ...(shown.cluster ? { cluster: shown.cluster } : {}),
    ...(shown.placement === 'joined' && shown.rootFingerprint ? { root: shown.rootFingerprint } : {}),
  });
}

/**
 * The tally line of a thread, posted once it has two alerts, then edited: one Slack call per job and thread, not per
 * alert.
 */
async function refreshTally(deps: AlertsJobDeps, channel: string, threadTs: string): Promise<void> {
  const tally = await deps.receipts.getTally(channel, threadTs);
  if (tally.total < 2 && !tally.tallyTs) return;
  const message = renderAlertTally(tally);
  if (tally.tallyTs) await updatePrometheusMessage(deps, channel, tally.tallyTs, message);
  else if (await deps.receipts.once(`tally:${channel}:${threadTs}`)) {
    // One poster opens the tally line; the others edit it once its ts is known.
    const posted = await postPrometheusMessage(deps, channel, message, threadTs);
    await deps.receipts.setTallyTs(channel, threadTs, posted.ts);
    const now = await deps.receipts.getTally(channel, threadTs);
    if (now.total !== tally.total || now.resolved !== tally.resolved)
      await updatePrometheusMessage(deps, channel, posted.ts, renderAlertTally(now));
  }
}

/** Silence buttons only where they can work: Alertmanager's URL is configured. */
function canSilence(deps: AlertsJobDeps): boolean {
  return Boolean(deps.config.alertmanager.url);
}
