import type { KubeObject, Snapshot } from '../../cluster/snapshot.js';
import { findCondition } from './find-condition.js';
import { findMachineForNode } from './find-machine-for-node.js';

/** Whether a node is confirmed gone, and the fact that confirms it (quoted in evidence). */
export interface NodeGoneVerdict {
  gone: boolean;
  /** e.g. "Machine tkg-system/w-1 is Deleting (deletionTimestamp 2024-…)" or why it is not confirmed. */
  why: string;
}

const POWERED_OFF = /powered ?off|poweredoff|vm is not running|shut ?down/i;

/**
 * Seed 004 / docs/design.md: node.out-of-service and node.delete are only offered for a node that is
 * confirmed gone: NotReady/Unknown AND (its Machine deleted/absent/Deleting, or the VM powered off
 * — the cloud provider's `node.cloudprovider.kubernetes.io/shutdown` taint or a Machine condition
 * saying so). A NotReady node whose Machine still looks fine may only be partitioned: force-freeing
 * its volumes could then corrupt data, so it is NOT gone.
 */
export function isNodeGone(snapshot: Snapshot, node: KubeObject): NodeGoneVerdict {
  const name = node.metadata?.name ?? '';
  const ready = findCondition(node, 'Ready');
  if (!ready || ready.status === 'True') return { gone: false, why: `Node ${name} is not NotReady/Unknown` };
  const taints: unknown[] = Array.isArray(node.spec?.taints) ? node.spec.taints : [];
  if (taints.some((t) => (t as { key?: string })?.key === 'node.cloudprovider.kubernetes.io/shutdown')) {
    return { gone: true, why: `Node ${name} has taint node.cloudprovider.kubernetes.io/shutdown (VM shut down)` };
  }
  const machine = findMachineForNode(snapshot, name);
  if (!machine) {
    if (snapshot.capi.machines.length > 0)
      return { gone: true, why: `no Machine references node ${name} (Machine deleted)` };
    return { gone: false, why: `no Cluster API Machine data for node ${name}` };
  }
  const id = `Machine ${machine.metadata?.namespace ?? ''}/${machine.metadata?.name}`;
  if (machine.metadata?.deletionTimestamp)
    return { gone: true, why: `${id} is Deleting (deletionTimestamp ${machine.metadata.deletionTimestamp})` };
  const phase = machine.status?.phase;
  if (phase === 'Deleting' || phase === 'Deleted') return { gone: true, why: `${id}: phase=${phase}` };
  const lists: unknown[] = [
    machine.status?.conditions,
    machine.status?.deprecated?.v1beta1?.conditions,
    machine.status?.v1beta2?.conditions,
  ];
  for (const list of lists) {
    for (const c of Array.isArray(list) ? list : []) {
      const cond = (c ?? {}) as { type?: string; status?: string; reason?: string; message?: string };
      const text = `${cond.reason ?? ''} ${cond.message ?? ''}`;
      if (cond.status !== 'True' && POWERED_OFF.test(text)) {
        return {
          gone: true,
          why: `${id}: condition ${cond.type}=${cond.status} reason=${cond.reason ?? ''} "${cond.message ?? ''}" (VM powered off)`,
        };
      }
    }
  }
  return { gone: false, why: `${id} still exists (phase=${phase ?? '<none>'}): the node may only be partitioned` };
}
