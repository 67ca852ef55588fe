import type { Analyzer, FindingDraft } from '../analyzer.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { describeMayStillFail, reconcileEtcd } from '../facts/reconcile-etcd.js';

/**
 * etcd.quorum-degraded: voting members that were asked and do not answer (or cannot serve) while a
 * leader and a quorum are proven — by a committed proposal (`endpoint health`), or by the leader's own
 * status row with a quorum of members answering. Quorum arithmetic over the voting members known
 * (learners excluded): for 1, 3, 5 and 7 members a quorum is 1, 2, 3 and 4, and what may still fail is
 * those answering minus the quorum. etcd-io/etcd#10353: three of five committing, two refusing
 * connections, is a degraded etcd that may lose no further member — not "unknown", not "no leader".
 * A dead leader the others still follow is etcd.leader-unreachable instead.
 */
export const etcdQuorumDegradedAnalyzer: Analyzer = {
  id: 'etcd.quorum-degraded',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const rec = reconcileEtcd(snap);
    if (!rec?.quorumHeld || rec.failing.length === 0) return [];
    if (findLeaderUnreachableCause(snap)) return [];
    const known = rec.voting.length;
    const names = rec.failing.map((v) => v.label);
    const left =
      rec.mayStillFail === undefined ? 'how many more may fail is not known' : describeMayStillFail(rec.mayStillFail);
    const cutOff = rec.mayStillFail === undefined;
    const evidence = [
      rec.leaderProof!,
      `${rec.up.length} of ${known} voting members answer; quorum is ${rec.quorum} of ${known}: ${left}`,
      ...rec.failing.map((v) => `${v.label}: ${v.failed}`),
      ...rec.members.flatMap((v) => v.facts.map((f) => `${v.label} — ${f}`)),
    ];
    const missing: string[] = [];
    if (!rec.fromMemberList)
      missing.push(
        `member list not read: the members known are the ${known} endpoints asked; a member nobody asked is not counted`,
      );
    if (rec.notAsked.length) missing.push(`${rec.notAsked.map((v) => v.label).join(', ')} not queried`);
    if (cutOff) missing.push('whether the members that do not answer here are down or only cut off from this client');
    const draft: FindingDraft = {
      id: 'etcd.quorum-degraded',
      severity: 'warning',
      section: 'etcd',
      title: `etcd degraded, quorum held: ${names.join(', ')} ${names.length === 1 ? 'does' : 'do'} not answer (${rec.up.length} of ${known} members answer, quorum ${rec.quorum}; ${left})`,
      subject: { kind: 'EtcdCluster', name: snap.cluster },
      evidence,
      cause: cutOff
        ? `A proposal committed although only ${rec.up.length} of ${known} members answer this client: the others answer their peers but not where etcdctl ran (network, TLS, a wrong endpoint). Check them from a control-plane node before calling them down.`
        : `etcd serves with ${rec.up.length} of ${known} voting members, but ${rec.mayStillFail === 0 ? 'the next member lost stops it (read-only API server, no self-healing)' : `only ${left} before it stops`}. ` +
          'Bring the members that do not answer back (their control-plane machines, etcd containers, certificates or network), or replace them.',
      remediations: [],
    };
    if (missing.length) {
      draft.missing = missing;
      draft.confidence = 'medium';
    }
    return [draft];
  },
};
