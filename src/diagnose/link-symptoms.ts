import type { Snapshot } from '../cluster/snapshot.js';
import { machineInfo } from './facts/machine-info.js';
import type { Finding } from './finding.js';
import { fingerprint } from './fingerprint.js';

/**
 * Node faults surface as several findings at once — the node NotReady, the Machine Cluster API keeps
 * replacing, the control plane short of a node — each from its own analyzer, which sees only its
 * own evidence. This links a symptom to the finding that explains it when the snapshot says so, so
 * one fault is one root cause (one alert thread) with its symptoms under it:
 *
 * - `node.cni-not-initialized` on node N ← `cni.pod-not-running` on N: the network plugin is not ready
 *   because its agent pod on that node is missing or not running;
 * - `node.not-ready` on node N ← `node.cni-not-initialized` on N: the Ready condition itself says the
 *   network plugin is not ready (the CNI analyzer only fires on that message);
 * - `capi.remediation-looping` on Machine M ← the finding of M's node (`node.cni-not-initialized`,
 *   else `node.not-ready`): the replacement keeps failing because its node never becomes Ready;
 * - `controlplane.degraded` on KubeadmControlPlane K ← the finding of each of K's Machines' nodes that
 *   is not Ready: that is the missing control-plane node the degraded count is short of.
 *
 * A link an analyzer made from stronger evidence (an etcd leader, a stale member) is kept: only
 * findings without a cause get one here. Pure; links to absent findings are dropped by linkCauses.
 */
export function linkSymptoms(findings: Finding[], snapshot: Snapshot): Finding[] {
  const present = new Map(findings.map((f) => [f.fingerprint, f]));
  const fp = (id: Finding['id'], subject: Finding['subject']) => fingerprint(snapshot.cluster, id, subject);
  const has = (x: string) => present.has(x);
  /** The deepest finding of node N there is: the CNI, else the node being NotReady. */
  const nodeCause = (node: string): string | undefined => {
    const cni = fp('node.cni-not-initialized', { kind: 'Node', name: node });
    if (has(cni)) return cni;
    const notReady = fp('node.not-ready', { kind: 'Node', name: node });
    return has(notReady) ? notReady : undefined;
  };
  return findings.map((f) => {
    if (f.causedBy?.length) return f;
    let causes: string[] = [];
    if (f.id === 'node.cni-not-initialized' && f.subject.kind === 'Node') {
      const pod = fp('cni.pod-not-running', { kind: 'Node', name: f.subject.name });
      if (has(pod)) causes = [pod];
    } else if (f.id === 'node.not-ready' && f.subject.kind === 'Node') {
      const cni = fp('node.cni-not-initialized', { kind: 'Node', name: f.subject.name });
      if (has(cni)) causes = [cni];
    } else if (f.id === 'capi.remediation-looping' && f.subject.kind === 'Machine') {
      const m = snapshot.capi.machines.find(
        (x) =>
          x.metadata.name === f.subject.name &&
          (x.metadata.namespace ?? 'default') === (f.subject.namespace ?? 'default'),
      );
      const node = m ? (machineInfo(m).nodeName ?? m.metadata.name) : f.subject.name;
      const c = nodeCause(node);
      if (c) causes = [c];
    } else if (f.id === 'controlplane.degraded' && f.subject.kind === 'KubeadmControlPlane') {
      const ns = f.subject.namespace ?? 'default';
      const nodes = snapshot.capi.machines
        .map(machineInfo)
        .filter((i) => i.namespace === ns && i.kcpName === f.subject.name && !i.deleting && i.nodeName)
        .map((i) => i.nodeName!);
      causes = [...new Set(nodes.map(nodeCause).filter((c): c is string => c !== undefined))].sort();
    }
    return causes.length ? { ...f, causedBy: causes } : f;
  });
}
