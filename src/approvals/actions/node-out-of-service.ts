import { collectNodeGone, MACHINES_READ, nodeGonePreconditions } from './collect-node-gone.js';
import { collectPinnedNodeGone } from './collect-pinned-node-gone.js';
import { nodeName, nodePath } from './node-object.js';
import { pinnedUid, replacedMessage } from './pin-object.js';
import { planNodeAction } from './plan-node-action.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import { describeKubeCall, sendKube } from '../execute/send-kube.js';

/** The non-graceful node shutdown taint (Kubernetes ≥ 1.28): pods are deleted, volumes detached. */
export const OUT_OF_SERVICE_TAINT = {
  key: 'node.kubernetes.io/out-of-service',
  value: 'nodeshutdown',
  effect: 'NoExecute',
} as const;

/**
 * node.out-of-service `name` (seed 004): taint a node CONFIRMED gone; the undo removes the taint.
 * The json-patch starts with `test` ops on metadata.uid (recorded at proposal time) and on the
 * resourceVersion just read: a node re-registered under the same name, or changed meanwhile, makes
 * kube-apiserver refuse the whole patch (422) instead of tainting the wrong node or dropping a taint.
 */
export const nodeOutOfService: RemediationAction = {
  id: 'node.out-of-service',
  undoWords: 'remove the taint: an undo button proposes removing it once the node is back.',
  rbac: [{ group: '', resource: 'nodes', verbs: ['get', 'patch'] }, MACHINES_READ],
  plan: (cluster, params, live) =>
    planNodeAction('node.out-of-service', cluster, params, live, (name, uid) => ({
      label: `Mark node ${name} out-of-service`,
      apiCalls: [
        `${describeKubeCall({ method: 'PATCH', path: nodePath(name) })} (json-patch: test metadata.uid ${uid ?? '<recorded at proposal>'} and the resourceVersion read right before, then add taint ${OUT_OF_SERVICE_TAINT.key}=${OUT_OF_SERVICE_TAINT.value}:NoExecute)`,
      ],
      preconditions: nodeGonePreconditions(name),
      risk: 'If the VM is in fact still running, its pods and volume writers are cut off without a clean shutdown.',
    })),
  async dryRun(plan, ctx) {
    const name = nodeName(plan.params);
    const { node } = await collectNodeGone(ctx, name);
    if (!node) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} does not exist`);
    await sendKube(ctx.workload, {
      ...taintPatch(name, pinnedUid(plan, `node ${name}`), node),
      query: { dryRun: 'All' },
    });
    return `server-side dry run (dryRun=All) accepted: PATCH ${nodePath(name)} (add the out-of-service taint, pinned to uid ${pinnedUid(plan, name)})`;
  },
  async checkPreconditions(plan, ctx) {
    const { name, uid, node, problems } = await collectPinnedNodeGone(plan, ctx);
    if (node && node.metadata?.uid !== uid) return [replacedMessage(`node ${name}`, uid, node.metadata?.uid)];
    if (node && hasTaint(node)) problems.push(`node ${name} already has the out-of-service taint`);
    return problems;
  },
  async execute(plan, ctx) {
    const { name, uid, node } = await collectPinnedNodeGone(plan, ctx);
    if (!node) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} vanished before the taint`);
    await sendKube(ctx.workload, taintPatch(name, uid, node));
    return {
      summary: `node ${name} tainted ${OUT_OF_SERVICE_TAINT.key}:NoExecute: its pods are deleted and volumes detached`,
      undo: {
        action: 'node.remove-out-of-service',
        params: { name },
        label: `Remove out-of-service taint from ${name}`,
        risk: `Pods may schedule on ${name} again once it is Ready.`,
      },
    };
  },
  async verify(plan, ctx) {
    const name = nodeName(plan.params);
    const node = await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
    return hasTaint(node) ? [] : [`node ${name} has no out-of-service taint`];
  },
};

export function hasTaint(node: { spec?: { taints?: { key?: string; effect?: string }[] } }): boolean {
  return (node.spec?.taints ?? []).some(
    (t) => t.key === OUT_OF_SERVICE_TAINT.key && t.effect === OUT_OF_SERVICE_TAINT.effect,
  );
}

/**
 * json-patch guarded by `test` on uid and resourceVersion: another or a changed node fails instead of being tainted.
 */
function taintPatch(
  name: string,
  uid: string,
  node: { metadata?: { resourceVersion?: string }; spec?: { taints?: unknown[] } },
) {
  const ops: unknown[] = [
    { op: 'test', path: '/metadata/uid', value: uid },
    { op: 'test', path: '/metadata/resourceVersion', value: node.metadata?.resourceVersion },
  ];
  if (Array.isArray(node.spec?.taints)) ops.push({ op: 'add', path: '/spec/taints/-', value: OUT_OF_SERVICE_TAINT });
  else if (node.spec) ops.push({ op: 'add', path: '/spec/taints', value: [OUT_OF_SERVICE_TAINT] });
  else ops.push({ op: 'add', path: '/spec', value: { taints: [OUT_OF_SERVICE_TAINT] } });
  return { method: 'PATCH' as const, path: nodePath(name), contentType: 'application/json-patch+json', body: ops };
}
