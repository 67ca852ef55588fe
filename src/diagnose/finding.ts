/**
 * Findings: the output of diagnosis (docs/design.md "Finding ids" and "Fix catalog").
 * Ids and action names are part of the contract; users, tests and alert threads depend on them.
 */

export const FINDING_IDS = [
  'apiserver.unreachable',
  'etcd.no-leader',
  'etcd.leader-unreachable',
  'etcd.member-mismatch',
  // A raised NOSPACE/CORRUPT alarm, and members the probe never asked (their state is unknown).
  'etcd.alarm',
  'etcd.members-not-queried',
  // Members asked that do not answer while a leader and a quorum are proven: how many more may fail.
  'etcd.quorum-degraded',
  'controlplane.degraded',
  'controlplane.not-self-healing',
  'controlplane.node-not-joined',
  // KCP's EtcdClusterHealthy as etcd evidence when etcd itself was not queried.
  'controlplane.etcd-unhealthy',
  'node.not-ready',
  'node.cni-not-initialized',
  'cni.pod-not-running',
  'webhook.unavailable-blocking',
  'webhook.system-namespaces-not-excluded',
  'capi.machine-stuck-provisioning',
  'capi.machine-stuck-deleting',
  'capi.remediation-looping',
  'capi.mhc-unhealthy',
  'capi.recreation-loop',
  'upgrade.stuck',
  // What holds a Machine deletion or a rollout, named (the cause of capi.machine-stuck-deleting
  // and upgrade.stuck), and remediation that stopped or was paused.
  'capi.drain-blocked',
  'capi.deletion-hook-pending',
  'capi.volume-detach-pending',
  'capi.drain-timeout-unset',
  'capi.rollout-paused',
  'capi.rollout-blocked',
  'capi.remediation-exhausted',
  'capi.remediation-paused',
  'pod.stuck-terminating',
  'volume.multi-attach',
  // Pods that do not work, one finding per namespace: what lets the overall status speak of them.
  'workload.pods-unhealthy',
] as const;
export type FindingId = (typeof FINDING_IDS)[number];

export const ACTION_IDS = [
  'etcd.move-leader',
  'etcd.remove-member',
  'webhook.suspend',
  'webhook.restore',
  'deployment.scale',
  'node.out-of-service',
  'node.delete',
  'pod.force-delete',
  // The undo of node.out-of-service: only ever proposed by the undo button, never by an analyzer.
  'node.remove-out-of-service',
  // Skip a blocked drain / volume-detach wait of one Machine being deleted (Cluster API's exclude
  // annotations), and their undos; pause a MachineHealthCheck's remediation while a loop runs, and resume.
  'machine.skip-drain',
  'machine.wait-for-drain',
  'machine.skip-volume-detach',
  'machine.wait-for-volume-detach',
  'mhc.pause-remediation',
  'mhc.resume-remediation',
] as const;
export type ActionId = (typeof ACTION_IDS)[number];

export type Severity = 'critical' | 'warning' | 'info';
export type Confidence = 'high' | 'medium' | 'low';
export const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

/** Report sections, in display order. Slack's `/k8s-health CLUSTER SECTION` uses these ids. */
export const SECTION_IDS = [
  'apiserver',
  'etcd',
  'controlplane',
  'nodes',
  'machines',
  'upgrades',
  'webhooks',
  'workloads',
] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export const SECTION_TITLES: Record<SectionId, string> = {
  apiserver: 'API server',
  etcd: 'etcd',
  controlplane: 'Control plane',
  nodes: 'Nodes',
  machines: 'Cluster API machines',
  upgrades: 'Upgrades',
  webhooks: 'Webhooks',
  workloads: 'Workloads',
};

export interface FindingSubject {
  kind: string;
  namespace?: string;
  name: string;
}

export interface RemediationProposal {
  action: ActionId;
  /** Concrete parameters, e.g. { targetMemberId: '3319814642761637952' } (uint64 ids as decimal strings). */
  params: Record<string, string | number>;
  /**
   * What the button says, e.g. "Suspend webhook kyverno-resource-validating-webhook-cfg" (≤ 75 chars once rendered).
   */
  label: string;
  /** One line: what can go wrong. */
  risk: string;
}

export interface Finding {
  id: FindingId;
  severity: Severity;
  section: SectionId;
  title: string;
  subject: FindingSubject;
  /**
   * Lines quoting the fields and messages relied on (condition reason/message, event text with count and age,
   * annotations).
   */
  evidence: string[];
  /** The chain from this symptom to its root cause, when the data shows it. */
  cause?: string;
  /** Fingerprints of the findings this one is caused by (root cause first). */
  causedBy?: string[];
  /**
   * On root causes: what the fault is, from evidence that does not depend on the cluster (a webhook's
   * name and service, a node image, an infrastructure error) — the same fault on several clusters has
   * the same key, so their alerts become one fleet incident (diagnose/add-correlation-keys.ts).
   */
  correlationKey?: string;
  /** ISO time the problem started, when known (condition lastTransitionTime, creationTimestamp, first event). */
  since?: string;
  /**
   * ISO time of the first scan that saw this finding without a break: the earliest of the
   * consecutive earlier scans (History) holding its fingerprint, else this scan's analysis time. Set by
   * the scan (scan/stamp-first-seen.ts); Slack shows it as "first seen" when `since` is unknown.
   */
  firstSeen?: string;
  /**
   * Evidence the finding needed but could not see, one short line each ("leader not queried",
   * "member list unavailable: no leader"). Empty or absent when everything it relies on was read.
   */
  missing?: string[];
  /**
   * How much the finding rests on: `high` when every piece of evidence it needs was read, `medium`
   * when some is missing (see `missing`) but what was read points one way, `low` when it is mostly
   * inference. Stamped by the engine: an analyzer may set it, else `missing` decides.
   */
  confidence: Confidence;
  remediations: RemediationProposal[];
  /**
   * Steps for a person, in order, when the fix is not an action of the catalog (etcd.alarm: compact,
   * defrag, disarm). Text only: nothing here is ever executed by the bot.
   */
  steps?: string[];
  /**
   * Exact identifiers the finding is about, for machines reading the JSON: e.g. { leaderMemberId:
   * '18249187646912138824' }. etcd member ids are uint64 as decimal strings; text shows them in hex,
   * as etcdctl does.
   */
  ids?: Record<string, string>;
  /** Stable hash of cluster + id + subject, used to thread alerts. */
  fingerprint: string;
}
