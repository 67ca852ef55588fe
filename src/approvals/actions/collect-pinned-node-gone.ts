import type { KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../execute/action-context.js';
import { collectNodeGone } from './collect-node-gone.js';
import { nodeName } from './node-object.js';
import { pinnedUid } from './pin-object.js';
import type { RemediationPlan } from '../remediation-plan.js';

/**
 * The node a node.delete or node.out-of-service plan names, the uid it was pinned to at proposal time
 * (a plan without one fails closed), and collectNodeGone's live view of it: the node under that name
 * now (undefined when it no longer exists) and what of "confirmed gone" does not hold.
 */
export async function collectPinnedNodeGone(
  plan: RemediationPlan,
  ctx: ActionContext,
): Promise<{ name: string; uid: string; node?: KubeObject; problems: string[] }> {
  const name = nodeName(plan.params);
  const uid = pinnedUid(plan, `node ${name}`);
  return { name, uid, ...(await collectNodeGone(ctx, name)) };
}
