import type { KubeConfig } from '@kubernetes/client-node';
import { nodeName, nodePath } from './node-object.js';
import { pinnedUid, replacedMessage } from './pin-object.js';
import { planNodeAction } from './plan-node-action.js';
import type { RemediationAction } from './remediation-action.js';
import { describeKubeCall, isNotFound, sendKube } from '../execute/send-kube.js';
import { hasTaint, OUT_OF_SERVICE_TAINT } from './node-out-of-service.js';

/**
 * The undo of node.out-of-service: remove the taint (its own approval-gated proposal). The json-patch
 * tests the node's uid (recorded at proposal time) and the exact taint at its index before removing it.
 */
export const nodeRemoveOutOfService: RemediationAction = {
  id: 'node.remove-out-of-service',
  undoWords: 'none needed: this is itself the undo of the out-of-service taint.',
  rbac: [{ group: '', resource: 'nodes', verbs: ['get', 'patch'] }],
  plan: (cluster, params, live) =>
    planNodeAction('node.remove-out-of-service', cluster, params, live, (name, uid) => ({
      label: `Remove out-of-service taint from ${name}`,
      apiCalls: [
        `${describeKubeCall({ method: 'PATCH', path: nodePath(name) })} (json-patch: test metadata.uid ${uid ?? '<recorded at proposal>'} and the taint, then remove taint ${OUT_OF_SERVICE_TAINT.key})`,
      ],
      preconditions: [{ id: 'tainted', text: `node ${name} exists and still has the out-of-service taint` }],
      risk: `Pods may schedule on ${name} again once it is Ready.`,
    })),
  async dryRun(plan, ctx) {
    const name = nodeName(plan.params);
    await sendKube(ctx.workload, {
      ...(await untaintPatch(ctx.workload, name, pinnedUid(plan, `node ${name}`))),
      query: { dryRun: 'All' },
    });
    return `server-side dry run (dryRun=All) accepted: PATCH ${nodePath(name)} (remove the out-of-service taint, pinned to uid ${pinnedUid(plan, name)})`;
  },
  async checkPreconditions(plan, ctx) {
    const name = nodeName(plan.params);
    const uid = pinnedUid(plan, `node ${name}`);
    try {
      const node = await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
      if (node.metadata?.uid !== uid) return [replacedMessage(`node ${name}`, uid, node.metadata?.uid)];
      return hasTaint(node) ? [] : [`node ${name} has no out-of-service taint any more`];
    } catch (err) {
      if (isNotFound(err)) return [`node ${name} no longer exists`];
      throw err;
    }
  },
  async execute(plan, ctx) {
    const name = nodeName(plan.params);
    await sendKube(ctx.workload, await untaintPatch(ctx.workload, name, pinnedUid(plan, `node ${name}`)));
    return { summary: `out-of-service taint removed from node ${name}` };
  },
  async verify(plan, ctx) {
    const name = nodeName(plan.params);
    const node = await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
    return hasTaint(node) ? [`node ${name} still has the out-of-service taint`] : [];
  },
};

async function untaintPatch(kc: KubeConfig, name: string, uid: string) {
  const node = await sendKube(kc, { method: 'GET', path: nodePath(name) });
  const taints: { key?: string }[] = node.spec?.taints ?? [];
  const i = taints.findIndex((t) => t.key === OUT_OF_SERVICE_TAINT.key);
  // `test` the uid and the exact taint at that index first: another node, or a concurrent change,
  // fails the whole patch instead of removing another taint.
  const body = [
    { op: 'test', path: '/metadata/uid', value: uid },
    { op: 'test', path: `/spec/taints/${i}`, value: taints[i] },
    { op: 'remove', path: `/spec/taints/${i}` },
  ];
  return { method: 'PATCH' as const, path: nodePath(name), contentType: 'application/json-patch+json', body };
}
