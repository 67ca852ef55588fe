import type { Snapshot } from '../cluster/snapshot.js';
import { findEtcdLeaderState } from '../diagnose/facts/find-etcd-leader-state.js';
import { findLogsOnEtcd } from '../diagnose/facts/find-logs-on-etcd.js';
import { describeMember } from '../diagnose/facts/format-member-id.js';
import { isControlPlaneNode } from '../diagnose/facts/is-control-plane-node.js';
import { isNodeReady } from '../diagnose/facts/is-node-ready.js';
import type { SectionId } from '../diagnose/finding.js';

/**
 * One line of counts per section ("2 of 3 control-plane nodes Ready"), from the snapshot alone:
 * what the SRE would otherwise get from five kubectl commands. `hasData` is false when the
 * section's source was not collected at all (then its status is "unknown", not "healthy").
 */
export function summarizeSection(id: SectionId, s: Snapshot): { summary: string; hasData: boolean } {
  switch (id) {
    case 'apiserver':
      return summarizeApiServer(s);
    case 'etcd':
      return summarizeEtcd(s);
    case 'controlplane':
      return summarizeControlPlane(s);
    case 'nodes': {
      if (!s.nodes.length) return { summary: 'no nodes read', hasData: false };
      const ready = s.nodes.filter(isNodeReady).length;
      const workers = s.nodes.filter((n) => !isControlPlaneNode(n));
      const wReady = workers.filter(isNodeReady).length;
      return { summary: `${ready} of ${s.nodes.length} nodes Ready (workers ${wReady} of ${workers.length})`, hasData: true };
    }
    case 'machines': {
      const ms = s.capi.machines;
      if (!ms.length) return { summary: 'no Cluster API machines read', hasData: false };
      const phases = countBy(ms, (m) => (m.metadata.deletionTimestamp ? 'Deleting' : String(m.status?.phase ?? 'Unknown')));
      const running = phases.get('Running') ?? 0;
      const other = [...phases].filter(([p]) => p !== 'Running').map(([p, n]) => `${n} ${p}`);
      return { summary: `${running} of ${ms.length} Machines Running${other.length ? ` (${other.join(', ')})` : ''}`, hasData: true };
    }
    case 'upgrades':
      return summarizeUpgrades(s);
    case 'webhooks': {
      const all = [...s.validatingWebhooks, ...s.mutatingWebhooks];
      if (!all.length) return { summary: 'no admission webhook configurations', hasData: s.nodes.length > 0 };
      const failClosed = all.filter((c) => (c.webhooks ?? []).some((w: { failurePolicy?: string }) => (w.failurePolicy ?? 'Fail') === 'Fail')).length;
      return { summary: `${all.length} webhook configurations (${failClosed} with failurePolicy Fail)`, hasData: true };
    }
    case 'workloads': {
      if (!s.pods.length) return { summary: 'no pods read', hasData: false };
      const terminating = s.pods.filter((p) => p.deletionTimestamp).length;
      const phases = countBy(s.pods.filter((p) => !p.deletionTimestamp), (p) => p.phase ?? 'Unknown');
      const parts = [...phases].sort((a, b) => b[1] - a[1]).map(([p, n]) => `${n} ${p}`);
      if (terminating) parts.push(`${terminating} Terminating`);
      return { summary: `${s.pods.length} pods: ${parts.join(', ')}`, hasData: true };
    }
  }
}

function summarizeApiServer(s: Snapshot) {
  const a = s.apiserver;
  if (!a) return { summary: s.nodes.length ? 'answered list calls (/readyz not recorded)' : 'not checked', hasData: s.nodes.length > 0 };
  if (!a.reachable) return { summary: `unreachable${a.error ? `: ${a.error}` : ''}`, hasData: true };
  const failed = a.checks.filter((c) => !c.ok);
  if (a.ready === false || failed.length) {
    return { summary: `/readyz failing${failed.length ? `: ${failed.map((c) => c.name).join(', ')}` : a.error ? `: ${a.error}` : ''}`, hasData: true };
  }
  return { summary: `ready${a.checks.length ? ` (${a.checks.length} /readyz checks passed)` : ''}`, hasData: true };
}

/**
 * The etcd line (issue 13): members, health, leader by name and hex id (as etcdctl prints ids),
 * alarms, and what was not seen. It has data only when it can see members and a leader: without
 * either the section is unknown (or critical by its findings), never "healthy, 0 members".
 */
function summarizeEtcd(s: Snapshot) {
  const e = s.etcd;
  if (!e) {
    // A `kubectl cluster-info dump` tree has no etcdctl output, but its etcd pod logs may speak.
    const logs = findLogsOnEtcd(s);
    const said = logs.leaderless.length
      ? `; pod logs end without a leader (${logs.leaderless.map((l) => l.pod).join(', ')})`
      : logs.withLeader.length
        ? `; pod logs end with a leader elected (${logs.withLeader.join(', ')})`
        : '';
    return { summary: `not collected (configure etcd endpoints or add etcd/ to the dump)${said}`, hasData: false };
  }
  const parts: string[] = [];
  const listError = (e.errors ?? []).find((x) => x.command === 'member list')?.error;
  const learners = e.members.filter((m) => m.isLearner).length;
  if (e.members.length) parts.push(`${e.members.length} members${learners ? ` (${learners} learner)` : ''}`);
  else parts.push(listError ? `member list unavailable: ${listError}` : 'member list not read');
  const state = findEtcdLeaderState(s);
  if (e.health.length) {
    const healthy = e.health.filter((h) => h.health).length;
    parts.push(`${healthy} of ${e.health.length} queried endpoints healthy`);
  }
  const leaders = new Set(e.endpoints.map((ep) => ep.leader).filter((l): l is string => !!l));
  let leaderSeen = false;
  if (leaders.size === 1) {
    const [id] = [...leaders];
    const agree = e.endpoints.filter((ep) => ep.leader === id).length;
    parts.push(`leader ${describeMember(id!, e.members)} (named by ${agree} of ${e.endpoints.length} answering)`);
    leaderSeen = true;
    if (state && !state.leaderQueried) parts.push('leader not queried');
  } else if (leaders.size > 1) {
    parts.push(`members disagree on the leader (${[...leaders].map((l) => describeMember(l, e.members)).join(', ')})`);
    leaderSeen = true;
  } else {
    const why = e.endpoints.flatMap((ep) => ep.errors).find((x) => /no leader/i.test(x));
    parts.push(e.endpoints.length ? `no leader${why ? ` ("${why}")` : ''}` : 'no endpoint answered endpoint status: leader unknown');
  }
  if (state?.notQueried.length) parts.push(`${state.notQueried.length} not queried`);
  const alarms = [...new Set(e.alarms.filter((a) => a.alarm !== 'NONE').map((a) => a.alarm))];
  if (alarms.length) parts.push(`alarm ${alarms.join(', ')}`);
  return { summary: parts.join(', '), hasData: e.members.length > 0 && leaderSeen };
}

function summarizeControlPlane(s: Snapshot) {
  const cp = s.nodes.filter(isControlPlaneNode);
  const kcp = s.capi.kubeadmControlPlanes[0];
  const want = typeof kcp?.spec?.replicas === 'number' ? kcp.spec.replicas : undefined;
  if (!cp.length && !kcp) return { summary: 'no control-plane nodes read', hasData: false };
  const ready = cp.filter(isNodeReady).length;
  const of = want ?? cp.length;
  return { summary: `${ready} of ${of} control-plane nodes Ready${want !== undefined && want !== cp.length ? ` (${cp.length} registered)` : ''}`, hasData: true };
}

function summarizeUpgrades(s: Snapshot) {
  const parts: string[] = [];
  for (const kcp of s.capi.kubeadmControlPlanes) {
    const want = kcp.spec?.replicas;
    const updated = kcp.status?.upToDateReplicas ?? kcp.status?.updatedReplicas;
    const v = kcp.spec?.version;
    if (typeof want === 'number' && typeof updated === 'number') parts.push(`KCP ${kcp.metadata.name}: ${updated} of ${want} at ${v ?? '?'}`);
  }
  const mds = s.capi.machineDeployments;
  const behind = mds.filter((md) => {
    const want = md.spec?.replicas;
    const updated = md.status?.upToDateReplicas ?? md.status?.updatedReplicas;
    return typeof want === 'number' && typeof updated === 'number' && updated < want;
  });
  if (mds.length) parts.push(`${mds.length - behind.length} of ${mds.length} MachineDeployments up to date`);
  if (!parts.length) return { summary: 'no Cluster API rollouts read', hasData: false };
  return { summary: parts.join('; '), hasData: true };
}

function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  // String(): a dump's pod phase may be any JSON type (issue 9 fuzzing); a label must not throw.
  for (const i of items) m.set(String(key(i)), (m.get(String(key(i))) ?? 0) + 1);
  return new Map([...m].sort((a, b) => a[0].localeCompare(b[0])));
}
