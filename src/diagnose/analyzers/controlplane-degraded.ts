import type { Analyzer } from '../analyzer.js';
import { analyzeEach } from '../analyze-each.js';
import { countReadyControlPlane } from '../facts/count-ready-control-plane.js';
import { fingerprint } from '../fingerprint.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { findNotJoinedMachines } from '../facts/find-not-joined-machines.js';
import { quorum } from '../facts/quorum.js';
import { readCapiStatus } from '../facts/read-capi-status.js';
import { findStartingMachines } from '../facts/find-starting-machines.js';

/**
 * Fewer Ready control-plane nodes than KubeadmControlPlane spec.replicas. Critical at or below
 * etcd quorum: one more loss (or, below it, already) stops the API (seed S1: 1 of 3 → no leader).
 */
export const controlplaneDegradedAnalyzer: Analyzer = analyzeEach(
  'controlplane.degraded',
  (ctx) => ctx.snapshot.capi.kubeadmControlPlanes,
  (kcp, ctx) => {
    const leader = findLeaderUnreachableCause(ctx.snapshot);
    const replicas = kcp.spec?.replicas;
    if (typeof replicas !== 'number' || replicas < 1) return undefined;
    const r = countReadyControlPlane(ctx.snapshot, kcp);
    // Nothing in the snapshot says how many are Ready: no claim (never "0 of 3" by default).
    if (r.ready === undefined || r.ready >= replicas) return undefined;
    const ns = kcp.metadata.namespace ?? 'default';
    const q = quorum(replicas);
    // A replacement in flight: a new machine of this KCP, no Ready Node yet, still inside the
    // nodeStartupTimeout (KCP remediation deletes first, then creates: 2 of 3 for a few minutes).
    const starting = findStartingMachines(ctx.snapshot, kcp, ctx.now);
    // At quorum one more loss stops etcd; below it etcd has already lost its leader. At quorum with
    // the replacement already starting, CAPI is healing it: warning (self-healing is not an outage).
    const severity = r.ready < q || (r.ready === q && starting.length === 0) ? 'critical' : 'warning';
    const evidence = [
      `KubeadmControlPlane ${ns}/${kcp.metadata.name}: spec.replicas=${replicas}, readyReplicas=${readCapiStatus(kcp).replicas.ready ?? '?'}`,
      `${r.ready} of ${replicas} control-plane nodes Ready (from ${r.source}; etcd quorum needs ${q})`,
    ];
    if (r.notReady.length) evidence.push(`not ready: ${r.notReady.join(', ')}`);
    evidence.push(...starting.map((x) => x.detail));
    // Seed S2: a new control-plane machine runs but its node never joined, so it does not count.
    const notJoined = leader
      ? []
      : findNotJoinedMachines(ctx.snapshot).filter((n) => n.machine.metadata.namespace === kcp.metadata.namespace);
    for (const n of notJoined)
      evidence.push(
        `Machine ${ns}/${n.machine.metadata.name} is Running but not a control-plane member: ${n.reasons.join('; ')}`,
      );
    const notJoinedCause = notJoined.length
      ? `new control-plane machine ${notJoined.map((n) => n.machine.metadata.name).join(', ')} runs but never joined the control plane (see controlplane.node-not-joined); do not delete existing control-plane machines (data loss).`
      : undefined;
    const notJoinedFps = notJoined.map((n) =>
      fingerprint(ctx.snapshot.cluster, 'controlplane.node-not-joined', {
        kind: 'Machine',
        namespace: n.machine.metadata.namespace ?? 'default',
        name: n.machine.metadata.name,
      }),
    );
    return {
      id: 'controlplane.degraded',
      severity,
      section: 'controlplane',
      title: `Control plane ${ns}/${kcp.metadata.name} degraded: ${r.ready} of ${replicas} nodes Ready`,
      subject: { kind: 'KubeadmControlPlane', namespace: ns, name: kcp.metadata.name },
      evidence,
      cause: leader
        ? `the missing control-plane member cannot be replaced: ${leader.text}.`
        : (notJoinedCause ??
          (starting.length
            ? `KCP is replacing the missing member (${starting.map((x) => x.machine.metadata.name).join(', ')} starting); it is at quorum until the replacement joins.`
            : undefined)),
      causedBy: leader ? [leader.fingerprint] : notJoinedFps.length ? notJoinedFps : undefined,
      missing: r.missing.length ? r.missing : undefined,
      remediations: [],
    };
  },
);
