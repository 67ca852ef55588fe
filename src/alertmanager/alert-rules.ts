import type { FindingId, FindingSubject } from '../diagnose/finding.js';

/**
 * Which finding of the bot a Prometheus rule's alert is about (docs/alertmanager.md "Rule names"):
 * the rule names of kubernetes-mixin, kube-state-metrics and etcd-mixin (what kube-prometheus-stack
 * ships), each with the findings that show the same symptom and the object its labels name. An
 * alert joins a finding when the finding's id is listed and its subject is one of `objects(labels)`
 * (no objects: any subject, for cluster-wide symptoms such as etcd's). A rule not listed goes
 * through the generic rule: any finding on the object its labels name (node, namespace/pod, namespace).
 */
export interface AlertRule {
  alertname: string;
  findings: readonly FindingId[];
  /** The objects the alert's labels name, as finding subjects; absent: the cluster as a whole. */
  objects?: (labels: Readonly<Record<string, string>>) => FindingSubject[];
  /** Findings matched whatever their subject (a DaemonSet's pods missing is the CNI pod finding on any node). */
  anySubject?: readonly FindingId[];
}

const NODE_FINDINGS: readonly FindingId[] = [
  'node.not-ready',
  'node.cni-not-initialized',
  'cni.pod-not-running',
  'controlplane.not-self-healing',
];
const POD_FINDINGS: readonly FindingId[] = ['workload.pods-unhealthy', 'pod.stuck-terminating', 'volume.multi-attach'];
const ETCD_FINDINGS: readonly FindingId[] = [
  'etcd.no-leader',
  'etcd.leader-unreachable',
  'etcd.member-mismatch',
  'etcd.quorum-degraded',
  'etcd.members-not-queried',
  'etcd.alarm',
  'controlplane.etcd-unhealthy',
];

/** The node an alert names: kube-state-metrics' `node`, or the kubelet target's `node` / `instance` host. */
export function nodeObjects(labels: Readonly<Record<string, string>>): FindingSubject[] {
  const names = [labels.node, labels.instance?.replace(/:\d+$/, '')].filter((n): n is string => Boolean(n));
  return [...new Set(names)].map((name) => ({ kind: 'Node', name }));
}

/** The pod an alert names, and its namespace (the per-namespace findings). */
export function podObjects(labels: Readonly<Record<string, string>>): FindingSubject[] {
  const ns = labels.namespace;
  if (!ns) return [];
  return [...(labels.pod ? [{ kind: 'Pod', namespace: ns, name: labels.pod }] : []), { kind: 'Namespace', name: ns }];
}

/** The rule-name table (kept in step with docs/alertmanager.md by test/unit/alertmanager-rules.test.ts). */
export const ALERT_RULES: readonly AlertRule[] = [
  { alertname: 'KubeNodeNotReady', findings: NODE_FINDINGS, objects: nodeObjects },
  { alertname: 'KubeNodeUnreachable', findings: NODE_FINDINGS, objects: nodeObjects },
  { alertname: 'KubeletDown', findings: NODE_FINDINGS, objects: nodeObjects },
  { alertname: 'KubePodCrashLooping', findings: POD_FINDINGS, objects: podObjects },
  { alertname: 'KubePodNotReady', findings: POD_FINDINGS, objects: podObjects },
  {
    alertname: 'KubeDeploymentReplicasMismatch',
    findings: ['workload.pods-unhealthy'],
    objects: (l) => (l.namespace ? [{ kind: 'Namespace', name: l.namespace }] : []),
  },
  {
    alertname: 'KubeDaemonSetRolloutStuck',
    findings: ['workload.pods-unhealthy'],
    objects: (l) => (l.namespace ? [{ kind: 'Namespace', name: l.namespace }] : []),
    anySubject: ['cni.pod-not-running'],
  },
  {
    alertname: 'KubeDaemonSetMisScheduled',
    findings: ['workload.pods-unhealthy'],
    objects: (l) => (l.namespace ? [{ kind: 'Namespace', name: l.namespace }] : []),
    anySubject: ['cni.pod-not-running'],
  },
  { alertname: 'etcdNoLeader', findings: ETCD_FINDINGS },
  { alertname: 'etcdMembersDown', findings: ETCD_FINDINGS },
  { alertname: 'etcdInsufficientMembers', findings: ETCD_FINDINGS },
  { alertname: 'etcdHighNumberOfLeaderChanges', findings: ETCD_FINDINGS },
  {
    alertname: 'KubeAPIErrorBudgetBurn',
    findings: ['apiserver.unreachable', 'webhook.unavailable-blocking', ...ETCD_FINDINGS],
  },
  { alertname: 'KubeAPIDown', findings: ['apiserver.unreachable'] },
  { alertname: 'KubeControllerManagerDown', findings: ['controlplane.degraded', 'controlplane.node-not-joined'] },
  { alertname: 'KubeSchedulerDown', findings: ['controlplane.degraded', 'controlplane.node-not-joined'] },
  // Prometheus' own: a scrape target down is the node its instance names.
  { alertname: 'TargetDown', findings: NODE_FINDINGS, objects: nodeObjects },
];
