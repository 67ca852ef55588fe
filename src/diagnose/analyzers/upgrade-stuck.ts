import type { KubeObject } from '../../cluster/snapshot.js';
import type { Analyzer, AnalysisContext, FindingDraft } from '../analyzer.js';
import type { RemediationProposal } from '../finding.js';
import { fingerprint } from '../fingerprint.js';
import { ageMinutes, formatAge } from '../facts/age.js';
import { findActiveRecreationLoops } from '../facts/find-active-recreation-loops.js';
import { findCondition } from '../facts/find-condition.js';
import { describeMemoryHogs } from '../facts/describe-memory-hogs.js';
import { findControlPlaneMemoryHogs } from '../facts/find-control-plane-memory-hogs.js';
import { findEtcdMemberMismatches } from '../facts/find-etcd-member-mismatches.js';
import { findNotJoinedMachines } from '../facts/find-not-joined-machines.js';
import { findRolloutBlockers } from '../facts/find-rollout-blockers.js';
import { isControlPlaneNode } from '../facts/is-control-plane-node.js';
import { isNodeReady } from '../facts/is-node-ready.js';
import { machineInfo } from '../facts/machine-info.js';
import { proposeRemoveMember } from '../facts/propose-remove-member.js';
import { readRolloutStatus } from '../facts/read-rollout-status.js';

/** Minutes since this rollout's (version, updated replicas) last changed, from earlier scans. */
function minutesUnchangedInHistory(
  ctx: AnalysisContext,
  kind: string,
  ns: string,
  name: string,
  version?: string,
  updated?: number,
): number {
  let start: string | undefined;
  for (const scan of [...ctx.history.scans].reverse()) {
    const r = scan.rollouts.find((x) => x.kind === kind && x.namespace === ns && x.name === name);
    if (!r || r.version !== version || r.updatedReplicas !== updated) break;
    start = scan.at;
  }
  return ageMinutes(start, ctx.now) ?? 0;
}

/**
 * Seed S2 (and S3): a KCP/MachineDeployment rollout that stops advancing. Progress is judged from
 * one snapshot by the newest machine's creationTimestamp (a rolling upgrade creates one every few
 * minutes) and, with history, by how long the updated-replica count has not moved.
 */
export const upgradeStuckAnalyzer: Analyzer = {
  id: 'upgrade.stuck',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const machines = snap.capi.machines.map((m) => ({ m, i: machineInfo(m) }));
    const out: FindingDraft[] = [];
    const loops = findActiveRecreationLoops(ctx);
    const loopOf = (name: string, ns: string) =>
      loops.find((l) => l.owner.kind === 'KubeadmControlPlane' && l.owner.name === name && l.owner.namespace === ns);
    const check = (kind: 'KubeadmControlPlane' | 'MachineDeployment', obj: KubeObject) => {
      const ns = obj.metadata.namespace ?? 'default';
      const name = obj.metadata.name;
      const st = readRolloutStatus(obj);
      const own = machines.filter(
        ({ i }) =>
          i.namespace === ns && (kind === 'KubeadmControlPlane' ? i.kcpName === name : i.deploymentName === name),
      );
      const outdated = own.filter(({ i }) => !i.deleting && st.version && i.version && i.version !== st.version);
      const behind = st.replicas !== undefined && st.updatedReplicas !== undefined && st.updatedReplicas < st.replicas;
      if (outdated.length === 0 && !behind) return;
      const newest = own
        .map(({ m }) => m.metadata.creationTimestamp)
        .filter((t): t is string => !!t)
        .sort()
        .at(-1);
      // Progress from one snapshot: an up-to-date machine that really joined (its Node Ready, with the
      // control-plane role for a KCP), or the rollout's start (v1beta1 MachinesSpecUpToDate=False,
      // v1beta2 RollingOut=True). New machines that never join (seed S2) or are recreated again and
      // again (seed S3) are not progress. Without either, the newest machine's creation is the best guess.
      const joined = own.filter(({ i }) => {
        if (i.deleting || !i.nodeName || i.version !== st.version) return false;
        const n = snap.nodes.find((x) => x.metadata.name === i.nodeName);
        return !n || (isNodeReady(n) && (kind !== 'KubeadmControlPlane' || isControlPlaneNode(n)));
      });
      const started = [findCondition(obj, 'MachinesSpecUpToDate'), findCondition(obj, 'RollingOut')].find(
        (c) => c && c.status === (c.type === 'RollingOut' ? 'True' : 'False'),
      )?.lastTransitionTime;
      const progressPoints = [...joined.map(({ m }) => m.metadata.creationTimestamp), started]
        .filter((t): t is string => !!t)
        .sort();
      const lastProgress = progressPoints.at(-1) ?? newest;
      const fromSnapshot = ageMinutes(lastProgress, ctx.now) ?? 0;
      const fromHistory = minutesUnchangedInHistory(ctx, kind, ns, name, st.version, st.updatedReplicas);
      const stalled = Math.max(fromSnapshot, fromHistory);
      if (stalled < ctx.thresholds.upgradeStuckMinutes) return;
      const evidence = [
        `${kind} ${ns}/${name}: spec.version=${st.version ?? '<none>'}, replicas=${st.replicas ?? '?'}, updated/upToDate=${st.updatedReplicas ?? '?'}, ready=${st.readyReplicas ?? '?'}`,
        ...outdated.map(({ i }) => `Machine ${i.namespace}/${i.name} still at ${i.version}`),
      ];
      if (started) evidence.push(`rollout started ${started}`);
      if (newest) evidence.push(`newest machine created ${newest}`);
      if (lastProgress) evidence.push(`last progress ${lastProgress} (${formatAge(fromSnapshot * 60000)} ago)`);
      if (fromHistory > 0)
        evidence.push(`updated replicas unchanged for ${formatAge(fromHistory * 60000)} across earlier scans`);
      let cause: string | undefined;
      const causedBy: string[] = [];
      const remediations: RemediationProposal[] = [];
      // The object that holds the rollout (a pause, an old machine that cannot be deleted, a new
      // one that gets no VM, remediation given up), named with its own finding.
      const held = findRolloutBlockers(ctx, kind, obj);
      const heldCause = held.causes.length ? `the rollout is held: ${held.causes.join('; ')}.` : undefined;
      if (kind === 'KubeadmControlPlane') {
        const notJoined = findNotJoinedMachines(snap).filter(({ machine }) => machineInfo(machine).kcpName === name);
        // A stale member holding the new machine's peer URL blocks the join. The
        // fix is removing that member — not scaling workloads (load is not the cause) and never
        // deleting an existing control-plane machine.
        const blockers = findEtcdMemberMismatches(snap, ctx.now).filter(
          (mm) => mm.blocksJoinOf && own.some(({ i }) => `${i.namespace}/${i.name}` === mm.blocksJoinOf),
        );
        if (blockers.length) {
          for (const mm of blockers)
            causedBy.push(fingerprint(snap.cluster, 'etcd.member-mismatch', { kind: 'EtcdMember', name: mm.name }));
          evidence.push(...blockers.map((mm) => mm.detail));
          cause =
            `new control-plane machine ${blockers.map((mm) => mm.blocksJoinOf).join(', ')} cannot join etcd: stale member ${blockers.map((mm) => mm.name).join(', ')} left by a failed join holds its peer URL ("Peer URLs already exists"; KCP does not remove the member of a machine that never got a Node). ` +
            'Remove that member so the join can proceed. Do not delete existing control-plane machines (data loss); scaling workloads does not help.';
          remediations.push(...blockers.flatMap(proposeRemoveMember));
        } else if (heldCause) {
          causedBy.push(...held.causedBy);
          cause = `${heldCause} Do not delete existing control-plane machines to push the rollout (data loss).`;
        } else if (notJoined.length) {
          const mism = findEtcdMemberMismatches(snap, ctx.now);
          for (const nj of notJoined)
            causedBy.push(
              fingerprint(snap.cluster, 'controlplane.node-not-joined', {
                kind: 'Machine',
                namespace: ns,
                name: nj.machine.metadata.name,
              }),
            );
          for (const mm of mism)
            causedBy.push(fingerprint(snap.cluster, 'etcd.member-mismatch', { kind: 'EtcdMember', name: mm.name }));
          cause =
            `new control-plane node ${notJoined.map((n) => n.node.metadata.name).join(', ')} never joined the control plane` +
            (mism.length
              ? ` → etcd members do not match the machines (${mism.map((m) => `${m.kind} ${m.name}`).join(', ')})`
              : '') +
            ': the etcd join timed out. Do not delete existing control-plane machines (data loss); reduce load on the control-plane nodes so the next join succeeds.';
          const hogs = describeMemoryHogs(findControlPlaneMemoryHogs(snap));
          evidence.push(...hogs.evidence);
          remediations.push(...hogs.remediations);
        } else if (loopOf(name, ns)) {
          // Seed S3: each new control-plane machine is deleted and recreated before it is ready, so the
          // rollout cannot advance; the loop (and what it names as its cause) is the root, not the rollout.
          const loop = loopOf(name, ns)!;
          causedBy.push(
            fingerprint(snap.cluster, 'capi.recreation-loop', {
              kind: loop.owner.kind,
              namespace: loop.owner.namespace,
              name: loop.owner.name,
            }),
          );
          cause =
            'its new control-plane machines are deleted and recreated before they become ready (recreation loop), so the rollout cannot advance until the loop stops. Do not delete existing control-plane machines to push the rollout (data loss).';
        } else {
          cause =
            'Do not delete existing control-plane machines to push the rollout (data loss); find why the newest machine does not become ready.';
        }
      } else if (heldCause) {
        causedBy.push(...held.causedBy);
        cause = heldCause;
      }
      out.push({
        id: 'upgrade.stuck',
        severity: 'warning',
        section: 'upgrades',
        title: `${kind === 'KubeadmControlPlane' ? 'Control-plane' : 'MachineDeployment'} rollout ${ns}/${name} to ${st.version ?? '?'} stuck for ${formatAge(stalled * 60000)} (${st.updatedReplicas ?? '?'}/${st.replicas ?? '?'} updated)`,
        subject: { kind, namespace: ns, name },
        evidence,
        cause,
        causedBy: causedBy.length ? causedBy : undefined,
        remediations,
      });
    };
    for (const kcp of snap.capi.kubeadmControlPlanes) check('KubeadmControlPlane', kcp);
    for (const md of snap.capi.machineDeployments) check('MachineDeployment', md);
    return out;
  },
};
