import type { Analyzer } from '../analyzer.js';
import { apiserverUnreachableAnalyzer } from './apiserver-unreachable.js';
import { etcdNoLeaderAnalyzer } from './etcd-no-leader.js';
import { etcdLeaderUnreachableAnalyzer } from './etcd-leader-unreachable.js';
import { etcdMemberMismatchAnalyzer } from './etcd-member-mismatch.js';
import { etcdAlarmAnalyzer } from './etcd-alarm.js';
import { etcdMembersNotQueriedAnalyzer } from './etcd-members-not-queried.js';
import { etcdQuorumDegradedAnalyzer } from './etcd-quorum-degraded.js';
import { controlplaneDegradedAnalyzer } from './controlplane-degraded.js';
import { controlplaneNotSelfHealingAnalyzer } from './controlplane-not-self-healing.js';
import { controlplaneNodeNotJoinedAnalyzer } from './controlplane-node-not-joined.js';
import { controlplaneEtcdUnhealthyAnalyzer } from './controlplane-etcd-unhealthy.js';
import { capiMachineStuckProvisioningAnalyzer } from './capi-machine-stuck-provisioning.js';
import { capiMachineStuckDeletingAnalyzer } from './capi-machine-stuck-deleting.js';
import { capiRemediationLoopingAnalyzer } from './capi-remediation-looping.js';
import { capiMhcUnhealthyAnalyzer } from './capi-mhc-unhealthy.js';
import { upgradeStuckAnalyzer } from './upgrade-stuck.js';
import { nodeNotReadyAnalyzer } from './node-not-ready.js';
import { nodeCniNotInitializedAnalyzer } from './node-cni-not-initialized.js';
import { cniPodNotRunningAnalyzer } from './cni-pod-not-running.js';
import { webhookUnavailableBlockingAnalyzer } from './webhook-unavailable-blocking.js';
import { webhookSystemNamespacesNotExcludedAnalyzer } from './webhook-system-namespaces-not-excluded.js';
import { capiRecreationLoopAnalyzer } from './capi-recreation-loop.js';
import { podStuckTerminatingAnalyzer } from './pod-stuck-terminating.js';
import { volumeMultiAttachAnalyzer } from './volume-multi-attach.js';
import { workloadPodsUnhealthyAnalyzer } from './workload-pods-unhealthy.js';
import { capiDrainBlockedAnalyzer } from './capi-drain-blocked.js';
import { capiDeletionHookPendingAnalyzer } from './capi-deletion-hook-pending.js';
import { capiVolumeDetachPendingAnalyzer } from './capi-volume-detach-pending.js';
import { capiDrainTimeoutUnsetAnalyzer } from './capi-drain-timeout-unset.js';
import { capiRolloutPausedAnalyzer } from './capi-rollout-paused.js';
import { capiRolloutBlockedAnalyzer } from './capi-rollout-blocked.js';
import { capiRemediationExhaustedAnalyzer } from './capi-remediation-exhausted.js';
import { capiRemediationPausedAnalyzer } from './capi-remediation-paused.js';

/**
 * The explicit registry of analyzers (docs/development.md: no import-time self-registration).
 * One analyzer per finding id, one file each, named after the id (dots → dashes).
 */
export const ANALYZERS: readonly Analyzer[] = [
  // analyzers A (etcd, API server, control plane, CAPI machines, upgrades)
  apiserverUnreachableAnalyzer,
  etcdNoLeaderAnalyzer,
  etcdLeaderUnreachableAnalyzer,
  etcdMemberMismatchAnalyzer,
  etcdAlarmAnalyzer,
  etcdMembersNotQueriedAnalyzer,
  etcdQuorumDegradedAnalyzer,
  controlplaneDegradedAnalyzer,
  controlplaneNotSelfHealingAnalyzer,
  controlplaneNodeNotJoinedAnalyzer,
  controlplaneEtcdUnhealthyAnalyzer,
  capiMachineStuckProvisioningAnalyzer,
  capiMachineStuckDeletingAnalyzer,
  capiRemediationLoopingAnalyzer,
  capiMhcUnhealthyAnalyzer,
  upgradeStuckAnalyzer,
  // analyzers B (nodes, CNI, webhooks, recreation loops, stuck pods and volumes)
  nodeNotReadyAnalyzer,
  nodeCniNotInitializedAnalyzer,
  cniPodNotRunningAnalyzer,
  webhookUnavailableBlockingAnalyzer,
  webhookSystemNamespacesNotExcludedAnalyzer,
  capiRecreationLoopAnalyzer,
  podStuckTerminatingAnalyzer,
  volumeMultiAttachAnalyzer,
  workloadPodsUnhealthyAnalyzer,
  // what blocks a deletion or a rollout, and remediation stopped or paused
  capiDrainBlockedAnalyzer,
  capiDeletionHookPendingAnalyzer,
  capiVolumeDetachPendingAnalyzer,
  capiDrainTimeoutUnsetAnalyzer,
  capiRolloutPausedAnalyzer,
  capiRolloutBlockedAnalyzer,
  capiRemediationExhaustedAnalyzer,
  capiRemediationPausedAnalyzer,
];
