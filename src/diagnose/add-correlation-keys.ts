import type { KubeObject, Snapshot } from '../cluster/snapshot.js';
import { findCondition } from './facts/find-condition.js';
import type { Finding } from './finding.js';

/**
 * Stamp root-cause findings (no `causedBy`) with a `correlationKey`: what the fault is, in evidence
 * that does not name the cluster, so one fault hitting many clusters at once (a policy rolled out
 * fleet-wide, a shared vCenter or datastore, a bad node image) is recognised as one:
 *
 * - `webhook.unavailable-blocking`, `webhook.system-namespaces-not-excluded`: the configuration's kind
 *   and name and the service it calls;
 * - `node.not-ready`, `node.cni-not-initialized`: the kubelet's reason and the node image (OS image,
 *   kubelet version) — the same image failing the same way;
 * - `cni.pod-not-running`: why the agent's container waits and the registry it pulls from
 *   (`ImagePullBackOff registry registry.example.com`), or the agent DaemonSet missing its pod;
 * - `capi.machine-stuck-provisioning`: the infrastructure's reason and message with the Machine's own
 *   and its cluster's names taken out ("failed to clone VM: datastore ds-01 is full").
 *
 * Others get none: they are never correlated. Pure; the key is a plain string (alerts hash it).
 */
export function addCorrelationKeys(findings: Finding[], snapshot: Snapshot): Finding[] {
  return findings.map((f) => {
    if (f.causedBy?.length) return f;
    const key = keyOf(f, snapshot);
    return key ? { ...f, correlationKey: key } : f;
  });
}

function keyOf(f: Finding, snapshot: Snapshot): string | undefined {
  switch (f.id) {
    case 'webhook.unavailable-blocking':
    case 'webhook.system-namespaces-not-excluded': {
      const list =
        f.subject.kind === 'MutatingWebhookConfiguration' ? snapshot.mutatingWebhooks : snapshot.validatingWebhooks;
      const config = list.find((w) => w.metadata.name === f.subject.name);
      const services = [
        ...new Set(
          (
            (config?.webhooks ?? []) as {
              clientConfig?: { service?: { namespace?: string; name?: string }; url?: string };
            }[]
          ).map((h) =>
            h.clientConfig?.service
              ? `${h.clientConfig.service.namespace}/${h.clientConfig.service.name}`
              : (h.clientConfig?.url ?? ''),
          ),
        ),
      ].sort();
      return `webhook ${f.subject.kind}/${f.subject.name} → ${services.join(',')}`;
    }
    case 'node.not-ready':
    case 'node.cni-not-initialized': {
      const node = snapshot.nodes.find((n) => n.metadata.name === f.subject.name);
      if (!node) return undefined;
      const ready = findCondition(node, 'Ready');
      const info = node.status?.nodeInfo ?? {};
      return `node ${f.id === 'node.cni-not-initialized' ? 'cni-not-initialized' : (ready?.reason ?? ready?.status ?? 'NotReady')} image ${info.osImage ?? '?'} kubelet ${info.kubeletVersion ?? '?'}`;
    }
    case 'cni.pod-not-running': {
      // The agent's own words: why its container waits, and from which registry it pulls (not the pod's name).
      const waiting = f.evidence.map((e) => /container waiting reason=(\w+)(?: "([^"]*)")?/.exec(e)).find((m) => m);
      if (!waiting)
        return f.title.includes('pod missing') ? `cni agent pod missing ${f.title.replace(/^.*: /, '')}` : undefined;
      const registry = /image \\?"?([a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?)\//i.exec(waiting.input)?.[1];
      return `cni ${waiting[1]}${registry ? ` registry ${registry}` : ''}`;
    }
    case 'capi.machine-stuck-provisioning': {
      const m = snapshot.capi.machines.find(
        (x) => x.metadata.name === f.subject.name && x.metadata.namespace === f.subject.namespace,
      );
      const infra = m ? infrastructureProblem(m) : undefined;
      if (!m || !infra) return undefined;
      const names = [
        m.metadata.name,
        m.metadata.labels?.['cluster.x-k8s.io/cluster-name'],
        m.spec?.clusterName,
        snapshot.cluster,
      ].filter((n): n is string => typeof n === 'string' && n.length > 0);
      let text = infra;
      for (const n of names.sort((a, b) => b.length - a.length)) text = text.split(n).join('<name>');
      return `infrastructure ${text}`;
    }
    default:
      return undefined;
  }
}

/**
 * The infrastructure's own words on a Machine that is not provisioned: InfrastructureReady (v1beta1) or
 * InfrastructureProvisioned (v1beta2).
 */
function infrastructureProblem(m: KubeObject): string | undefined {
  const conditions = [
    ...(Array.isArray(m.status?.conditions) ? m.status.conditions : []),
    ...(Array.isArray(m.status?.v1beta1?.conditions) ? m.status.v1beta1.conditions : []),
  ] as { type?: string; status?: string; reason?: string; message?: string }[];
  const c = conditions.find(
    (x) => (x.type === 'InfrastructureReady' || x.type === 'InfrastructureProvisioned') && x.status !== 'True',
  );
  return c && (c.reason || c.message) ? `${c.reason ?? ''}: ${c.message ?? ''}` : undefined;
}
