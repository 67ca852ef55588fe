import { MACHINES_READ, nodeGonePreconditions } from './collect-node-gone.js';
import { collectPinnedNodeGone } from './collect-pinned-node-gone.js';
import { nodeName, nodePath } from './node-object.js';
import { pinnedDelete, pinnedUid, replacedMessage } from './pin-object.js';
import { planNodeAction } from './plan-node-action.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import { describeKubeCall, isNotFound, sendKube } from '../execute/send-kube.js';

/**
 * node.delete `name` (seed 004, clusters older than 1.28): delete a Node object CONFIRMED gone. The
 * DELETE is pinned (DeleteOptions.preconditions) to the uid recorded at proposal time and to the
 * resourceVersion of the copy just backed up: a node that re-registered under the same name (a new
 * VM, a new uid) is never deleted in its place.
 */
export const nodeDelete: RemediationAction = {
  id: 'node.delete',
  undoWords:
    'none: the Node is backed up before the delete, but only its kubelet (or a new machine) registers a Node again.',
  rbac: [{ group: '', resource: 'nodes', verbs: ['get', 'delete'] }, MACHINES_READ],
  plan: (cluster, params, live) =>
    planNodeAction('node.delete', cluster, params, live, (name, uid) => ({
      label: `Delete node ${name}`,
      apiCalls: [
        `GET ${nodePath(name)} (full backup, stored before the delete)`,
        `${describeKubeCall({ method: 'DELETE', path: nodePath(name) })} (preconditions: uid ${uid ?? '<recorded at proposal>'} and the resourceVersion backed up)`,
      ],
      preconditions: nodeGonePreconditions(name),
      risk: 'If the VM is still running, it keeps writing to volumes that attach elsewhere (data corruption); it re-registers when kubelet restarts.',
    })),
  async dryRun(plan, ctx) {
    const name = nodeName(plan.params);
    const node = await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
    await sendKube(
      ctx.workload,
      pinnedDelete(
        nodePath(name),
        { uid: pinnedUid(plan, `node ${name}`), resourceVersion: String(node.metadata?.resourceVersion) },
        { dryRun: 'All' },
      ),
    );
    return `server-side dry run (dryRun=All) accepted: DELETE ${nodePath(name)} (pinned to uid ${pinnedUid(plan, name)})`;
  },
  async checkPreconditions(plan, ctx) {
    const { name, uid, node, problems } = await collectPinnedNodeGone(plan, ctx);
    if (node && node.metadata?.uid !== uid) return [replacedMessage(`node ${name}`, uid, node.metadata?.uid)];
    return problems;
  },
  async execute(plan, ctx, io) {
    const { name, uid, node } = await collectPinnedNodeGone(plan, ctx);
    if (!node) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} vanished before the delete`);
    if (node.metadata?.uid !== uid)
      throw new RemediateError(
        'E_REMEDIATE_NO_TARGET',
        `${replacedMessage(`node ${name}`, uid, node.metadata?.uid)}; nothing was deleted`,
      );
    await io.saveBackup(`Node ${name}`, node);
    await sendKube(
      ctx.workload,
      pinnedDelete(nodePath(name), { uid, resourceVersion: String(node.metadata?.resourceVersion) }),
    );
    return { summary: `node ${name} backed up and deleted: its pods and volumes are released` };
  },
  async verify(plan, ctx) {
    const name = nodeName(plan.params);
    try {
      await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
      return [`node ${name} still exists`];
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  },
};
