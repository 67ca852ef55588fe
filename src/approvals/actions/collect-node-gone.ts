import type { KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../execute/action-context.js';
import type { RbacNeed } from './remediation-action.js';
import type { Precondition } from '../remediation-plan.js';
import { isNotFound, sendKube } from '../execute/send-kube.js';
import { clusterOf } from './check-target-cluster.js';

/** Cluster API versions tried in order for the Machine list. */
const CAPI_VERSIONS = ['v1beta2', 'v1beta1'];

/** What the Machine lookup needs, on the management cluster (part of the node actions' rbac). */
export const MACHINES_READ: RbacNeed = { group: 'cluster.x-k8s.io', resource: 'machines', verbs: ['list'] };

/** What collectNodeGone re-checks, as a plan's preconditions (node.out-of-service, node.delete). */
export function nodeGonePreconditions(name: string): Precondition[] {
  return [
    { id: 'not-ready', text: `node ${name} is still NotReady/Unknown` },
    { id: 'machine-gone', text: `node ${name}'s Machine is gone or Deleting (or the VM is shut down)` },
  ];
}

/**
 * Seed 004, re-checked live: a node may only be freed (out-of-service taint, delete) when it is still
 * NotReady/Unknown AND confirmed gone — its Machine deleted, absent or Deleting, or the cloud
 * provider's shutdown taint. A NotReady node with a healthy Machine may only be partitioned.
 * Returns the node (undefined when it no longer exists) and what does not hold.
 */
export async function collectNodeGone(
  ctx: ActionContext,
  name: string,
): Promise<{ node?: KubeObject; problems: string[] }> {
  let node: KubeObject;
  try {
    node = await sendKube(ctx.workload, { method: 'GET', path: `/api/v1/nodes/${encodeURIComponent(name)}` });
  } catch (err) {
    if (isNotFound(err)) return { problems: [`node ${name} no longer exists`] };
    throw err;
  }
  const ready = (node.status?.conditions ?? []).find((c: { type?: string }) => c.type === 'Ready') as
    { status?: string } | undefined;
  if (!ready || ready.status === 'True') return { node, problems: [`node ${name} is Ready again`] };
  const taints: { key?: string }[] = Array.isArray(node.spec?.taints) ? node.spec.taints : [];
  if (taints.some((t) => t.key === 'node.cloudprovider.kubernetes.io/shutdown')) return { node, problems: [] };
  const machines = await listMachines(ctx);
  if (!machines)
    return {
      node,
      problems: [`cannot confirm node ${name} is gone: no Cluster API Machines can be read on the management cluster`],
    };
  // Only this cluster's Machines: a neighbour in the same namespace may have a node of the same name.
  const own = ctx.cluster.management?.clusterName ?? ctx.cluster.fleet?.clusterName;
  const mine = own === undefined ? machines : machines.filter((m) => (clusterOf(m) ?? own) === own);
  const machine = mine.find((m) => m.status?.nodeRef?.name === name) ?? mine.find((m) => m.metadata?.name === name);
  if (!machine)
    return {
      node,
      problems: machines.length ? [] : [`cannot confirm node ${name} is gone: no Cluster API Machines exist`],
    };
  if (
    machine.metadata?.deletionTimestamp ||
    machine.status?.phase === 'Deleting' ||
    machine.status?.phase === 'Deleted'
  )
    return { node, problems: [] };
  return {
    node,
    problems: [
      `Machine ${machine.metadata?.namespace ?? ''}/${machine.metadata?.name} of node ${name} still exists (phase=${machine.status?.phase ?? '<none>'}): the node may only be partitioned`,
    ],
  };
}

async function listMachines(ctx: ActionContext): Promise<KubeObject[] | undefined> {
  const ns = ctx.capiNamespace ? `/namespaces/${encodeURIComponent(ctx.capiNamespace)}` : '';
  for (const v of CAPI_VERSIONS) {
    try {
      const list = await sendKube(ctx.management, { method: 'GET', path: `/apis/cluster.x-k8s.io/${v}${ns}/machines` });
      return (list?.items ?? []) as KubeObject[];
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return undefined;
}
