import type { Snapshot } from '../../cluster/snapshot.js';
import type { Analyzer, FindingDraft } from '../analyzer.js';
import type { Severity } from '../finding.js';
import { findEtcdLeaderState } from '../facts/find-etcd-leader-state.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { findLogsOnEtcd } from '../facts/find-logs-on-etcd.js';
import { describeMember } from '../facts/format-member-id.js';
import { isEtcdAuthError } from '../facts/is-etcd-auth-error.js';
import { reconcileEtcd } from '../facts/reconcile-etcd.js';

const CAUSE =
  'etcd lost quorum, so it is read-only: kube-apiserver fails ("etcdserver: no leader"), kubectl and Kubernetes self-healing are down, ' +
  'but running workloads are likely still serving. Bring back enough etcd members (control-plane VMs) to restore quorum.';

/**
 * Seed S1: with 1 of 3 members up the survivor never becomes leader ("etcdserver: no leader"); the
 * API server fails, self-healing stops, running workloads keep serving.
 *
 * Etcd without a leader must never look healthy, and one member's word is not the
 * cluster's. Quorum is lost when fewer voting members than a quorum can still be healthy (members
 * never asked count as possibly healthy); a member that reports "no leader" while others were not
 * asked is a warning that says what is missing. Without a member list (3.5 needs a leader to list
 * members) failing endpoints still mean no leader, said with the missing list. Pod logs of a
 * `kubectl cluster-info dump` tree speak when nothing else does.
 */
export const etcdNoLeaderAnalyzer: Analyzer = {
  id: 'etcd.no-leader',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    // Members that still name a (dead) leader are the more precise etcd.leader-unreachable (seed S0).
    if (findLeaderUnreachableCause(snap)) return [];
    // A proposal committed through any member proves a leader and a quorum, whatever else failed
    // (etcd.quorum-degraded names what does not answer).
    if (reconcileEtcd(snap)?.voting.some((v) => v.committed)) return [];
    // Pod logs are history: they speak only when the dump has no etcd data and no /readyz.
    const verdict =
      judgeEtcd(snap) ?? judgeApiServer(snap) ?? (snap.etcd || snap.apiserver ? undefined : judgeLogs(snap));
    if (!verdict) return [];
    const evidence = [...verdict.evidence];
    // The API server's and the logs' words support any verdict.
    const api = apiNoLeaderText(snap);
    if (api && !evidence.some((e) => e.startsWith('API server'))) evidence.push(`API server: "${api}"`);
    const logs = findLogsOnEtcd(snap);
    if (verdict.source !== 'logs') evidence.push(...logs.apiserverLines.slice(-2));
    const draft: FindingDraft = {
      id: 'etcd.no-leader',
      severity: verdict.severity,
      section: 'etcd',
      title: verdict.title,
      subject: { kind: 'EtcdCluster', name: snap.cluster },
      evidence,
      cause: verdict.severity === 'critical' ? CAUSE : (verdict.cause ?? CAUSE),
      remediations: [],
    };
    if (verdict.missing.length) draft.missing = verdict.missing;
    if (verdict.confidence) draft.confidence = verdict.confidence;
    return [draft];
  },
};

interface Verdict {
  source: 'etcd' | 'apiserver' | 'logs';
  severity: Severity;
  title: string;
  evidence: string[];
  missing: string[];
  cause?: string;
  confidence?: 'high' | 'medium' | 'low';
}

/** What etcdctl output or the live probe says. */
function judgeEtcd(snap: Snapshot): Verdict | undefined {
  const etcd = snap.etcd;
  if (!etcd) return undefined;
  const state = findEtcdLeaderState(snap);
  if (!state) return judgeWithoutMembers(snap);
  const members = etcd.members;
  const failedVoters = state.voting.filter((m) => state.failed.has(m.id));
  // Members that may still be in a quorum: every voter not seen failing (never asked ones included).
  const possible = state.voting.length - failedVoters.length;
  const failedLines = failedVoters.map((m) => `${describeMember(m.id, members)}: ${state.failed.get(m.id)}`);
  const saysNoLeader = state.noLeaderErrors.map((e) => `endpoint status ${e}`);
  const leaderNamed = !!state.leaderId;
  // Rows whose text output does not show whom they follow (leaderNotShown) are answers, not "no leader".
  const leaderHidden = etcd.endpoints.some((e) => e.leaderNotShown);
  const anyTrouble =
    saysNoLeader.length > 0 || failedVoters.length > 0 || (etcd.endpoints.length > 0 && !leaderNamed && !leaderHidden);
  if (!anyTrouble) return undefined;

  if (possible < state.quorum && !leaderNamed) {
    const evidence = [
      ...saysNoLeader,
      `${state.healthy.length} of ${state.voting.length} voting members healthy, ${failedVoters.length} failing (quorum needs ${state.quorum})`,
      ...failedLines,
    ];
    if (etcd.endpoints.length > 0 && saysNoLeader.length === 0)
      evidence.push(`no endpoint reports a leader (${etcd.endpoints.map((e) => e.endpoint).join(', ')})`);
    return {
      source: 'etcd',
      severity: 'critical',
      title: `etcd has no leader (quorum lost: needs ${state.quorum} of ${state.voting.length} members)`,
      evidence,
      missing: [],
    };
  }
  if (saysNoLeader.length === 0 && leaderNamed) return undefined;
  // Some member says "no leader" but quorum is not proven lost: the others were not asked, or they
  // still follow a leader (a member cut off from its peers: etcd keeps serving without it).
  const missing: string[] = [];
  if (state.notQueried.length) {
    missing.push(
      `${state.notQueried.map((m) => describeMember(m.id, members)).join(', ')} not queried: cannot tell a lost quorum from one member cut off`,
    );
  }
  const evidence = [...saysNoLeader, ...failedLines];
  if (leaderNamed) {
    const followers = state.followersByLeader.get(state.leaderId!) ?? [];
    evidence.push(
      `${followers.length ? followers.join(', ') : 'an endpoint'} still follow leader ${describeMember(state.leaderId!, members)}`,
    );
  }
  if (saysNoLeader.length === 0 && failedVoters.length > 0 && !leaderNamed)
    evidence.push('no endpoint reports a leader');
  if (possible < state.quorum) {
    // Quorum cannot be reached, though some member still names a leader it cannot reach.
    return {
      source: 'etcd',
      severity: 'critical',
      title: `etcd has no working quorum (${possible} of ${state.voting.length} members can vote, needs ${state.quorum})`,
      evidence,
      missing,
    };
  }
  const who = failedVoters.map((m) => m.name || describeMember(m.id, members));
  return {
    source: 'etcd',
    severity: 'warning',
    title: `etcd member ${who.join(', ') || 'endpoint'} reports no leader; quorum not shown lost (${possible} of ${state.voting.length} members may still vote)`,
    evidence,
    missing,
    cause: leaderNamed
      ? 'A member that reports no leader while others follow one is cut off from its peers (network, or a slow disk): the cluster serves without it, but one more lost member stops it.'
      : 'Members report no leader, but not enough were asked to tell a lost quorum from members cut off: query every member (etcdctl endpoint status --cluster).',
    confidence: state.notQueried.length ? 'low' : 'medium',
  };
}

/** No member list (etcd 3.5 needs a leader to list members): the endpoints and their errors decide. */
function judgeWithoutMembers(snap: Snapshot): Verdict | undefined {
  const etcd = snap.etcd!;
  const listErrors = (etcd.errors ?? []).filter((e) => e.command === 'member list').map((e) => e.error);
  const noLeader = [
    ...etcd.endpoints.flatMap((s) =>
      s.errors.filter((e) => /no leader/i.test(e)).map((e) => `endpoint status ${s.endpoint}: ${e}`),
    ),
    ...(etcd.errors ?? [])
      .filter((e) => /no leader/i.test(e.error))
      .map((e) => `${e.command}${e.endpoint ? ` ${e.endpoint}` : ''}: ${e.error}`),
  ];
  // An auth refusal is an answer (etcd-io/etcd#13692): not evidence of a missing leader.
  const healthFalse = etcd.health.filter(
    (h) => !h.health && !/^Active Alarm\(s\)/.test(h.error ?? '') && !isEtcdAuthError(h.error),
  );
  const allUnhealthy = healthFalse.length > 0 && healthFalse.length === etcd.health.length;
  const statusFailed = (etcd.errors ?? []).filter((e) => e.command === 'endpoint status' && e.endpoint);
  const noStatusAnswer = etcd.endpoints.length === 0 && statusFailed.length > 0;
  const leaderSeen = etcd.endpoints.some((s) => s.leader);
  if (leaderSeen && noLeader.length === 0) return undefined;
  if (noLeader.length === 0 && !allUnhealthy && !noStatusAnswer) return undefined;
  // etcd fails only from where the bot stands while the API server reads it fine: our access, not quorum.
  const api = snap.apiserver;
  const apiUsesEtcd = api?.reachable && api.ready !== false && api.checks.some((c) => c.name === 'etcd' && c.ok);
  if (apiUsesEtcd && noLeader.length === 0) return undefined;
  const evidence = [...noLeader];
  // One line per member, every source matched by endpoint (never the same endpoint twice).
  const rec = reconcileEtcd(snap);
  for (const v of rec?.failing ?? []) evidence.push(`${v.label}: ${v.facts.join('; ')}`);
  if (listErrors.length) evidence.push(`member list failed: ${listErrors.slice(0, 3).join('; ')}`);
  const missing = [
    listErrors.length ? `member list unavailable: ${listErrors[0]}` : 'member list not read: quorum size unknown',
  ];
  return {
    source: 'etcd',
    severity: 'critical',
    title: 'etcd has no leader (no member answers; member list unavailable)',
    evidence,
    missing,
    // Words "no leader" from etcd itself are direct evidence; endpoints that only fail are inference.
    confidence: noLeader.length ? 'medium' : 'low',
  };
}

/** Only the API server tells (no etcd access): "etcdserver: no leader" in /readyz or its error. */
function judgeApiServer(snap: Snapshot): Verdict | undefined {
  const text = apiNoLeaderText(snap);
  if (!text) return undefined;
  return {
    source: 'apiserver',
    severity: 'critical',
    title: 'etcd has no leader',
    evidence: [`API server: "${text}"`],
    missing: snap.etcd ? [] : ['etcd not queried: judged from the API server'],
  };
}

/** A `kubectl cluster-info dump` tree: the end of the etcd pods' logs. */
function judgeLogs(snap: Snapshot): Verdict | undefined {
  const logs = findLogsOnEtcd(snap);
  if (!logs.leaderless.length) return undefined;
  const last = logs.leaderless
    .map((l) => l.time)
    .filter((t): t is string => !!t)
    .sort()
    .at(-1);
  const missing = [
    `no etcdctl output or etcd probe: judged from the end of the etcd pod logs${last ? ` (last line ${last})` : ''}`,
  ];
  // The API server served the objects of this dump: etcd had a leader when they were read, later
  // than the logs perhaps. Say so rather than call a recovered cluster down.
  const served = snap.nodes.length > 0 || snap.pods.length > 0;
  if (served)
    missing.push(
      'the API server served the objects of this dump, so etcd may have had a leader again when it was taken',
    );
  return {
    source: 'logs',
    severity: served ? 'warning' : 'critical',
    title: `etcd has no leader at the end of its pod logs (${logs.leaderless.map((l) => l.pod).join(', ')})`,
    evidence: [
      ...logs.leaderless.map((l) => `${l.namespace}/${l.pod} logs.txt ends leaderless: ${l.line}`),
      ...logs.apiserverLines.slice(-3),
    ],
    missing,
    confidence: 'medium',
  };
}

function apiNoLeaderText(snap: Snapshot): string | undefined {
  const api = snap.apiserver;
  const apiText = [api?.error, ...(api?.checks ?? []).filter((c) => !c.ok).map((c) => c.message)].filter(
    (t): t is string => !!t,
  );
  return apiText.find((t) => /etcdserver: no leader/i.test(t));
}
