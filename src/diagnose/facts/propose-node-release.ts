import type { KubeObject } from '../../cluster/snapshot.js';
import type { RemediationProposal } from '../finding.js';

/**
 * Seed 004 / docs/design.md: free the pods and volumes of a node CONFIRMED gone (isNodeGone). Kubernetes
 * ≥ 1.28 supports non-graceful node shutdown (the out-of-service taint: pods are deleted and volumes
 * detached at once); older clusters need the Node object deleted. The version is the node's
 * status.nodeInfo.kubeletVersion. Callers must check isNodeGone first: never for a partitioned node.
 */
export function proposeNodeRelease(node: KubeObject): RemediationProposal {
  const name = node.metadata?.name ?? '';
  const version = String(node.status?.nodeInfo?.kubeletVersion ?? '');
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  const modern = !!m && (Number(m[1]) > 1 || Number(m[2]) >= 28);
  const short = name.length > 48 ? `${name.slice(0, 47)}…` : name;
  if (modern) {
    return {
      action: 'node.out-of-service',
      params: { name },
      label: `Mark node ${short} out-of-service`,
      risk: 'If the VM is in fact still running, its pods and volume writers are cut off without a clean shutdown.',
    };
  }
  return {
    action: 'node.delete',
    params: { name },
    label: `Delete node ${short}`,
    risk: 'If the VM is still running, it keeps writing to volumes that attach elsewhere (data corruption); it re-registers when kubelet restarts.',
  };
}
