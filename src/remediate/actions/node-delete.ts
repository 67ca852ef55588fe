import { collectNodeGone, MACHINES_READ } from '../collect-node-gone.js';
import type { RemediationAction } from '../remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import { describeKubeCall, isNotFound, sendKube } from '../send-kube.js';
import { nodeName, nodePath } from './node-out-of-service.js';

/** node.delete `name` (seed 004, clusters older than 1.28): delete a Node object CONFIRMED gone. */
export const nodeDelete: RemediationAction = {
  id: 'node.delete',
  rbac: [{ group: '', resource: 'nodes', verbs: ['get', 'delete'] }, MACHINES_READ],
  async plan(cluster, params) {
    const name = nodeName(params);
    return {
      action: 'node.delete',
      cluster,
      params: { name },
      label: `Delete node ${name}`,
      apiCalls: [`GET ${nodePath(name)} (full backup, stored before the delete)`, describeKubeCall({ method: 'DELETE', path: nodePath(name) })],
      preconditions: [
        { id: 'not-ready', text: `node ${name} is still NotReady/Unknown` },
        { id: 'machine-gone', text: `node ${name}'s Machine is gone or Deleting (or the VM is shut down)` },
      ],
      risk: 'If the VM is still running, it keeps writing to volumes that attach elsewhere (data corruption); it re-registers when kubelet restarts.',
    };
  },
  async dryRun(plan, ctx) {
    const name = nodeName(plan.params);
    await sendKube(ctx.workload, { method: 'DELETE', path: nodePath(name), query: { dryRun: 'All' } });
    return `server-side dry run (dryRun=All) accepted: DELETE ${nodePath(name)}`;
  },
  async checkPreconditions(plan, ctx) {
    return (await collectNodeGone(ctx, nodeName(plan.params))).problems;
  },
  async execute(plan, ctx, io) {
    const name = nodeName(plan.params);
    const { node } = await collectNodeGone(ctx, name);
    if (!node) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} vanished before the delete`);
    await io.saveBackup(`Node ${name}`, node);
    await sendKube(ctx.workload, { method: 'DELETE', path: nodePath(name) });
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
