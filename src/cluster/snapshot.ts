/**
 * The Snapshot: one immutable, typed view of a cluster at a time (docs/design.md "How data moves").
 * Produced by cluster/ (a dump directory or a live cluster), consumed by the pure diagnose/ layer.
 *
 * Kubernetes objects keep their real shape (metadata/spec/status) so analyzers quote real field
 * names in their evidence; `spec`/`status` are loosely typed because CAPI v1beta1 and v1beta2 differ.
 * Pods and events are compact projections (never whole objects) so large clusters stay light.
 */

export interface OwnerReference {
  apiVersion?: string;
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

/** Any Kubernetes object as read from the API or a dump (managedFields are dropped on read). */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [field: string]: any;
}

export interface ContainerStateProjection {
  name: string;
  ready: boolean;
  restartCount: number;
  /** e.g. { reason: 'ImagePullBackOff', message: '...' } */
  waiting?: { reason?: string; message?: string };
  terminated?: { reason?: string; exitCode?: number; finishedAt?: string };
  lastTerminated?: { reason?: string; exitCode?: number; finishedAt?: string };
}

/** Compact projection of a Pod: only what analyzers and reports use. */
export interface PodProjection {
  namespace: string;
  name: string;
  uid?: string;
  nodeName?: string;
  phase?: string;
  /** status.reason, e.g. NodeLost */
  reason?: string;
  message?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  /** claimName of every persistentVolumeClaim volume */
  pvcNames: string[];
  /** status.conditions, reduced */
  conditions: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];
  containers: ContainerStateProjection[];
  /** resources.requests.memory summed over containers, bytes (for "top memory users") */
  memoryRequestBytes?: number;
  priorityClassName?: string;
}

/** Compact projection of a core/v1 (or events.k8s.io/v1) Event. */
export interface EventProjection {
  /** Which cluster the event was read from. */
  origin: 'workload' | 'management';
  namespace?: string;
  name?: string;
  type?: string;
  reason?: string;
  message?: string;
  count: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  involvedObject: { kind?: string; namespace?: string; name?: string; uid?: string };
  source?: string;
}

export interface EtcdMember {
  /** uint64 as an exact decimal string (never through a lossy JSON.parse). */
  id: string;
  name: string;
  peerURLs: string[];
  clientURLs: string[];
  isLearner: boolean;
}

export interface EtcdEndpointStatus {
  endpoint: string;
  memberId?: string;
  /** Member id this endpoint believes is leader; absent when it knows none. */
  leader?: string;
  raftTerm?: string;
  raftIndex?: string;
  raftAppliedIndex?: string;
  version?: string;
  dbSize?: number;
  isLearner?: boolean;
  errors: string[];
  /**
   * The member answered, but the output does not say whom it follows: etcdctl's text output marks only the
   * leader's row (IS LEADER), and the leader was not among the endpoints asked. Not "no leader": a member
   * without one says "etcdserver: no leader" in ERRORS (3.4+), and a committed proposal proves one.
   */
  leaderNotShown?: boolean;
}

export interface EtcdEndpointHealth {
  endpoint: string;
  health: boolean;
  took?: string;
  error?: string;
}

/** An etcdctl command whose output a dump may hold (DIR/etcd/<command with dashes>.json|.txt|.err). */
export type EtcdCommand = 'member list' | 'endpoint status' | 'endpoint health' | 'alarm list';

/**
 * What an etcd command said when it failed: a line of etcdctl's stderr (dump `etcd/<command>.err`,
 * or error text saved instead of JSON) or a failed live probe. `endpoint` names the member's client
 * URL when the error is about one endpoint: that endpoint was queried and did not answer, which is
 * evidence (unlike an endpoint nobody asked).
 */
export interface EtcdCommandError {
  command: EtcdCommand;
  endpoint?: string;
  error: string;
}

export interface EtcdState {
  source: 'etcdctl' | 'live';
  members: EtcdMember[];
  endpoints: EtcdEndpointStatus[];
  health: EtcdEndpointHealth[];
  /** Active alarms; `alarm` is etcd's name (NOSPACE, CORRUPT). */
  alarms: { memberId: string; alarm: string }[];
  /** Commands that failed, with etcdctl's words; absent when every command answered. */
  errors?: EtcdCommandError[];
}

/** What a control-plane pod's log says about etcd (see cluster/dump/scan-control-plane-log.ts). */
export type LogSignalKind =
  /** etcd: "serving /health false; no leader", "lost leader", "no leader at term", an election that never ends. */
  | 'no-leader'
  /** etcd: "elected leader", "became leader": a leader exists again from this line on. */
  | 'leader'
  /** etcd or apiserver: the space quota alarm ("database space exceeded", "alarm NOSPACE"). */
  | 'nospace'
  /** etcd: data corruption detected (CORRUPT alarm, hash mismatch). */
  | 'corrupt'
  /** kube-apiserver: etcd answered "no leader" or did not answer at all (deadline, connection refused). */
  | 'etcd-unavailable'
  /** kube-apiserver: its own /readyz or /healthz printed "[-]etcd failed". */
  | 'readyz-etcd-failed';

export interface LogSignal {
  kind: LogSignalKind;
  /** The log line, verbatim (runtime wrappers removed), at most 500 characters. */
  line: string;
  /** ISO time of the line when it carries one. */
  time?: string;
}

/**
 * Lines of one control-plane pod's `logs.txt` (kubectl cluster-info dump layout) that say something
 * about etcd, in log order. Only recognised lines are kept, the last ones of each kind.
 */
export interface ControlPlaneLog {
  namespace: string;
  pod: string;
  component: 'etcd' | 'kube-apiserver';
  signals: LogSignal[];
}

export interface ReadyzCheck {
  name: string;
  ok: boolean;
  message?: string;
}

export interface ApiServerState {
  reachable: boolean;
  /** Whole /readyz?verbose passed. */
  ready?: boolean;
  checks: ReadyzCheck[];
  /** Error text when unreachable or /readyz failed, e.g. "etcdserver: no leader". */
  error?: string;
}

/** Cluster API objects, from the management cluster (or the cluster itself when self-managed). */
export interface CapiObjects {
  clusters: KubeObject[];
  machines: KubeObject[];
  machineSets: KubeObject[];
  machineDeployments: KubeObject[];
  kubeadmControlPlanes: KubeObject[];
  machineHealthChecks: KubeObject[];
  tanzuKubernetesClusters: KubeObject[];
}

/** Whether a kind's objects in a snapshot stand for the cluster (defect class 9: green means checked). */
export interface KindCoverage {
  /**
   * `read`: listed (possibly empty) from the API server, or present in the capture;
   * `failed`: the list failed (forbidden, API server unreachable, a support bundle's `*-errors.json`);
   * `missing`: the capture does not hold it (kubectl cluster-info dump has no webhook configurations).
   */
  state: 'read' | 'failed' | 'missing';
  /** Why it was not read, one line: "forbidden — grant list …", "not in the capture". */
  why?: string;
}

export interface PartialEntry {
  /** What could not be read: a file path, "list machines.cluster.x-k8s.io", "etcd 10.0.0.11:2379", ... */
  source: string;
  error: string;
}

export interface Snapshot {
  cluster: string;
  /**
   * ISO time the data was collected: the live read time, a dump's meta.json collectedAt, else the newest
   * time the cluster wrote into the capture (see collectedAtFrom); '' when no time is known at all.
   */
  collectedAt: string;
  /**
   * How collectedAt is known (defect class 8): `recorded` by the collector (live read, meta.json);
   * `data`: a capture without meta.json was taken at or after the newest time written in it (events,
   * conditions, managedFields), which collectedAt is; `unknown`: no time anywhere, collectedAt is '' and
   * age-based findings say so instead of guessing. Absent means `recorded`. Never the directory's mtime.
   */
  collectedAtFrom?: 'recorded' | 'data' | 'unknown';
  origin: 'dump' | 'live';
  // --- workload cluster ---
  nodes: KubeObject[];
  pods: PodProjection[];
  /** Events of both clusters; see EventProjection.origin. */
  events: EventProjection[];
  namespaces: KubeObject[];
  services: KubeObject[];
  endpoints: KubeObject[];
  deployments: KubeObject[];
  daemonSets: KubeObject[];
  statefulSets: KubeObject[];
  replicaSets: KubeObject[];
  validatingWebhooks: KubeObject[];
  mutatingWebhooks: KubeObject[];
  volumeAttachments: KubeObject[];
  persistentVolumeClaims: KubeObject[];
  /** policy/v1 PodDisruptionBudgets (the budget that refuses a drain's evictions). */
  podDisruptionBudgets: KubeObject[];
  /**
   * CustomResourceDefinitions as a compact projection (metadata, spec.group, spec.names.kind, spec.scope,
   * version names): enough to tell which CRDs were installed or changed, never their schemas.
   */
  customResourceDefinitions: KubeObject[];
  // --- Cluster API (management) ---
  capi: CapiObjects;
  etcd?: EtcdState;
  apiserver?: ApiServerState;
  /** etcd and kube-apiserver pod logs of a `kubectl cluster-info dump` tree (dumps only; absent when none). */
  controlPlaneLogs?: ControlPlaneLog[];
  /** Parts that could not be read and why (reported, never silently dropped). */
  partial: PartialEntry[];
  /**
   * Per kind (KindSpec.kind, e.g. "ValidatingWebhookConfiguration"): was it read, did its list fail, or
   * does the capture not hold it. A section whose kinds were not read is `unknown`, never healthy.
   * Absent on snapshots built by hand (tests): a kind then counts as read when objects of it are present.
   */
  coverage?: Record<string, KindCoverage>;
}

/** An empty snapshot, the starting point for loaders and tests. */
export function createEmptySnapshot(cluster: string, collectedAt: string, origin: Snapshot['origin']): Snapshot {
  return {
    cluster,
    collectedAt,
    origin,
    nodes: [],
    pods: [],
    events: [],
    namespaces: [],
    services: [],
    endpoints: [],
    deployments: [],
    daemonSets: [],
    statefulSets: [],
    replicaSets: [],
    validatingWebhooks: [],
    mutatingWebhooks: [],
    volumeAttachments: [],
    persistentVolumeClaims: [],
    podDisruptionBudgets: [],
    customResourceDefinitions: [],
    capi: {
      clusters: [],
      machines: [],
      machineSets: [],
      machineDeployments: [],
      kubeadmControlPlanes: [],
      machineHealthChecks: [],
      tanzuKubernetesClusters: [],
    },
    partial: [],
  };
}
