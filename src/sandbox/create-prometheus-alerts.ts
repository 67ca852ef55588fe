/** What the alerts are made from: a finding of the report (its id, severity and subject). */
export interface AlertSource {
  id: string;
  severity: string;
  subject: { kind: string; name: string };
}

/**
 * The Alertmanager notification the sandbox plays (docs/sandbox.md): what kube-prometheus-stack would
 * fire on the scenario's cluster — one alert per node, namespace and etcd symptom of the report, named
 * as its rules name them — plus one alert on a pod nothing of the bot's explains, all as one webhook
 * body (payload version 4), the way Alertmanager posts it. Pure; `at` is the sandbox clock.
 */
export function createPrometheusAlerts(cluster: string, findings: readonly AlertSource[], at: Date): string {
  const startsAt = new Date(at.getTime() - 5 * 60_000).toISOString();
  const alerts: { labels: Record<string, string>; summary: string }[] = [];
  const seen = new Set<string>();
  const add = (labels: Record<string, string>, summary: string) => {
    const key = JSON.stringify(labels);
    if (seen.has(key)) return;
    seen.add(key);
    alerts.push({ labels: { cluster, severity: 'warning', ...labels }, summary });
  };
  for (const f of findings) {
    if (f.severity === 'info') continue;
    if (f.subject.kind === 'Node') {
      add(
        { alertname: 'KubeNodeNotReady', node: f.subject.name },
        `${f.subject.name} has been unready for more than 15 minutes.`,
      );
      add(
        { alertname: 'KubeletDown', instance: `${f.subject.name}:10250`, job: 'kubelet', node: f.subject.name },
        'Kubelet has disappeared from Prometheus target discovery.',
      );
    } else if (f.id === 'cni.pod-not-running' || f.id === 'node.cni-not-initialized') {
      add(
        { alertname: 'KubeDaemonSetRolloutStuck', namespace: 'kube-system', daemonset: 'cni' },
        'DaemonSet rollout is stuck.',
      );
    } else if (f.subject.kind === 'Namespace') {
      add(
        { alertname: 'KubeDeploymentReplicasMismatch', namespace: f.subject.name },
        `Deployments in ${f.subject.name} have not matched the expected number of replicas.`,
      );
    } else if (f.id.startsWith('etcd.')) {
      add({ alertname: 'etcdMembersDown', job: 'etcd', severity: 'critical' }, 'etcd cluster members are down.');
    } else if (f.id === 'webhook.unavailable-blocking' || f.id === 'apiserver.unreachable') {
      add(
        { alertname: 'KubeAPIErrorBudgetBurn', long: '1h', short: '5m', severity: 'critical' },
        'The API server is burning too much error budget.',
      );
    }
  }
  add(
    { alertname: 'KubePodCrashLooping', namespace: 'payments', pod: 'checkout-7d9f5c-x2x9q', container: 'app' },
    'Pod payments/checkout-7d9f5c-x2x9q is in waiting state (reason: "CrashLoopBackOff").',
  );
  return JSON.stringify({
    version: '4',
    groupKey: `{}:{cluster="${cluster}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'k8s-health',
    groupLabels: { cluster },
    commonLabels: { cluster },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.sandbox:9093',
    alerts: alerts.map((a, i) => ({
      status: 'firing',
      labels: a.labels,
      annotations: { summary: a.summary },
      startsAt,
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://prometheus.sandbox:9090/graph',
      fingerprint: (0x5a0000 + i).toString(16).padStart(16, '0'),
    })),
  });
}
