import type { EtcdMember, Snapshot } from '../../cluster/snapshot.js';
import { endpointKey } from './endpoint-key.js';
import { findLogsOnEtcd } from './find-logs-on-etcd.js';
import { findMemberOfEndpoint } from './find-member-of-endpoint.js';
import { formatMemberId } from './format-member-id.js';
import { isEtcdAuthError } from './is-etcd-auth-error.js';
import { quorum } from './quorum.js';

/** Where a fact about an etcd member comes from, named in every line that quotes it. */
export type EtcdSource =
  'member list' | 'endpoint status' | 'endpoint health' | 'alarm list' | 'etcdctl stderr' | 'pod logs';

/** One etcd member as every source sees it, matched by member id, else by client endpoint. */
export interface EtcdMemberView {
  /** The member id (exact decimal) when any source names it, else the endpoint's host:port. */
  key: string;
  id?: string;
  /** "infra1 (8211f1d0f64f3269)", "8211f1d0f64f3269" or "192.168.3.21:2379": how the report names it. */
  label: string;
  /** Its client endpoint as first written by a source. */
  endpoint?: string;
  learner: boolean;
  /** In `member list`. */
  listed: boolean;
  /** It replied to something: status without errors, a committed proposal, even an auth refusal. */
  up: boolean;
  /** `endpoint health` committed a proposal through it: there is a leader and a quorum behind it. */
  committed: boolean;
  /** Its own status row says it is the leader. */
  leader: boolean;
  /** Asked and did not answer, or answered that it cannot serve ("no leader"): why, with the source. */
  failed?: string;
  /** It answered only with a refusal for want of credentials: up, but nothing read. */
  authRefused?: string;
  /** Every fact about it, "<source>: <what it says>", in source order. */
  facts: string[];
}

export interface EtcdReconciliation {
  members: EtcdMemberView[];
  /** True when `member list` was read: otherwise the members known are the endpoints asked. */
  fromMemberList: boolean;
  /** Members that vote (learners excluded from quorum). */
  voting: EtcdMemberView[];
  /** Voting members that replied. */
  up: EtcdMemberView[];
  /** Voting members asked that did not answer or cannot serve. */
  failing: EtcdMemberView[];
  /** Voting members of the member list nobody asked. */
  notAsked: EtcdMemberView[];
  /** Votes a leader needs: a strict majority of the voting members known. */
  quorum: number;
  /**
   * What proves a leader and a quorum, with its source: a proposal committed (`endpoint health`) needs
   * both; a status row that is the leader while a quorum of members answers is good evidence too.
   */
  leaderProof?: string;
  /**
   * true: quorum held (proven); false: fewer voting members can answer than a quorum, every one asked; undefined:
   * cannot tell.
   */
  quorumHeld?: boolean;
  /** With quorum held: how many more voting members may fail before it is lost. */
  mayStillFail?: number;
}

/**
 * Every etcd source of a snapshot (member list, endpoint status, endpoint health, alarm list, etcdctl's
 * stderr, etcd pod logs) matched member by member, by member id and by endpoint however it was written,
 * before anything is concluded: one endpoint is one member, never listed twice. A committed proposal
 * proves a leader and a quorum; status rows without the leader's prove only that the leader was not
 * asked. Undefined when the snapshot holds no etcdctl output or probe.
 */
export function reconcileEtcd(snapshot: Snapshot): EtcdReconciliation | undefined {
  const etcd = snapshot.etcd;
  if (!etcd) return undefined;
  const views: EtcdMemberView[] = [];
  const byKey = new Map<string, EtcdMemberView>();
  const byEndpoint = new Map<string, EtcdMemberView>();
  const listed = etcd.members;
  const labelOf = (m: EtcdMember) => (m.name ? `${m.name} (${formatMemberId(m.id)})` : formatMemberId(m.id));
  for (const m of listed) {
    const v: EtcdMemberView = {
      key: m.id,
      id: m.id,
      label: labelOf(m),
      learner: m.isLearner,
      listed: true,
      up: false,
      committed: false,
      leader: false,
      facts: [],
    };
    if (m.clientURLs[0]) v.endpoint = m.clientURLs[0];
    v.facts.push(
      `member list: ${m.isLearner ? 'learner' : 'voting member'}${m.clientURLs.length ? ` at ${m.clientURLs.join(', ')}` : ', never started (no client URL)'}`,
    );
    views.push(v);
    byKey.set(m.id, v);
    for (const u of m.clientURLs) byEndpoint.set(endpointKey(u), v);
  }
  /** The view of an endpoint (and member id when the source names it): matched, else a new one. */
  const viewOf = (endpoint: string, memberId?: string): EtcdMemberView => {
    const fromList = listed.length ? findMemberOfEndpoint(listed, endpoint, memberId) : undefined;
    const k = endpointKey(endpoint);
    let v = (fromList && byKey.get(fromList.id)) ?? (memberId ? byKey.get(memberId) : undefined) ?? byEndpoint.get(k);
    if (!v) {
      v = {
        key: memberId ?? k,
        label: memberId ? `${formatMemberId(memberId)} at ${endpoint}` : endpoint,
        endpoint,
        learner: false,
        listed: false,
        up: false,
        committed: false,
        leader: false,
        facts: [],
      };
      if (memberId) v.id = memberId;
      views.push(v);
      byKey.set(v.key, v);
    } else if (memberId && !v.id) {
      // An endpoint first met without an id (endpoint health), now named by its status row.
      v.id = memberId;
      v.label = `${formatMemberId(memberId)} at ${v.endpoint ?? endpoint}`;
    }
    byEndpoint.set(k, v);
    if (!v.endpoint) v.endpoint = endpoint;
    return v;
  };
  const fail = (v: EtcdMemberView, why: string) => {
    if (!v.failed) v.failed = why;
  };

  for (const s of etcd.endpoints) {
    const v = viewOf(s.endpoint, s.memberId);
    const own = s.errors.filter((e) => !/alarm:/i.test(e));
    if (s.isLearner) v.learner = true;
    if (s.leader && s.memberId && s.leader === s.memberId) v.leader = true;
    const leaderPart = v.leader
      ? 'is the leader'
      : s.leader
        ? `follows ${formatMemberId(s.leader)}`
        : s.leaderNotShown
          ? 'answered, whom it follows not shown'
          : 'names no leader';
    v.facts.push(
      `endpoint status: ${own.length ? `errors: ${own.join('; ')}` : leaderPart}${s.raftTerm ? ` (raft term ${s.raftTerm})` : ''}`,
    );
    if (own.length) fail(v, `endpoint status: ${own.join('; ')}`);
    else v.up = true;
  }
  for (const h of etcd.health) {
    const v = viewOf(h.endpoint);
    if (h.health) {
      v.up = true;
      v.committed = true;
      v.facts.push(`endpoint health: committed a proposal${h.took ? ` (took ${h.took})` : ''}`);
    } else if (isEtcdAuthError(h.error)) {
      v.up = true;
      v.authRefused = h.error;
      v.facts.push(`endpoint health: refused for want of credentials: ${h.error}`);
    } else if (/^Active Alarm\(s\)/.test(h.error ?? '')) {
      // etcdctl 3.5+ marks an endpoint unhealthy for an alarm alone: it answered; etcd.alarm speaks of the alarm.
      v.up = true;
      v.facts.push(`endpoint health: ${h.error}`);
    } else {
      v.facts.push(`endpoint health: failed${h.error ? `: ${h.error}` : ''}`);
      fail(v, `endpoint health: ${h.error ?? 'health=false'}`);
    }
  }
  for (const e of etcd.errors ?? []) {
    if (!e.endpoint) continue;
    const v = viewOf(e.endpoint);
    // The health entry made from the same stderr line already says it.
    if (v.facts.some((f) => f.endsWith(e.error))) continue;
    v.facts.push(`etcdctl stderr (${e.command}): ${e.error}`);
    if (isEtcdAuthError(e.error)) {
      v.up = true;
      v.authRefused ??= e.error;
    } else if (!v.up) fail(v, `${e.command}: ${e.error}`);
  }
  for (const a of etcd.alarms) {
    if (a.alarm === 'NONE') continue;
    const v = byKey.get(a.memberId);
    if (v) v.facts.push(`alarm list: ${a.alarm}`);
  }
  const logs = findLogsOnEtcd(snapshot);
  for (const l of logs.leaderless) {
    const v = views.find((x) => x.listed && l.pod.endsWith(x.label.split(' ')[0]!));
    if (v) v.facts.push(`pod logs: ${l.namespace}/${l.pod} ends leaderless`);
  }
  // A member that answered after all (status, a committed proposal) is up, whatever another source said.
  for (const v of views) if (v.up && v.failed && (v.committed || !/no leader/i.test(v.failed))) delete v.failed;

  // Status rows that follow a leader nobody asked: that leader is a member too (known, not asked).
  const leaderIds = new Set(etcd.endpoints.map((e) => e.leader).filter((l): l is string => !!l && l !== '0'));
  for (const id of leaderIds) {
    if (byKey.has(id) || views.some((v) => v.id === id)) continue;
    const v: EtcdMemberView = {
      key: id,
      id,
      label: `${formatMemberId(id)} (the leader, not asked)`,
      learner: false,
      listed: false,
      up: false,
      committed: false,
      leader: true,
      facts: ['endpoint status: named leader by the members asked'],
    };
    views.push(v);
    byKey.set(id, v);
  }
  const anyCommit = views.some((v) => v.committed);
  const hiddenLeader =
    !listed.length &&
    etcd.endpoints.length > 0 &&
    etcd.endpoints.every((e) => e.leaderNotShown || e.errors.length) &&
    !views.some((v) => v.leader);
  if (anyCommit && hiddenLeader) {
    // etcd 3.3 text asked only on followers: a proposal committed, so a leader exists that was not asked.
    views.push({
      key: 'leader-not-asked',
      label: 'the leader (not among the endpoints asked)',
      learner: false,
      listed: false,
      up: true,
      committed: false,
      leader: true,
      facts: ['endpoint status: no row asked is the leader; the proposals its followers committed prove it'],
    });
  }
  for (const v of views)
    if (v.leader && !v.listed && !v.facts.some((f) => f.startsWith('endpoint status: is'))) v.up ||= anyCommit;

  const voting = views.filter((v) => !v.learner);
  const up = voting.filter((v) => v.up && !v.failed);
  const failing = voting.filter((v) => !!v.failed);
  const notAsked = voting.filter((v) => !v.up && !v.failed && (v.listed ? v.facts.length === 1 : v.leader));
  const q = quorum(voting.length);
  const out: EtcdReconciliation = {
    members: views,
    fromMemberList: listed.length > 0,
    voting,
    up,
    failing,
    notAsked,
    quorum: q,
  };
  const committed = voting.filter((v) => v.committed);
  const leaderRow = voting.find((v) => v.leader && v.up);
  if (committed.length) {
    out.leaderProof = `endpoint health: a proposal committed through ${committed.map((v) => v.label).join(', ')} (a commit needs a leader and a quorum)`;
  } else if (leaderRow && up.length >= q) {
    out.leaderProof = `endpoint status: ${leaderRow.label} answers as leader, ${up.length} of ${voting.length} voting members answer (quorum ${q})`;
  }
  if (out.leaderProof) {
    out.quorumHeld = true;
    // Fewer answer here than a quorum, yet a proposal committed: the others answer their peers, not this
    // client (network, TLS, wrong endpoint); how many more may fail is then not known.
    if (up.length >= q) out.mayStillFail = up.length - q;
  } else if (notAsked.length === 0 && up.length + 0 < q && failing.length > 0 && voting.length > 0) {
    out.quorumHeld = false;
  }
  return out;
}

/** "no further member may fail", "1 more member may fail", "2 more members may fail". */
export function describeMayStillFail(n: number): string {
  return n === 0 ? 'no further member may fail' : `${n} more member${n === 1 ? '' : 's'} may fail`;
}
