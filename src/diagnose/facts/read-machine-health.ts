import type { KubeObject } from '../../cluster/snapshot.js';
import type { Condition } from './find-condition.js';
import { findCondition } from './find-condition.js';

/** Whether a Machine's Node is healthy, and what said so. */
export interface MachineHealth {
  /** 'True' healthy, 'False' not, 'Unknown' reported unknown; undefined when nothing reports it. */
  status?: 'True' | 'False' | 'Unknown';
  /** "Node <name> Ready" or "Machine condition <type>". */
  source?: string;
  condition?: Condition;
}

/**
 * Machine conditions that speak for its Node, most specific first (v1beta2 NodeReady, then NodeHealthy, then Ready).
 */
const MACHINE_NODE_CONDITIONS = ['NodeReady', 'NodeHealthy', 'Ready'];

/**
 * The health of a Machine's Node: the Node's own Ready condition when the snapshot holds the Node
 * (the truth), else the Machine's conditions (v1beta2 first: NodeReady mirrors the Node's Ready;
 * v1beta1 NodeHealthy; then the Machine's Ready). A Machine whose status carries none of them is
 * `undefined` — unknown, never counted as not ready.
 */
export function readMachineHealth(machine: KubeObject, node?: KubeObject): MachineHealth {
  if (node) {
    const ready = findCondition(node, 'Ready');
    return {
      status: statusOf(ready?.status) ?? 'Unknown',
      source: `Node ${node.metadata.name} Ready`,
      condition: ready,
    };
  }
  for (const type of MACHINE_NODE_CONDITIONS) {
    const c = findCondition(machine, type);
    const s = statusOf(c?.status);
    if (c && s) return { status: s, source: `Machine condition ${type}`, condition: c };
  }
  return {};
}

function statusOf(s: string | undefined): MachineHealth['status'] {
  return s === 'True' || s === 'False' || s === 'Unknown' ? s : undefined;
}
