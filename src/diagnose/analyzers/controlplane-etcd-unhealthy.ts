import type { Analyzer, FindingDraft } from '../analyzer.js';
import type { Condition } from '../facts/find-condition.js';
import { machineInfo } from '../facts/machine-info.js';
import { quorum } from '../facts/quorum.js';
import { readCapiStatus } from '../facts/read-capi-status.js';

const NOT_QUERIED =
  'etcd not queried (no etcd endpoints configured or etcd/ in the dump): judged from the KubeadmControlPlane and Machine conditions only';

/**
 * controlplane.etcd-unhealthy (defect class 4): when the bot cannot reach etcd itself,
 * KubeadmControlPlane's own EtcdClusterHealthy condition (aggregating its Machines'
 * EtcdMemberHealthy, which KCP computes by talking to every member) is the etcd evidence there is.
 * Only then: with etcd data in the snapshot the etcd.* analyzers judge etcd directly. Critical when
 * fewer members than a quorum are reported healthy (or KCP's Available says so), warning otherwise;
 * `Unknown` (KCP could not inspect etcd) is info. It never proposes a write: every action on etcd
 * needs etcd itself read first.
 */
export const controlplaneEtcdUnhealthyAnalyzer: Analyzer = {
  id: 'controlplane.etcd-unhealthy',
  analyze(ctx): FindingDraft[] {
    const snap = ctx.snapshot;
    if (snap.etcd) return [];
    const out: FindingDraft[] = [];
    for (const kcp of snap.capi.kubeadmControlPlanes) {
      const st = readCapiStatus(kcp);
      const cluster = st.condition('EtcdClusterHealthy');
      if (!cluster || cluster.status === 'True') continue;
      const ns = kcp.metadata.namespace ?? 'default';
      const machines = snap.capi.machines.filter((m) => {
        const i = machineInfo(m);
        return i.namespace === ns && i.kcpName === kcp.metadata.name && !i.deleting;
      });
      const members = machines
        .map((m) => ({ name: m.metadata.name, c: readCapiStatus(m).condition('EtcdMemberHealthy') }))
        .filter((x) => x.c);
      const healthy = members.filter((x) => x.c!.status === 'True').length;
      const size = st.replicas.desired ?? machines.length;
      const available = st.condition('Available');
      const quorumLost =
        (members.length > 0 && size > 0 && healthy < quorum(size)) ||
        (available?.status === 'False' && /etcd quorum/i.test(available.message ?? ''));
      const severity = cluster.status === 'False' ? (quorumLost ? 'critical' : 'warning') : 'info';
      const evidence = [`KubeadmControlPlane ${ns}/${kcp.metadata.name}: ${describe(cluster)}`];
      if (available && available.status !== 'True')
        evidence.push(`KubeadmControlPlane ${ns}/${kcp.metadata.name}: ${describe(available)}`);
      for (const x of members.filter((x) => x.c!.status !== 'True'))
        evidence.push(`Machine ${ns}/${x.name}: ${describe(x.c!)}`);
      if (members.length)
        evidence.push(
          `${healthy} of ${members.length} control-plane Machines report EtcdMemberHealthy=True (etcd quorum of ${size} needs ${quorum(size)})`,
        );
      out.push({
        id: 'controlplane.etcd-unhealthy',
        severity,
        section: 'etcd',
        title:
          cluster.status === 'False'
            ? `KubeadmControlPlane ${ns}/${kcp.metadata.name} reports etcd unhealthy${quorumLost ? ' (quorum at risk)' : ''}`
            : `KubeadmControlPlane ${ns}/${kcp.metadata.name} cannot tell etcd's health (${cluster.reason ?? 'Unknown'})`,
        subject: { kind: 'KubeadmControlPlane', namespace: ns, name: kcp.metadata.name },
        evidence,
        cause:
          cluster.status === 'False'
            ? 'KCP reached the etcd members and found them unhealthy. Query etcd directly (configure etcd endpoints or add etcdctl output under etcd/) before any etcd action.'
            : 'KCP could not inspect etcd (connection to the workload cluster down or inspection failed): etcd health is unknown, not healthy.',
        since: cluster.lastTransitionTime,
        missing: [NOT_QUERIED],
        remediations: [],
      });
    }
    return out;
  },
};

function describe(c: Condition): string {
  return `condition ${c.type}=${c.status}${c.reason ? ` reason=${c.reason}` : ''}${c.message ? ` message="${c.message.replace(/\s*\n\s*/g, ' ')}"` : ''}${c.lastTransitionTime ? ` (since ${c.lastTransitionTime})` : ''}`;
}
