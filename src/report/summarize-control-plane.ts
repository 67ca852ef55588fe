import type { Snapshot } from '../cluster/snapshot.js';
import { countReadyControlPlane } from '../diagnose/facts/count-ready-control-plane.js';
import { isControlPlaneNode } from '../diagnose/facts/is-control-plane-node.js';
import { isNodeReady } from '../diagnose/facts/is-node-ready.js';
import { readCapiStatus } from '../diagnose/facts/read-capi-status.js';

const FROM: Record<string, string> = { nodes: '', machines: ' (from Machine conditions)', 'kcp-status': ' (from KubeadmControlPlane status)' };

/**
 * The `controlplane` line: per KubeadmControlPlane, its Ready members out of spec.replicas, counted
 * the way controlplane.degraded counts them (countReadyControlPlane: Nodes, else Machine conditions,
 * else KCP status); without a KCP, the control-plane Nodes. A count nothing reports is said to be
 * unknown, never "0 of N" (issue 13).
 */
export function summarizeControlPlane(s: Snapshot): { summary: string; hasData: boolean } {
  const kcps = s.capi.kubeadmControlPlanes;
  if (kcps.length) {
    const parts: string[] = [];
    let known = false;
    for (const kcp of kcps) {
      const desired = readCapiStatus(kcp).replicas.desired;
      const r = countReadyControlPlane(s, kcp);
      const who = kcps.length > 1 ? `${kcp.metadata.name}: ` : '';
      if (r.ready === undefined || desired === undefined) {
        parts.push(`${who}readiness not reported (${r.missing[0] ?? 'no spec.replicas'})`);
        continue;
      }
      known = true;
      parts.push(`${who}${r.ready} of ${desired} control-plane ${r.source === 'nodes' ? 'nodes' : 'machines'} Ready${FROM[r.source] ?? ''}`);
    }
    return { summary: parts.join('; '), hasData: known };
  }
  const cp = s.nodes.filter(isControlPlaneNode);
  if (!cp.length) return { summary: 'no control-plane nodes read', hasData: false };
  return { summary: `${cp.filter(isNodeReady).length} of ${cp.length} control-plane nodes Ready`, hasData: true };
}
