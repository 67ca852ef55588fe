import { KINDS } from '../cluster/kinds.js';
import type { Snapshot } from '../cluster/snapshot.js';
import { findCondition } from '../diagnose/facts/find-condition.js';
import { findEtcdLeaderState } from '../diagnose/facts/find-etcd-leader-state.js';
import { findLogsOnEtcd } from '../diagnose/facts/find-logs-on-etcd.js';
import { describeMember } from '../diagnose/facts/format-member-id.js';
import { describeMayStillFail, reconcileEtcd } from '../diagnose/facts/reconcile-etcd.js';
import { describePodTrouble, findPodTrouble } from '../diagnose/facts/find-pod-trouble.js';
import { isControlPlaneNode } from '../diagnose/facts/is-control-plane-node.js';
import { isControlPlanePod } from '../diagnose/facts/is-control-plane-pod.js';
import { isNodeReady } from '../diagnose/facts/is-node-ready.js';
import type { SectionId } from '../diagnose/finding.js';
import { clustersCountingControlPlane, summarizeControlPlane } from './summarize-control-plane.js';
import { summarizeMachines } from './summarize-machines.js';
import { summarizeUpgrades } from './summarize-upgrades.js';

/** One section's line and what it says about the section's status (build-report.ts decides the status). */
export interface SectionLine {
  summary: string;
  /**
   * False when the section's source was not collected, failed, or is not in the capture: the section
   * is then `unknown` (grey, "not collected: <why>"), never healthy (defect class 9).
   */
  hasData: boolean;
  /** The line itself counts something unhealthy that no finding covers (a pod in CrashLoopBackOff): not green. */
  degraded?: boolean;
  /**
   * What the line counted: `ready` of `total` (nodes Ready, pods without trouble, members answering,
   * webhook kinds listed). A section is healthy only when `ready` equals `total` and `total` > 0.
   */
  counted?: { ready: number; total: number };
}

/** Node conditions whose True means the kubelet is evicting pods or refusing new ones. */
const PRESSURE = ['MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

/** Pods named in a line, at most; the rest are counted. */
const MAX_NAMED = 3;

/**
 * One line of counts per section ("2 of 3 control-plane nodes Ready"), from the snapshot alone:
 * what the SRE would otherwise get from five kubectl commands. A section whose kinds were not read
 * (Snapshot.coverage: list failed, or not in the capture) says "not collected: <why>" and has no data.
 */
export function summarizeSection(id: SectionId, s: Snapshot): SectionLine {
  const line = summarizeFromData(id, s);
  return WORKLOAD_SIDE.has(id) && s.apiserver?.reachable === false ? lastKnown(line) : line;
}

/**
 * Sections read from the workload cluster's API server: nodes, pods, webhook configurations and the
 * control plane (with a KubeadmControlPlane its count may come from Machine conditions on the management
 * side, but the API server is part of the control plane: one that does not answer is not healthy). When
 * that API server did not answer, objects in a capture are from before (a dump's last known state).
 */
const WORKLOAD_SIDE: ReadonlySet<SectionId> = new Set(['nodes', 'workloads', 'webhooks', 'controlplane']);

/**
 * The API server is unreachable, yet the capture holds its objects: show them as the last known state
 * and keep the section `unknown` (defect class 9: green means checked, never stale data). A
 * section already "not collected" keeps its own reason.
 */
function lastKnown(line: SectionLine): SectionLine {
  if (!line.hasData) return line;
  return {
    summary: `not checked: API server unreachable; last known: ${line.summary}`,
    hasData: false,
    counted: { ready: 0, total: 0 },
  };
}

function summarizeFromData(id: SectionId, s: Snapshot): SectionLine {
  switch (id) {
    case 'apiserver':
      return summarizeApiServer(s);
    case 'etcd':
      return summarizeEtcd(s);
    case 'controlplane':
      // With a KubeadmControlPlane, readiness also comes from Machine conditions or KCP status (a
      // management-side capture has no workload Nodes), and a Cluster may count its control plane in its
      // own v1beta2 status (a capture of Cluster objects only): summarizeControlPlane says when none reports it.
      return (
        (s.capi.kubeadmControlPlanes.length || clustersCountingControlPlane(s).length
          ? undefined
          : notCollected(s, ['Node'])) ?? withStaticPodTrouble(summarizeControlPlane(s), s)
      );
    case 'nodes': {
      const missing = notCollected(s, ['Node']);
      if (missing) return missing;
      if (!s.nodes.length) return { summary: 'no nodes read', hasData: false };
      const ready = s.nodes.filter(isNodeReady).length;
      const workers = s.nodes.filter((n) => !isControlPlaneNode(n));
      const wReady = workers.filter(isNodeReady).length;
      const summary = `${ready} of ${s.nodes.length} nodes Ready (workers ${wReady} of ${workers.length})`;
      const pressed = s.nodes.flatMap((n) => {
        const on = PRESSURE.filter((type) => findCondition(n, type)?.status === 'True');
        return on.length ? [`${n.metadata.name} (${on.join(', ')})`] : [];
      });
      // A Ready node under pressure evicts pods and takes no new ones: counted and named, not green.
      const counted = { ready, total: s.nodes.length };
      if (pressed.length)
        return { summary: `${summary}; under pressure: ${named(pressed)}`, hasData: true, degraded: true, counted };
      return { summary, hasData: true, counted };
    }
    case 'machines':
      return notCollected(s, ['Machine']) ?? summarizeMachines(s);
    case 'upgrades':
      return summarizeUpgrades(s);
    case 'webhooks': {
      const missing = notCollected(s, ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']);
      if (missing) return missing;
      const all = [...s.validatingWebhooks, ...s.mutatingWebhooks];
      // What is counted: the two configuration kinds listed (an empty list is a real answer).
      const counted = { ready: 2, total: 2 };
      // With coverage, an empty list was really listed; without (hand-built snapshots) only a read cluster says so.
      if (!all.length)
        return {
          summary: 'no admission webhook configurations',
          hasData: s.coverage ? true : s.nodes.length > 0,
          counted,
        };
      const failClosed = all.filter((c) =>
        (c.webhooks ?? []).some((w: { failurePolicy?: string }) => (w.failurePolicy ?? 'Fail') === 'Fail'),
      ).length;
      return {
        summary: `${all.length} webhook configurations (${failClosed} with failurePolicy Fail)`,
        hasData: true,
        counted,
      };
    }
    case 'workloads':
      return notCollected(s, ['Pod']) ?? summarizeWorkloads(s);
  }
}

/**
 * "not collected: …" when a kind the section needs was not read. Snapshots without coverage (built
 * by hand in tests) keep the older rule: a section with objects has data.
 */
function notCollected(s: Snapshot, kinds: string[]): SectionLine | undefined {
  if (!s.coverage) return undefined;
  const bad = kinds.map((k) => [k, s.coverage?.[k]] as const).filter(([, c]) => c !== undefined && c.state !== 'read');
  if (!bad.length) return undefined;
  const failed = bad.find(([, c]) => c?.state === 'failed');
  if (failed)
    return {
      summary: `not collected: listing ${plural(failed[0])} failed: ${failed[1]?.why ?? 'unknown error'}`,
      hasData: false,
    };
  return { summary: `not collected: no ${bad.map(([k]) => plural(k)).join(' or ')} in the capture`, hasData: false };
}

/** "Nodes", "Cluster API Machines" (a capture may hold OpenShift Machines, which are not these). */
function plural(kind: string): string {
  const capi = KINDS.find((k) => k.kind === kind)?.group.endsWith('cluster.x-k8s.io');
  return `${capi ? 'Cluster API ' : ''}${kind}s`;
}

/**
 * Pods by phase; a pod whose container waits in CrashLoopBackOff / ImagePullBackOff is counted under
 * that reason, not as Running, and named (defect class 10).
 */
function summarizeWorkloads(s: Snapshot): SectionLine {
  if (!s.pods.length) return { summary: 'no pods read', hasData: false };
  const terminating = s.pods.filter((p) => p.deletionTimestamp).length;
  const troubled = s.pods.flatMap((p) => {
    const t = findPodTrouble(p, { at: s.collectedAt, events: s.events });
    return t ? [{ pod: p, t }] : [];
  });
  const troubledPods = new Set(troubled.map((x) => x.pod));
  const phases = countBy(
    s.pods.filter((p) => !p.deletionTimestamp && !troubledPods.has(p)),
    (p) => p.phase ?? 'Unknown',
  );
  for (const [reason, n] of countBy(troubled, (x) => x.t.reason)) phases.set(reason, (phases.get(reason) ?? 0) + n);
  const parts = [...phases].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([p, n]) => `${n} ${p}`);
  if (terminating) parts.push(`${terminating} Terminating`);
  let summary = `${s.pods.length} pods: ${parts.join(', ')}`;
  if (troubled.length) summary += ` — not healthy: ${named(troubled.map((x) => describePodTrouble(x.pod, x.t)))}`;
  return {
    summary,
    hasData: true,
    degraded: troubled.length > 0,
    counted: { ready: s.pods.length - troubled.length, total: s.pods.length },
  };
}

function named(items: string[]): string {
  return items.length > MAX_NAMED
    ? `${items.slice(0, MAX_NAMED).join('; ')} (+${items.length - MAX_NAMED} more)`
    : items.join('; ');
}

/** Counted: /readyz checks passed of those run, or the API server itself (1 of 1 answered). */
function summarizeApiServer(s: Snapshot): SectionLine {
  const a = s.apiserver;
  if (!a)
    return {
      summary: s.nodes.length ? 'answered list calls (/readyz not recorded)' : 'not checked',
      hasData: s.nodes.length > 0,
      counted: { ready: s.nodes.length ? 1 : 0, total: 1 },
    };
  if (!a.reachable)
    return { summary: `unreachable${a.error ? `: ${a.error}` : ''}`, hasData: true, counted: { ready: 0, total: 1 } };
  const failed = a.checks.filter((c) => !c.ok);
  const counted = a.checks.length
    ? { ready: a.checks.length - failed.length, total: a.checks.length }
    : { ready: a.ready === false ? 0 : 1, total: 1 };
  if (a.ready === false || failed.length) {
    return {
      summary: `/readyz failing${failed.length ? `: ${failed.map((c) => c.name).join(', ')}` : a.error ? `: ${a.error}` : ''}`,
      hasData: true,
      degraded: true,
      counted,
    };
  }
  return {
    summary: `ready${a.checks.length ? ` (${a.checks.length} /readyz checks passed)` : ''}`,
    hasData: true,
    counted,
  };
}

/**
 * The etcd line: members, health, leader by name and hex id (as etcdctl prints ids),
 * alarms, and what was not seen. It has data only when it can see members and a leader and every voting
 * member was asked: otherwise the section is unknown (or critical by its findings), never "healthy,
 * 0 members" nor green on one member's word.
 */
function summarizeEtcd(s: Snapshot): SectionLine {
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
  const rec = reconcileEtcd(s);
  const withHealth = (rec?.members ?? []).filter((v) => v.facts.some((f) => f.startsWith('endpoint health')));
  if (withHealth.length) {
    parts.push(`${withHealth.filter((v) => v.committed).length} of ${withHealth.length} queried endpoints healthy`);
  }
  const refused = (rec?.members ?? []).filter((v) => v.authRefused && !v.committed);
  if (refused.length) {
    parts.push(
      `${refused.length} answered but refused for want of credentials ("${refused[0]!.authRefused}"): give etcdctl --user or a client certificate`,
    );
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
  } else if (rec?.leaderProof) {
    // No status row is the leader (it was not asked), but a committed proposal proves one.
    parts.push(
      e.endpoints.length
        ? `leader not among the endpoints asked; a leader and a quorum proven by ${rec.leaderProof}`
        : `a leader and a quorum proven by ${rec.leaderProof}`,
    );
    leaderSeen = true;
  } else {
    const why = e.endpoints.flatMap((ep) => ep.errors).find((x) => /no leader/i.test(x));
    const hidden = e.endpoints.some((ep) => ep.leaderNotShown);
    parts.push(
      hidden && !why
        ? 'leader not shown (no endpoint asked is the leader, and the text output names only the leader row)'
        : e.endpoints.length
          ? `no leader${why ? ` ("${why}")` : ''}`
          : (e.errors ?? []).some((x) => x.command === 'endpoint status')
            ? 'no endpoint answered endpoint status: leader unknown'
            : 'endpoint status not taken: leader unknown',
    );
  }
  // Members that were asked and did not answer (or answered unhealthy): named, and the line is not green
  // when quorum still holds and no finding covers them (openshift/origin#27496: one of three down).
  // Without a member list, the members are the endpoints asked, each once (reconcileEtcd matches them).
  const notAnswering = state
    ? state.voting
        .filter((m) => state.failed.has(m.id))
        .map((m) => `${describeMember(m.id, e.members)} (${state.failed.get(m.id)})`)
    : (rec?.failing ?? []).map((v) => `${v.label} (${v.failed})`);
  if (notAnswering.length) parts.push(`not answering: ${named(notAnswering)}`);
  if (rec?.quorumHeld && rec.voting.length) {
    const left =
      rec.mayStillFail === undefined ? 'the others do not answer this client' : describeMayStillFail(rec.mayStillFail);
    parts.push(`quorum held: ${rec.up.length} of ${rec.voting.length} answer, quorum ${rec.quorum}, ${left}`);
  }
  if (state?.notQueried.length) parts.push(`${state.notQueried.length} not queried`);
  const alarms = [...new Set(e.alarms.filter((a) => a.alarm !== 'NONE').map((a) => a.alarm))];
  if (alarms.length) parts.push(`alarm ${alarms.join(', ')}`);
  // Members nobody asked are unknown, not healthy: a line that covers only some of them is not green
  // (defect classes 2 and 9); the etcd.members-not-queried finding says which and how to ask.
  const hasData = e.members.length > 0 && leaderSeen && !state?.notQueried.length;
  const counted = state
    ? {
        ready: state.voting.length - state.voting.filter((m) => state.failed.has(m.id)).length,
        total: state.voting.length,
      }
    : { ready: rec?.up.length ?? 0, total: rec?.voting.length ?? 0 };
  return hasData && notAnswering.length > 0
    ? { summary: parts.join(', '), hasData, degraded: true, counted }
    : { summary: parts.join(', '), hasData, counted };
}

function countBy<T>(items: T[], key: (t: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  // String(): a dump's pod phase may be any JSON type (fuzzed input); a label must not throw.
  for (const i of items) m.set(String(key(i)), (m.get(String(key(i))) ?? 0) + 1);
  return new Map([...m].sort((a, b) => a[0].localeCompare(b[0])));
}

/** A static pod in CrashLoopBackOff on a Ready node: the node looks fine, the component is not (defect class 10). */
function withStaticPodTrouble(line: SectionLine, s: Snapshot): SectionLine {
  const troubled = s.pods.filter(isControlPlanePod).flatMap((p) => {
    const t = findPodTrouble(p, { at: s.collectedAt, events: s.events });
    return t ? [describePodTrouble(p, t)] : [];
  });
  if (!troubled.length) return line;
  return {
    ...line,
    summary: `${line.summary}; static pods not healthy: ${named(troubled)}`,
    hasData: true,
    degraded: true,
    counted: line.counted ?? { ready: 0, total: 0 },
  };
}
