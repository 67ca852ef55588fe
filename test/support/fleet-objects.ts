import type { KubeObject } from '../../src/cluster/snapshot.js';

/** A Cluster API `Cluster` object as a management cluster holds it. */
export function capiCluster(
  namespace: string,
  name: string,
  opts: { labels?: Record<string, string>; annotations?: Record<string, string>; version?: 'v1beta1' | 'v1beta2' } = {},
): KubeObject {
  return {
    apiVersion: `cluster.x-k8s.io/${opts.version ?? 'v1beta2'}`,
    kind: 'Cluster',
    metadata: {
      name,
      namespace,
      uid: `uid-${namespace}-${name}`,
      labels: opts.labels,
      annotations: opts.annotations,
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    spec: { controlPlaneRef: { kind: 'KubeadmControlPlane', name: `${name}-cp` } },
    status: { phase: 'Provisioned', conditions: [{ type: 'Ready', status: 'True' }] },
  } as KubeObject;
}

/** A Secret holding a kubeconfig under `value` (Cluster API's convention), labelled as enrolled or not. */
export function kubeconfigSecret(
  namespace: string,
  name: string,
  kubeconfig: string,
  labels?: Record<string, string>,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, labels },
    type: 'Opaque',
    data: { value: Buffer.from(kubeconfig).toString('base64') },
  } as KubeObject;
}
