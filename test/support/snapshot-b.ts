/**
 * Builders for analyzers-B tests (nodes, CNI, webhooks, recreation loops, stuck pods, volumes):
 * real Kubernetes / CAPI shapes, overrides for what a table row is about. Base snapshot, NOW and
 * ago() come from build-snapshot.ts.
 */
import type { EventProjection, KubeObject, PodProjection } from '../../src/cluster/snapshot.js';
import { ago } from './build-snapshot.js';

export function node(
  name: string,
  o: {
    ready?: 'True' | 'False' | 'Unknown';
    reason?: string;
    message?: string;
    sinceMin?: number;
    createdMin?: number;
    cp?: boolean;
    kubelet?: string;
    taints?: { key: string; effect: string }[];
  } = {},
): KubeObject {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name };
  if (o.cp) labels['node-role.kubernetes.io/control-plane'] = '';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels, creationTimestamp: ago(o.createdMin ?? 600) },
    spec: o.taints ? { taints: o.taints } : {},
    status: {
      nodeInfo: { kubeletVersion: o.kubelet ?? 'v1.28.8+vmware.1' },
      conditions: [
        {
          type: 'Ready',
          status: o.ready ?? 'True',
          reason:
            o.reason ??
            (o.ready === 'Unknown' ? 'NodeStatusUnknown' : o.ready === 'False' ? 'KubeletNotReady' : 'KubeletReady'),
          message:
            o.message ??
            (o.ready === 'Unknown' ? 'Kubelet stopped posting node status.' : 'kubelet is posting ready status'),
          lastHeartbeatTime: ago((o.sinceMin ?? 300) + 1),
          lastTransitionTime: ago(o.sinceMin ?? 300),
        },
      ],
    },
  };
}

export const CNI_MSG =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';

export function pod(ns: string, name: string, o: Partial<PodProjection> = {}): PodProjection {
  return {
    namespace: ns,
    name,
    phase: 'Running',
    pvcNames: [],
    conditions: [],
    containers: [],
    creationTimestamp: ago(120),
    ...o,
  };
}

export function event(o: Partial<EventProjection> & { reason: string; message: string }): EventProjection {
  return {
    origin: 'workload',
    type: 'Warning',
    count: 1,
    involvedObject: {},
    firstTimestamp: ago(10),
    lastTimestamp: ago(1),
    ...o,
  };
}

export function webhookConfig(
  kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration',
  name: string,
  hooks: {
    name: string;
    svcNs?: string;
    svc?: string;
    failurePolicy?: string;
    resources?: string[];
    namespaceSelector?: unknown;
    objectSelector?: unknown;
  }[],
): KubeObject {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: hooks.map((h) => ({
      name: h.name,
      admissionReviewVersions: ['v1'],
      clientConfig: {
        service: { namespace: h.svcNs ?? 'kyverno', name: h.svc ?? 'kyverno-svc', port: 443, path: '/validate/fail' },
      },
      ...(h.failurePolicy ? { failurePolicy: h.failurePolicy } : {}),
      ...(h.namespaceSelector ? { namespaceSelector: h.namespaceSelector } : {}),
      ...(h.objectSelector ? { objectSelector: h.objectSelector } : {}),
      rules: [
        { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: h.resources ?? ['pods'] },
      ],
      sideEffects: 'None',
    })),
  };
}

export function service(ns: string, name: string, selector: Record<string, string> = { app: name }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { namespace: ns, name },
    spec: { selector, ports: [{ port: 443 }] },
  };
}

export function endpoints(ns: string, name: string, ready: number, notReady = 0): KubeObject {
  const addr = (n: number) => Array.from({ length: n }, (_, i) => ({ ip: `10.0.0.${i + 1}` }));
  const subsets =
    ready + notReady
      ? [
          {
            ...(ready ? { addresses: addr(ready) } : {}),
            ...(notReady ? { notReadyAddresses: addr(notReady) } : {}),
            ports: [{ port: 9443 }],
          },
        ]
      : [];
  return { apiVersion: 'v1', kind: 'Endpoints', metadata: { namespace: ns, name }, subsets };
}

export function deployment(ns: string, name: string, labels: Record<string, string>, replicas = 3): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace: ns, name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels } } },
  };
}

export function workerMachine(
  name: string,
  o: {
    ns?: string;
    ms?: string;
    node?: string;
    phase?: string;
    createdMin?: number;
    deletingMin?: number;
    v1beta2?: boolean;
    conditions?: unknown[];
  } = {},
): KubeObject {
  const status: Record<string, unknown> = { phase: o.phase ?? 'Running' };
  if (o.node) status['nodeRef'] = o.v1beta2 ? { name: o.node } : { apiVersion: 'v1', kind: 'Node', name: o.node };
  if (o.conditions) status['conditions'] = o.conditions;
  return {
    apiVersion: o.v1beta2 ? 'cluster.x-k8s.io/v1beta2' : 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace: o.ns ?? 'ns1',
      creationTimestamp: ago(o.createdMin ?? 1440),
      ...(o.deletingMin !== undefined ? { deletionTimestamp: ago(o.deletingMin) } : {}),
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1', 'cluster.x-k8s.io/deployment-name': 'c1-md-0' },
      ownerReferences: [
        { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineSet', name: o.ms ?? 'c1-md-0-7d9f8', controller: true },
      ],
    },
    spec: { clusterName: 'c1' },
    status,
  };
}

export function mhc(
  name: string,
  o: { ns?: string; timeout?: string; timeoutSeconds?: number; allowed?: boolean } = {},
): KubeObject {
  const v1beta2 = o.timeoutSeconds !== undefined;
  const spec: Record<string, unknown> = {
    clusterName: 'c1',
    selector: { matchLabels: { 'cluster.x-k8s.io/deployment-name': 'c1-md-0' } },
  };
  if (v1beta2) {
    spec['checks'] = {
      unhealthyNodeConditions: ['Unknown', 'False'].map((status) => ({
        type: 'Ready',
        status,
        timeoutSeconds: o.timeoutSeconds,
      })),
    };
  } else {
    spec['unhealthyConditions'] = ['Unknown', 'False'].map((status) => ({
      type: 'Ready',
      status,
      timeout: o.timeout ?? '5m0s',
    }));
  }
  const conditions = [
    {
      type: 'RemediationAllowed',
      status: o.allowed === false ? 'False' : 'True',
      reason: o.allowed === false ? 'TooManyUnhealthy' : undefined,
      message:
        o.allowed === false
          ? 'Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy'
          : undefined,
    },
  ];
  return {
    apiVersion: v1beta2 ? 'cluster.x-k8s.io/v1beta2' : 'cluster.x-k8s.io/v1beta1',
    kind: 'MachineHealthCheck',
    metadata: { name, namespace: o.ns ?? 'ns1' },
    spec,
    status: { conditions },
  };
}
