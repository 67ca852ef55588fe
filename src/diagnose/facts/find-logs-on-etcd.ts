import type { LogSignal, Snapshot } from '../../cluster/snapshot.js';

/** What the control-plane pod logs of a dump say about etcd at their end. */
export interface LogsOnEtcd {
  /** etcd pods whose last leader-related line says there is no leader (no later "elected leader"). */
  leaderless: { namespace: string; pod: string; line: string; time?: string }[];
  /** etcd pods whose last leader-related line is an elected leader. */
  withLeader: string[];
  /** The last kube-apiserver lines about etcd ("etcdserver: no leader", "[-]etcd failed"), quoted with their pod. */
  apiserverLines: string[];
  /** Alarm lines (NOSPACE, CORRUPT) of etcd or kube-apiserver logs, quoted with their pod. */
  alarms: { alarm: 'NOSPACE' | 'CORRUPT'; quote: string }[];
}

/**
 * Read the end of each pod log: logs are history, so only the last leader-related line of an etcd
 * pod tells its state when the log was taken ("lost leader" followed by "elected leader" is a
 * recovered election, not an outage).
 */
export function findLogsOnEtcd(snapshot: Snapshot): LogsOnEtcd {
  const out: LogsOnEtcd = { leaderless: [], withLeader: [], apiserverLines: [], alarms: [] };
  for (const log of snapshot.controlPlaneLogs ?? []) {
    const quote = (s: LogSignal) =>
      `${log.namespace}/${log.pod}: ${s.time && !s.line.includes(s.time) ? `${s.time} ` : ''}${s.line}`;
    for (const s of log.signals) {
      if (s.kind === 'nospace' || s.kind === 'corrupt')
        out.alarms.push({ alarm: s.kind === 'nospace' ? 'NOSPACE' : 'CORRUPT', quote: quote(s) });
    }
    if (log.component === 'etcd') {
      const last = [...log.signals].reverse().find((s) => s.kind === 'no-leader' || s.kind === 'leader');
      if (last?.kind === 'no-leader') {
        const entry: LogsOnEtcd['leaderless'][number] = { namespace: log.namespace, pod: log.pod, line: last.line };
        if (last.time) entry.time = last.time;
        out.leaderless.push(entry);
      } else if (last) out.withLeader.push(log.pod);
    } else {
      for (const s of log.signals
        .filter((x) => x.kind === 'etcd-unavailable' || x.kind === 'readyz-etcd-failed')
        .slice(-3))
        out.apiserverLines.push(quote(s));
    }
  }
  // A member that ended with a leader while another did not: that one is cut off, not the cluster.
  if (out.withLeader.length > 0) out.leaderless = [];
  return out;
}
