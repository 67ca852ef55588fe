import type { KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../execute/action-context.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { isNotFound, sendKube } from '../execute/send-kube.js';

/** The node a node action names (`params.name`), checked to be a node name: anything else is a malformed plan. */
export function nodeName(params: PlanParams): string {
  const name = String(params.name ?? '');
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name))
    throw new RemediateError('E_REMEDIATE_PARAMS', `"${name}" is not a node name`);
  return name;
}

export function nodePath(name: string): string {
  return `/api/v1/nodes/${name}`;
}

/** The uid of the node a live plan is made for (a plan for a node that does not exist is refused). */
export async function readNodeUid(ctx: ActionContext, name: string): Promise<string> {
  let node: KubeObject;
  try {
    node = await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
  } catch (err) {
    if (isNotFound(err)) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} does not exist`);
    throw err;
  }
  if (!node.metadata?.uid)
    throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} has no uid: it cannot be pinned`);
  return node.metadata.uid;
}
