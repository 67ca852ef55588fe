import type { ActionContext } from '../execute/action-context.js';
import { nodeName, readNodeUid } from './node-object.js';
import { sameObjectPrecondition } from './pin-object.js';
import type { CatalogActionId, PlanParams, Precondition, RemediationPlan } from '../remediation-plan.js';

/** What one node action says about its node: everything of the plan but the parts every node action shares. */
export interface NodePlanWords {
  label: string;
  apiCalls: string[];
  /** The preconditions after "same object" (which every node action records first). */
  preconditions: Precondition[];
  risk: string;
}

/**
 * The plan of a node action (node.out-of-service, node.remove-out-of-service, node.delete): the node
 * named by `params.name`, pinned to the uid it has now when a live cluster is given (a node that does
 * not exist is refused), "same object" as the first precondition, then the action's own words.
 */
export async function planNodeAction(
  action: CatalogActionId,
  cluster: string,
  params: PlanParams,
  live: ActionContext | undefined,
  words: (name: string, uid: string | undefined) => NodePlanWords,
): Promise<RemediationPlan> {
  const name = nodeName(params);
  const uid = live ? await readNodeUid(live, name) : undefined;
  const { label, apiCalls, preconditions, risk } = words(name, uid);
  return {
    action,
    cluster,
    params: { name },
    label,
    apiCalls,
    preconditions: [sameObjectPrecondition(`node ${name}`, uid), ...preconditions],
    risk,
  };
}
