import type { Snapshot } from '../cluster/snapshot.js';
import { isControlPlaneNode } from '../diagnose/facts/is-control-plane-node.js';
import { isNodeReady } from '../diagnose/facts/is-node-ready.js';
import type { SectionId } from '../diagnose/finding.js';
import { summarizeControlPlane } from './summarize-control-plane.js';
import { summarizeMachines } from './summarize-machines.js';
import { summarizeUpgrades } from './summarize-upgrades.js';

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
    case 'machines':
      return summarizeMachines(s);
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

function summarizeEtcd(s: Snapshot) {
  const e = s.etcd;
  if (!e) return { summary: 'not collected (configure etcd endpoints or add etcd/ to the dump)', hasData: false };
  const healthy = e.health.filter((h) => h.health).length;
  const leaders = new Set(e.endpoints.map((ep) => ep.leader).filter((l): l is string => !!l));
  const nameOf = (id: string) => e.members.find((m) => m.id === id)?.name ?? id;
  let leaderText: string;
  if (leaders.size === 0) leaderText = 'no leader';
  else if (leaders.size === 1) {
    const [id] = [...leaders];
    const agree = e.endpoints.filter((ep) => ep.leader === id).length;
    leaderText = `leader ${nameOf(id!)} (agreed by ${agree} of ${e.endpoints.length} answering)`;
  } else leaderText = `members disagree on the leader (${[...leaders].map(nameOf).join(', ')})`;
  const learners = e.members.filter((m) => m.isLearner).length;
  const health = e.health.length ? `, ${healthy} of ${e.health.length} healthy` : '';
  return { summary: `${e.members.length} members${learners ? ` (${learners} learner)` : ''}${health}, ${leaderText}`, hasData: true };
}

function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  // String(): a dump's pod phase may be any JSON type (issue 9 fuzzing); a label must not throw.
  for (const i of items) m.set(String(key(i)), (m.get(String(key(i))) ?? 0) + 1);
  return new Map([...m].sort((a, b) => a[0].localeCompare(b[0])));
}
