import type { ClusterConfig, FleetConfig } from '../../config/config-schema.js';
import type { DiscoveredCluster } from './discovered-cluster.js';

/**
 * The ClusterConfig of a discovered cluster: the fleet's management cluster restricted to the
 * Cluster's namespace, the workload cluster through `kubeconfigData` when credentials were found
 * (none otherwise: management-side only), and the fleet's Slack, approver and remediation settings
 * with the annotation overrides.
 */
export function toClusterConfig(fleet: FleetConfig, d: DiscoveredCluster, kubeconfigData?: string): ClusterConfig {
  return {
    name: d.name,
    management: { ...fleet.management, namespace: d.namespace },
    ...(kubeconfigData !== undefined ? { workload: { kubeconfigData } } : {}),
    slack: {
      alertChannel: d.alertChannel ?? fleet.slack.alertChannel,
      channels: d.channels ?? [...fleet.slack.channels],
      ...(fleet.slack.oncall ? { oncall: fleet.slack.oncall } : {}),
    },
    approvers: { users: [...fleet.approvers.users], groups: [...fleet.approvers.groups] },
    remediation: { enabled: fleet.remediation.enabled },
    ...(d.alertMatchers ? { alertmanager: { matchers: [d.alertMatchers] } } : {}),
    fleet: {
      fleet: d.fleet,
      namespace: d.namespace,
      clusterName: d.clusterName,
      enrolled: d.enrolled,
      credentials: d.credentials,
    },
  };
}
