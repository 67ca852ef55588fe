/**
 * The config file schema (docs/design.md "Interfaces"): the one place for keys, defaults and docs.
 * Secrets never live here; they come from the environment (see read-env-options.ts).
 */
import { z } from 'zod';
import { DEFAULT_THRESHOLDS as DEFAULT_THRESHOLDS_VALUES } from './defaults.js';
import { parseMatchers } from './parse-alert-matchers.js';

const kubeContext = z.strictObject({
  /**
   * Path to a kubeconfig file; `~` and paths relative to the config file are resolved. Default: the usual kubeconfig
   * lookup.
   */
  kubeconfig: z.string().min(1).optional(),
  /** Context name in that kubeconfig. Default: its current-context. */
  context: z.string().min(1).optional(),
});

const management = kubeContext.extend({
  /** Namespace holding this cluster's Cluster API objects; default: all namespaces. */
  namespace: z.string().min(1).optional(),
  /**
   * The Cluster API `Cluster` this cluster is, when its namespace holds several (its Machines, control
   * plane and events are told apart by it). Default: the namespace's only Cluster; several and none
   * named is an error listing them.
   */
  clusterName: z.string().min(1).optional(),
});

const etcd = z.strictObject({
  /** Client URLs of every etcd member, e.g. https://10.0.0.11:2379 */
  endpoints: z.array(z.string().url()).min(1),
  caFile: z.string().min(1).optional(),
  certFile: z.string().min(1).optional(),
  keyFile: z.string().min(1).optional(),
  /** Per-call deadline for health probes. */
  timeoutMs: z.number().int().min(100).max(60000).default(3000),
});

const slackId = z.string().regex(/^[A-Z0-9]+$/, 'must be a Slack id such as C0ALERTS, U01ABC or S0SRE');

/** A cluster's Slack settings (a configured cluster's, or every cluster of a fleet). */
const clusterSlack = z
  .strictObject({
    /** Channel where alert threads are opened. */
    alertChannel: slackId.optional(),
    /** Channels allowed to query this cluster; empty = any channel. */
    channels: z.array(slackId).default([]),
    /**
     * A Slack user group (S…) mentioned once per incident when a critical root cause gets Prometheus alerts
     * (docs/alertmanager.md).
     */
    oncall: z
      .string()
      .regex(/^S[A-Z0-9]+$/, 'must be a Slack user group id such as S0ONCALL')
      .optional(),
  })
  .default({ channels: [] });

/** Who may approve a fix on the cluster: Slack user ids and user-group ids. */
const approvers = z
  .strictObject({
    users: z.array(slackId).default([]),
    groups: z.array(slackId).default([]),
  })
  .default({ users: [], groups: [] });

/** Fixes stay off until enabled per cluster (or fleet). */
const remediation = z.strictObject({ enabled: z.boolean().default(false) }).default({ enabled: false });

/**
 * How Prometheus alerts are tied to a cluster besides the cluster label (docs/alertmanager.md):
 * Alertmanager matchers, e.g. `{env="prod", region=~"eu-.*"}` or `env=prod`, all of which must match.
 */
const clusterAlertmanager = z.strictObject({
  matchers: z
    .array(z.string().min(1).max(1000))
    .default([])
    .superRefine((list, ctx) => {
      list.forEach((text, i) => {
        try {
          parseMatchers(text, 'matcher');
        } catch (err) {
          ctx.addIssue({ code: 'custom', path: [i], message: err instanceof Error ? err.message : String(err) });
        }
      });
    }),
});

export const clusterSchema = z
  .strictObject({
    /** Unique name used in `/k8s-health NAME` and `--cluster NAME`. */
    name: z.string().regex(/^[a-z0-9-]+$/, 'must match [a-z0-9-]+'),
    /** Read-only dump directory (re-read on every scan; never remediated). Exclusive with `workload`. */
    dump: z.string().min(1).optional(),
    /** How to reach the workload cluster's API server. Exclusive with `dump`. */
    workload: kubeContext.optional(),
    /** The Cluster API management cluster (Supervisor for Tanzu); default: the workload cluster itself. */
    management: management.optional(),
    etcd: etcd.optional(),
    slack: clusterSlack,
    approvers,
    remediation,
    /** Which Prometheus alerts are this cluster's besides `alertmanager.clusterLabel` (docs/alertmanager.md). */
    alertmanager: clusterAlertmanager.optional(),
  })
  .superRefine((c, ctx) => {
    if (!c.dump === !c.workload) {
      ctx.addIssue({ code: 'custom', message: 'exactly one of `dump` or `workload` must be set' });
    }
    if (c.dump && c.remediation.enabled) {
      ctx.addIssue({
        code: 'custom',
        path: ['remediation', 'enabled'],
        message: 'a dump-backed cluster can never be remediated',
      });
    }
  });

const LABEL_KEY = '(?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?';
const LABEL_VALUE = '(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?';
const REQUIREMENT = `\\s*(?:!\\s*${LABEL_KEY}|${LABEL_KEY}\\s*(?:(?:==|!=|=)\\s*${LABEL_VALUE}|\\s(?:in|notin)\\s*\\(\\s*${LABEL_VALUE}(?:\\s*,\\s*${LABEL_VALUE})*\\s*\\))?)\\s*`;

/** A Kubernetes label selector string, as `kubectl get -l` takes it: `env=prod,tier in (a,b),!legacy`. */
const labelSelector = z
  .string()
  .min(1)
  .regex(
    new RegExp(`^${REQUIREMENT}(?:,${REQUIREMENT})*$`),
    'must be a label selector such as env=prod,team in (a,b),!legacy',
  );

/**
 * Fleet mode (docs/fleet.md): every Cluster API `Cluster` of a management cluster, discovered and
 * kept current, instead of one hand-written `clusters:` entry each.
 */
export const fleetSchema = z.strictObject({
  /** Fleet name, shown in `k8s-health clusters` and the logs. */
  name: z.string().regex(/^[a-z0-9-]+$/, 'must match [a-z0-9-]+'),
  /** The management cluster (a CAPI management cluster, a vSphere Supervisor) holding the `Cluster` objects. */
  management: kubeContext.default({}),
  /** Namespaces to look in; empty = every namespace. */
  namespaces: z.array(z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a namespace name')).default([]),
  /** Label selector on the `Cluster` objects (e.g. `k8s-health.io/watch=true`); default: every Cluster. */
  selector: labelSelector.optional(),
  /** Slack settings of every cluster of this fleet (overridable per cluster by annotations, docs/fleet.md). */
  slack: clusterSlack,
  approvers,
  remediation,
  /**
   * Workload access: `enrolled` (default) reads only the read-only kubeconfig Secrets that
   * `k8s-health enroll` stores (`<cluster>-k8s-health-kubeconfig`, label `k8s-health.io/kubeconfig=true`);
   * a cluster without one is diagnosed from the management side only. `capi-admin-secret` reads
   * Cluster API's own admin kubeconfig (`<cluster>-kubeconfig`): for labs only, warned on every start.
   */
  credentials: z.enum(['enrolled', 'capi-admin-secret']).default('enrolled'),
});

const T = DEFAULT_THRESHOLDS_VALUES;
/** Detector thresholds; what each means and its default: config/defaults.ts. */
export const thresholdsSchema = z.strictObject({
  provisioningMinutes: z.number().positive().default(T.provisioningMinutes),
  deletingMinutes: z.number().positive().default(T.deletingMinutes),
  loopReplacements: z.number().int().min(2).default(T.loopReplacements),
  loopWindowMinutes: z.number().positive().default(T.loopWindowMinutes),
  upgradeStuckMinutes: z.number().positive().default(T.upgradeStuckMinutes),
  terminatingGraceMinutes: z.number().positive().default(T.terminatingGraceMinutes),
  notReadyGraceSeconds: z.number().min(0).default(T.notReadyGraceSeconds),
});

/** The Slack workspace (and Enterprise Grid org) the bot serves; requests from any other are refused. */
const slackWorkspace = z.strictObject({
  /**
   * The workspace id (T…, Slack "About this workspace" / auth.test team_id). When set, a request whose
   * team (team_id, team.id, user.team_id) is another is refused with 403, and approvers must be members
   * of it (users.info team_id). Unset: requests are not filtered by team, and approvers must belong to
   * the bot's own workspace (auth.test).
   */
  teamId: z
    .string()
    .regex(/^T[A-Z0-9]+$/, 'must be a Slack workspace id such as T0123ABCD')
    .optional(),
  /**
   * The Enterprise Grid org id (E…). When set, requests must come from that org (enterprise_id,
   * enterprise.id) and approvers must belong to it; set it instead of teamId for an org-wide install.
   */
  enterpriseId: z
    .string()
    .regex(/^E[A-Z0-9]+$/, 'must be a Slack Enterprise Grid org id such as E0123ABCD')
    .optional(),
  /**
   * Where each finding's runbook link points: `<runbookBaseUrl>/docs/diagnosis.md#<anchor of
   * the finding id>`. A URL to the repository's tree (or a docs site serving the same paths), no
   * trailing slash needed. Default: {@link DEFAULT_RUNBOOK_BASE_URL}.
   */
  runbookBaseUrl: z
    .string()
    .url()
    // It goes into Slack's <url|runbook> markup: no space, `<`, `>` or `|` that could end the link early.
    .refine((u) => /^https?:\/\/[^\s<>|]+$/.test(u), 'must be an http(s) URL without spaces, <, > or |')
    .optional(),
});

export { DEFAULT_RUNBOOK_BASE_URL } from './defaults.js';

/** Below this many approvals one person could run a fix; allowed only with approvals.allowSinglePerson. */
export const MIN_APPROVALS = 2;

export const configSchema = z
  .strictObject({
    clusters: z.array(clusterSchema).default([]),
    /** Management clusters whose Cluster API clusters are discovered (docs/fleet.md). */
    fleets: z.array(fleetSchema).default([]),
    /** Which Slack workspace/org may talk to the bot; optional, enforced when set. */
    slack: slackWorkspace.default({}),
    scan: z
      .strictObject({
        /** Seconds between scheduled scans of each cluster; any value ≥ 1 is accepted. */
        intervalSeconds: z.number().min(1).default(60),
        /** A stored report younger than this answers /k8s-health without a fresh scan. */
        freshSeconds: z.number().min(0).default(30),
        /** A finding absent this many consecutive scans resolves its alert thread. */
        resolveAfterScans: z.number().int().min(1).default(3),
        /**
         * While remediation is paused in an alert thread (capi.remediation-paused), remind there at most
         * every this many hours, naming how to resume (docs/alerts.md).
         */
        pausedReminderHours: z.number().positive().default(4),
        /**
         * Live clusters are kept in a watch cache in each worker (list once, then watch with bookmarks):
         * a scan reads current kinds from it and lists only what is not being watched. false: every
         * scan lists every kind (resourceVersion=0). Dump clusters and `check --cluster` always read once.
         */
        watch: z.boolean().default(true),
        /**
         * Fleet mode (docs/fleet.md): with `watch`, each live cluster is owned by exactly one
         * scan worker at a time through a lease in Redis; only the owner watches it and scans it (on its
         * own timer every intervalSeconds, and debounced after each watch event). false: every scan
         * worker may scan any cluster from the BullMQ schedulers (no lease).
         */
        leases: z.boolean().default(true),
        /**
         * Lease lifetime: an owner that stops renewing (kill -9, partition) loses its clusters to the
         * other workers within this many seconds; renewals run every leaseSeconds / 10 (at most 1 s).
         */
        leaseSeconds: z.number().min(2).max(300).default(15),
        /**
         * A watch event re-analyses its cluster after at most this long, and at most once per this
         * many seconds per cluster (changes in between are coalesced into the next scan).
         */
        debounceSeconds: z.number().min(0).max(300).default(2),
        /**
         * A root cause with the same id and correlationKey on two or more clusters of one alert channel
         * within this many seconds is one fleet incident: one thread listing the clusters (docs/fleet.md).
         * 0: never correlate.
         */
        correlateSeconds: z.number().min(0).max(3600).default(60),
      })
      .default({
        intervalSeconds: 60,
        freshSeconds: 30,
        resolveAfterScans: 3,
        pausedReminderHours: 4,
        watch: true,
        leases: true,
        leaseSeconds: 15,
        debounceSeconds: 2,
        correlateSeconds: 60,
      }),
    approvals: z
      .strictObject({
        /**
         * Distinct authorized approvers a fix needs (the proposer never counts); below 2 only with allowSinglePerson.
         */
        required: z.number().int().min(1).max(10).default(2),
        ttlMinutes: z.number().positive().default(30),
        confirmByTyping: z.boolean().default(false),
        /**
         * Accept `required: 1`: then a single approver decides alone (and anyone in the channel can propose),
         * which gives up the two-person rule. Off by default; say it explicitly to accept that risk.
         */
        allowSinglePerson: z.boolean().default(false),
        /**
         * An approved request must START executing within this many minutes of its decisive approval
         * (the signed time of the last vote); later, the executor refuses it (a queued job
         * or a replayed request cannot run long after the people who approved it looked at it).
         */
        executionDeadlineMinutes: z
          .number()
          .positive()
          .max(24 * 60)
          .default(10),
      })
      .default({
        required: 2,
        ttlMinutes: 30,
        confirmByTyping: false,
        allowSinglePerson: false,
        executionDeadlineMinutes: 10,
      }),
    thresholds: thresholdsSchema.default(thresholdsSchema.parse({})),
    /**
     * The bot as Alertmanager's webhook receiver (`POST /alertmanager`, docs/alertmanager.md); the
     * endpoint exists only with K8S_HEALTH_ALERTMANAGER_TOKEN set.
     */
    alertmanager: z
      .strictObject({
        /** A larger webhook body is refused (413, counted); lower `max_alerts` in the receiver instead. */
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
        /** Alerts of one notification taken; the thread says how many more arrived. */
        maxAlertsPerRequest: z.number().int().min(1).max(100_000).default(1000),
        /**
         * The alert label naming the cluster (a configured cluster's name, a fleet cluster's name or namespace/name).
         */
        clusterLabel: z.string().min(1).default('cluster'),
        /** Where an alert of no known cluster is shown (never dropped silently); absent: logged and counted only. */
        defaultChannel: slackId.optional(),
        /**
         * Alertmanager's own URL (its API v2 is under /api/v2): the Silence buttons create silences there; absent: no
         * Silence buttons.
         */
        url: z.string().url().optional(),
        /**
         * Who may silence and expire: Slack user and user-group ids; absent: the cluster's approvers (an alert of no
         * known cluster: nobody).
         */
        silencers: z
          .strictObject({ users: z.array(slackId).default([]), groups: z.array(slackId).default([]) })
          .optional(),
        /**
         * Alerts that open a thread of their own go to the channel of the first route matching their `severity` label
         * (else the cluster's alertChannel).
         */
        routes: z.array(z.strictObject({ severity: z.string().min(1), channel: slackId })).default([]),
      })
      .default({ maxBodyBytes: 1024 * 1024, maxAlertsPerRequest: 1000, clusterLabel: 'cluster', routes: [] }),
  })
  .superRefine((c, ctx) => {
    if (c.approvals.required < MIN_APPROVALS && !c.approvals.allowSinglePerson) {
      ctx.addIssue({
        code: 'custom',
        path: ['approvals', 'required'],
        message: `${c.approvals.required} lets a single approver run a fix on a cluster alone (two-person rule, docs/security.md): use at least ${MIN_APPROVALS}, or set approvals.allowSinglePerson: true to accept that risk`,
      });
    }
  });

/** How a discovered cluster belongs to its fleet (absent on configured clusters). */
export interface FleetMembership {
  /** The fleet's name. */
  fleet: string;
  /** Namespace of the `Cluster` object in the management cluster. */
  namespace: string;
  /** The `Cluster` object's own name (the bot's name is `namespace/name` when two share it). */
  clusterName: string;
  /**
   * A workload kubeconfig was found (the enrolled Secret, or the CAPI admin secret with
   * `credentials: capi-admin-secret`).
   */
  enrolled: boolean;
  credentials: FleetConfig['credentials'];
}

/** Where the workload kubeconfig of a discovered cluster comes from: a Secret's content, held in memory only. */
export interface InlineKubeContext {
  kubeconfig?: string;
  context?: string;
  /** The kubeconfig itself (YAML), read from a Secret; never written to disk, Redis or logs. */
  kubeconfigData?: string;
}

export type ClusterConfig = Omit<z.infer<typeof clusterSchema>, 'workload'> & {
  workload?: InlineKubeContext;
  /** Set on discovered clusters: the fleet, the Cluster object, the credentials. */
  fleet?: FleetMembership;
};
export type Config = Omit<z.infer<typeof configSchema>, 'clusters'> & { clusters: ClusterConfig[] };
export type FleetConfig = z.infer<typeof fleetSchema>;
export type Thresholds = z.infer<typeof thresholdsSchema>;

export const DEFAULT_THRESHOLDS: Thresholds = DEFAULT_THRESHOLDS_VALUES;
