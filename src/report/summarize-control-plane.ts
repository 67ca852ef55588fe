import type { KubeObject, Snapshot } from '../cluster/snapshot.js';
import { countReadyControlPlane } from '../diagnose/facts/count-ready-control-plane.js';
import { isControlPlaneNode } from '../diagnose/facts/is-control-plane-node.js';
import { isNodeReady } from '../diagnose/facts/is-node-ready.js';
import { readCapiStatus } from '../diagnose/facts/read-capi-status.js';

const FROM: Record<string, string> = {
  nodes: '',
  machines: ' (from Machine conditions)',
  'kcp-status': ' (from KubeadmControlPlane status)',
};

/**
 * Clusters whose own status counts their control plane (Cluster API v1beta2 status.controlPlane, or
 * status.v1beta2.controlPlane from a v1.9/v1.10 controller): ready and desired both reported.
 */
export function clustersCountingControlPlane(s: Snapshot): KubeObject[] {
  return s.capi.clusters.filter((c) => {
    const cp = readCapiStatus(c).controlPlane;
    return cp?.ready !== undefined && cp.desired !== undefined;
  });
}

/**
 * The `controlplane` line: per KubeadmControlPlane, its Ready members out of spec.replicas, counted
 * the way controlplane.degraded counts them (countReadyControlPlane: Nodes, else Machine conditions,
 * else KCP status); without a KCP, the control-plane Nodes; without either, what each Cluster's own
 * v1beta2 status counts of its control plane (a capture of Cluster objects only — defect
 * class 4). A count nothing reports is said to be unknown, never "0 of N". `degraded` when
 * only a Cluster's count says some are not Ready: no finding covers that line.
 */
export function summarizeControlPlane(s: Snapshot): {
  summary: string;
  hasData: boolean;
  degraded?: boolean;
  counted?: { ready: number; total: number };
} {
  const kcps = s.capi.kubeadmControlPlanes;
  if (kcps.length) {
    const parts: string[] = [];
    let known = false;
    const counted = { ready: 0, total: 0 };
    for (const kcp of kcps) {
      const desired = readCapiStatus(kcp).replicas.desired;
      const r = countReadyControlPlane(s, kcp);
      const who = kcps.length > 1 ? `${kcp.metadata.name}: ` : '';
      if (r.ready === undefined || desired === undefined) {
        parts.push(`${who}readiness not reported (${r.missing[0] ?? 'no spec.replicas'})`);
        continue;
      }
      known = true;
      counted.ready += r.ready;
      counted.total += desired;
      parts.push(
        `${who}${r.ready} of ${desired} control-plane ${r.source === 'nodes' ? 'nodes' : 'machines'} Ready${FROM[r.source] ?? ''}`,
      );
    }
    return { summary: parts.join('; '), hasData: known, counted };
  }
  const cp = s.nodes.filter(isControlPlaneNode);
  if (cp.length) {
    const ready = cp.filter(isNodeReady).length;
    return {
      summary: `${ready} of ${cp.length} control-plane nodes Ready`,
      hasData: true,
      counted: { ready, total: cp.length },
    };
  }
  const clusters = clustersCountingControlPlane(s);
  if (!clusters.length) return { summary: 'no control-plane nodes read', hasData: false };
  let degraded = false;
  const counted = { ready: 0, total: 0 };
  const parts = clusters.map((c) => {
    const st = readCapiStatus(c);
    const r = st.controlPlane!;
    counted.ready += r.ready!;
    counted.total += r.desired!;
    if (r.ready! < r.desired!) degraded = true;
    const who = clusters.length > 1 ? `${c.metadata.name}: ` : '';
    const rolling = st.condition('RollingOut')?.status === 'True' ? ' while rolling out' : '';
    const inFlight = r.current !== undefined && r.current !== r.desired ? `; ${r.current} machines${rolling}` : '';
    return `${who}${r.ready} of ${r.desired} control-plane machines Ready (from Cluster status${inFlight})`;
  });
  return { summary: parts.join('; '), hasData: true, counted, ...(degraded ? { degraded } : {}) };
}
