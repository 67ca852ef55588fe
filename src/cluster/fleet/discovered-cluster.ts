import type { FleetConfig } from '../../config/config-schema.js';

/**
 * A workload cluster found through its Cluster API `Cluster` object in a fleet's management cluster
 * (docs/fleet.md). This is what the shared directory in Redis holds: no credential, ever.
 */
export interface DiscoveredCluster {
  /**
   * The bot's name for it: the Cluster's name, or `namespace/name` when two Clusters (or a configured cluster) share
   * it.
   */
  name: string;
  fleet: string;
  /** Namespace of the Cluster object. */
  namespace: string;
  /** The Cluster object's name. */
  clusterName: string;
  /** A workload kubeconfig Secret was found (which one depends on `credentials`). */
  enrolled: boolean;
  credentials: FleetConfig['credentials'];
  /** `k8s-health.io/alert-channel` when set and valid. */
  alertChannel?: string;
  /** `k8s-health.io/channels` (comma-separated) when set and valid. */
  channels?: string[];
  /**
   * `k8s-health.io/alert-matchers`: Alertmanager matchers of this cluster's Prometheus alerts, when set and valid
   * (docs/alertmanager.md).
   */
  alertMatchers?: string;
  /** Annotations that were ignored, one line each (bad values). */
  warnings?: string[];
}

/** The annotations a Cluster object may carry to override its fleet's Slack settings (docs/fleet.md). */
export const ANNOTATIONS = {
  alertChannel: 'k8s-health.io/alert-channel',
  channels: 'k8s-health.io/channels',
  alertMatchers: 'k8s-health.io/alert-matchers',
} as const;

/** The label and name of the read-only kubeconfig Secret `k8s-health enroll` stores next to a Cluster. */
export const ENROLLED_SECRET_LABEL = 'k8s-health.io/kubeconfig';
export const enrolledSecretName = (clusterName: string) => `${clusterName}-k8s-health-kubeconfig`;
/** Cluster API's own admin kubeconfig Secret (credentials: capi-admin-secret only). */
export const capiSecretName = (clusterName: string) => `${clusterName}-kubeconfig`;
/** The data key holding the kubeconfig, in both Secrets (Cluster API's convention). */
export const KUBECONFIG_KEY = 'value';
