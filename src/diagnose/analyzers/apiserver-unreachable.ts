import type { Analyzer, FindingDraft } from '../analyzer.js';
import { fingerprint } from '../fingerprint.js';
import { etcdNoLeaderAnalyzer } from './etcd-no-leader.js';

/** Seed S1: no API server (all kube-apiservers gone, or etcd without leader) — workloads keep running. */
export const apiserverUnreachableAnalyzer: Analyzer = {
  id: 'apiserver.unreachable',
  analyze(ctx): FindingDraft[] {
    const api = ctx.snapshot.apiserver;
    if (!api) return [];
    const failed = api.checks.filter((c) => !c.ok);
    if (api.reachable && api.ready !== false && failed.length === 0) return [];
    const evidence: string[] = [];
    if (!api.reachable) evidence.push(`API server unreachable${api.error ? `: "${api.error}"` : ''}`);
    else if (api.error) evidence.push(`/readyz failed: "${api.error}"`);
    else if (api.ready === false) evidence.push('/readyz?verbose reported not ready');
    for (const c of failed) evidence.push(`[-]${c.name} failed${c.message ? `: ${c.message}` : ''}`);
    const noLeader = etcdNoLeaderAnalyzer.analyze(ctx).length > 0;
    return [
      {
        id: 'apiserver.unreachable',
        severity: 'critical',
        section: 'apiserver',
        title: api.reachable
          ? `API server not ready: ${failed.map((c) => c.name).join(', ') || 'readyz failed'}`
          : 'API server unreachable',
        subject: { kind: 'Cluster', name: ctx.snapshot.cluster },
        evidence,
        cause:
          (noLeader ? 'etcd has no leader, so the API server cannot serve. ' : '') +
          'Running workloads are likely still serving, but self-healing (controllers, scheduling, CAPI) and kubectl are down; this report may be from the last known state.',
        causedBy: noLeader
          ? [fingerprint(ctx.snapshot.cluster, 'etcd.no-leader', { kind: 'EtcdCluster', name: ctx.snapshot.cluster })]
          : undefined,
        remediations: [],
      },
    ];
  },
};
