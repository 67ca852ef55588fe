import type { Analyzer, FindingDraft } from '../analyzer.js';
import { findEtcdLeaderState } from '../facts/find-etcd-leader-state.js';
import { findLeaderUnreachableCause } from '../facts/find-leader-unreachable-cause.js';
import { quorum } from '../facts/quorum.js';

/**
 * Seed S1: with 1 of 3 members up the survivor never becomes leader ("etcdserver: no leader"); the
 * API server fails, self-healing stops, running workloads keep serving.
 */
export const etcdNoLeaderAnalyzer: Analyzer = {
  id: 'etcd.no-leader',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    const evidence: string[] = [];
    const state = findEtcdLeaderState(snap);
    // Members that still name a (dead) leader are the more precise etcd.leader-unreachable (seed S0).
    if (findLeaderUnreachableCause(snap)) return [];
    if (state) {
      evidence.push(...state.noLeaderErrors.map((e) => `endpoint status ${e}`));
      const etcd = snap.etcd!;
      const healthy = etcd.health.filter((h) => h.health).length;
      if (etcd.health.length > 0 && healthy < state.quorum) {
        evidence.push(`${healthy} of ${state.voting.length} voting members healthy (quorum needs ${state.quorum})`);
        for (const h of etcd.health) if (!h.health) evidence.push(`endpoint health ${h.endpoint}: health=false${h.error ? ` error="${h.error}"` : ''}`);
      } else if (etcd.health.length === 0 && etcd.endpoints.length > 0 && state.reachable.length < state.quorum) {
        evidence.push(`only ${state.reachable.length} of ${state.voting.length} voting members answered endpoint status (quorum needs ${state.quorum})`);
      }
      if (etcd.endpoints.length > 0 && !state.leaderId && state.noLeaderErrors.length === 0) {
        evidence.push(`no endpoint reports a leader (${etcd.endpoints.map((e) => e.endpoint).join(', ')})`);
      }
    }
    const api = snap.apiserver;
    const apiText = [api?.error, ...(api?.checks ?? []).filter((c) => !c.ok).map((c) => c.message)].filter((t): t is string => !!t);
    const apiNoLeader = apiText.find((t) => /etcdserver: no leader/i.test(t));
    if (apiNoLeader) evidence.push(`API server: "${apiNoLeader}"`);
    if (evidence.length === 0) return [];
    const members = state?.voting.length;
    return [
      {
        id: 'etcd.no-leader',
        severity: 'critical',
        section: 'etcd',
        title: `etcd has no leader${members ? ` (quorum lost: needs ${quorum(members)} of ${members} members)` : ''}`,
        subject: { kind: 'EtcdCluster', name: snap.cluster },
        evidence,
        cause:
          'etcd lost quorum, so it is read-only: kube-apiserver fails ("etcdserver: no leader"), kubectl and Kubernetes self-healing are down, ' +
          'but running workloads are likely still serving. Bring back enough etcd members (control-plane VMs) to restore quorum.',
        remediations: [],
      },
    ];
  },
};
