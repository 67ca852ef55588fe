/**
 * Every kind the collector reads, in one list. The live collector, the dump loader (to recognise
 * objects), the dump writer, the fake API server's discovery and the Helm chart's read-only
 * ClusterRole test all derive from this list, so it is the single place to add a kind.
 */

/** Where in the Snapshot the objects of a kind go. */
export type SnapshotTarget =
  | 'nodes'
  | 'pods'
  | 'events'
  | 'namespaces'
  | 'services'
  | 'endpoints'
  | 'deployments'
  | 'daemonSets'
  | 'statefulSets'
  | 'replicaSets'
  | 'validatingWebhooks'
  | 'mutatingWebhooks'
  | 'volumeAttachments'
  | 'persistentVolumeClaims'
  | 'podDisruptionBudgets'
  | 'customResourceDefinitions'
  | 'capi.clusters'
  | 'capi.machines'
  | 'capi.machineSets'
  | 'capi.machineDeployments'
  | 'capi.kubeadmControlPlanes'
  | 'capi.machineHealthChecks'
  | 'capi.tanzuKubernetesClusters';

export interface KindSpec {
  kind: string;
  /** API group, '' for core. */
  group: string;
  /** Versions we understand, preferred first; the live collector uses the first one the server serves. */
  versions: string[];
  plural: string;
  namespaced: boolean;
  /** Which cluster it is read from: CAPI kinds come from the management cluster when one is configured. */
  cluster: 'workload' | 'management' | 'both';
  target: SnapshotTarget;
  /** A CRD that may legitimately be absent (e.g. TanzuKubernetesCluster): absence is not a partial entry. */
  optional?: boolean;
}

const CAPI = 'cluster.x-k8s.io';
const CAPI_VERSIONS = ['v1beta2', 'v1beta1'];

export const KINDS: readonly KindSpec[] = [
  {
    kind: 'Node',
    group: '',
    versions: ['v1'],
    plural: 'nodes',
    namespaced: false,
    cluster: 'workload',
    target: 'nodes',
  },
  { kind: 'Pod', group: '', versions: ['v1'], plural: 'pods', namespaced: true, cluster: 'workload', target: 'pods' },
  { kind: 'Event', group: '', versions: ['v1'], plural: 'events', namespaced: true, cluster: 'both', target: 'events' },
  {
    kind: 'Namespace',
    group: '',
    versions: ['v1'],
    plural: 'namespaces',
    namespaced: false,
    cluster: 'workload',
    target: 'namespaces',
  },
  {
    kind: 'Service',
    group: '',
    versions: ['v1'],
    plural: 'services',
    namespaced: true,
    cluster: 'workload',
    target: 'services',
  },
  {
    kind: 'Endpoints',
    group: '',
    versions: ['v1'],
    plural: 'endpoints',
    namespaced: true,
    cluster: 'workload',
    target: 'endpoints',
  },
  {
    kind: 'PersistentVolumeClaim',
    group: '',
    versions: ['v1'],
    plural: 'persistentvolumeclaims',
    namespaced: true,
    cluster: 'workload',
    target: 'persistentVolumeClaims',
  },
  {
    kind: 'Deployment',
    group: 'apps',
    versions: ['v1'],
    plural: 'deployments',
    namespaced: true,
    cluster: 'workload',
    target: 'deployments',
  },
  {
    kind: 'DaemonSet',
    group: 'apps',
    versions: ['v1'],
    plural: 'daemonsets',
    namespaced: true,
    cluster: 'workload',
    target: 'daemonSets',
  },
  {
    kind: 'StatefulSet',
    group: 'apps',
    versions: ['v1'],
    plural: 'statefulsets',
    namespaced: true,
    cluster: 'workload',
    target: 'statefulSets',
  },
  {
    kind: 'ReplicaSet',
    group: 'apps',
    versions: ['v1'],
    plural: 'replicasets',
    namespaced: true,
    cluster: 'workload',
    target: 'replicaSets',
  },
  {
    kind: 'ValidatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    versions: ['v1'],
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
    cluster: 'workload',
    target: 'validatingWebhooks',
  },
  {
    kind: 'MutatingWebhookConfiguration',
    group: 'admissionregistration.k8s.io',
    versions: ['v1'],
    plural: 'mutatingwebhookconfigurations',
    namespaced: false,
    cluster: 'workload',
    target: 'mutatingWebhooks',
  },
  {
    kind: 'VolumeAttachment',
    group: 'storage.k8s.io',
    versions: ['v1'],
    plural: 'volumeattachments',
    namespaced: false,
    cluster: 'workload',
    target: 'volumeAttachments',
  },
  // Which PodDisruptionBudget blocks a drain (status.disruptionsAllowed), and which CRDs were
  // installed since the last healthy scan (kept as a compact projection: no schemas, see add-to-snapshot.ts).
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    versions: ['v1'],
    plural: 'poddisruptionbudgets',
    namespaced: true,
    cluster: 'workload',
    target: 'podDisruptionBudgets',
  },
  {
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    versions: ['v1'],
    plural: 'customresourcedefinitions',
    namespaced: false,
    cluster: 'workload',
    target: 'customResourceDefinitions',
  },
  {
    kind: 'Cluster',
    group: CAPI,
    versions: CAPI_VERSIONS,
    plural: 'clusters',
    namespaced: true,
    cluster: 'management',
    target: 'capi.clusters',
    optional: true,
  },
  {
    kind: 'Machine',
    group: CAPI,
    versions: CAPI_VERSIONS,
    plural: 'machines',
    namespaced: true,
    cluster: 'management',
    target: 'capi.machines',
    optional: true,
  },
  {
    kind: 'MachineSet',
    group: CAPI,
    versions: CAPI_VERSIONS,
    plural: 'machinesets',
    namespaced: true,
    cluster: 'management',
    target: 'capi.machineSets',
    optional: true,
  },
  {
    kind: 'MachineDeployment',
    group: CAPI,
    versions: CAPI_VERSIONS,
    plural: 'machinedeployments',
    namespaced: true,
    cluster: 'management',
    target: 'capi.machineDeployments',
    optional: true,
  },
  {
    kind: 'KubeadmControlPlane',
    group: 'controlplane.cluster.x-k8s.io',
    versions: CAPI_VERSIONS,
    plural: 'kubeadmcontrolplanes',
    namespaced: true,
    cluster: 'management',
    target: 'capi.kubeadmControlPlanes',
    optional: true,
  },
  {
    kind: 'MachineHealthCheck',
    group: CAPI,
    versions: CAPI_VERSIONS,
    plural: 'machinehealthchecks',
    namespaced: true,
    cluster: 'management',
    target: 'capi.machineHealthChecks',
    optional: true,
  },
  {
    kind: 'TanzuKubernetesCluster',
    group: 'run.tanzu.vmware.com',
    versions: ['v1alpha3', 'v1alpha2', 'v1alpha1'],
    plural: 'tanzukubernetesclusters',
    namespaced: true,
    cluster: 'management',
    target: 'capi.tanzuKubernetesClusters',
    optional: true,
  },
];

/** The KindSpec for an object's `kind` (and apiVersion group when given), if we read that kind. */
export function findKind(kind: string | undefined, apiVersion?: string): KindSpec | undefined {
  if (!kind) return undefined;
  const group = apiVersion && apiVersion.includes('/') ? apiVersion.split('/')[0] : apiVersion ? '' : undefined;
  return KINDS.find((k) => k.kind === kind && (group === undefined || k.group === group));
}
