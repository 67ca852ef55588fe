import { collectNodeGone, MACHINES_READ } from '../collect-node-gone.js';
import type { RemediationAction } from '../remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { describeKubeCall, sendKube } from '../send-kube.js';

/** The non-graceful node shutdown taint (Kubernetes ≥ 1.28): pods are deleted, volumes detached. */
export const OUT_OF_SERVICE_TAINT = { key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' } as const;

/** node.out-of-service `name` (seed 004): taint a node CONFIRMED gone; the undo removes the taint. */
export const nodeOutOfService: RemediationAction = {
  id: 'node.out-of-service',
  rbac: [{ group: '', resource: 'nodes', verbs: ['get', 'patch'] }, MACHINES_READ],
  async plan(cluster, params) {
    const name = nodeName(params);
    return {
      action: 'node.out-of-service',
      cluster,
      params: { name },
      label: `Mark node ${name} out-of-service`,
      apiCalls: [`${describeKubeCall({ method: 'PATCH', path: nodePath(name) })} (json-patch: add taint ${OUT_OF_SERVICE_TAINT.key}=${OUT_OF_SERVICE_TAINT.value}:NoExecute)`],
      preconditions: [
        { id: 'not-ready', text: `node ${name} is still NotReady/Unknown` },
        { id: 'machine-gone', text: `node ${name}'s Machine is gone or Deleting (or the VM is shut down)` },
      ],
      risk: 'If the VM is in fact still running, its pods and volume writers are cut off without a clean shutdown.',
    };
  },
  async dryRun(plan, ctx) {
    const name = nodeName(plan.params);
    const { node } = await collectNodeGone(ctx, name);
    if (!node) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} does not exist`);
    await sendKube(ctx.workload, { ...taintPatch(name, node), query: { dryRun: 'All' } });
    return `server-side dry run (dryRun=All) accepted: PATCH ${nodePath(name)} (add the out-of-service taint)`;
  },
  async checkPreconditions(plan, ctx) {
    const name = nodeName(plan.params);
    const { node, problems } = await collectNodeGone(ctx, name);
    if (node && hasTaint(node)) problems.push(`node ${name} already has the out-of-service taint`);
    return problems;
  },
  async execute(plan, ctx) {
    const name = nodeName(plan.params);
    const { node } = await collectNodeGone(ctx, name);
    if (!node) throw new RemediateError('E_REMEDIATE_NO_TARGET', `node ${name} vanished before the taint`);
    await sendKube(ctx.workload, taintPatch(name, node));
    return {
      summary: `node ${name} tainted ${OUT_OF_SERVICE_TAINT.key}:NoExecute: its pods are deleted and volumes detached`,
      undo: { action: 'node.remove-out-of-service', params: { name }, label: `Remove out-of-service taint from ${name}`, risk: `Pods may schedule on ${name} again once it is Ready.` },
    };
  },
  async verify(plan, ctx) {
    const name = nodeName(plan.params);
    const node = await sendKube(ctx.workload, { method: 'GET', path: nodePath(name) });
    return hasTaint(node) ? [] : [`node ${name} has no out-of-service taint`];
  },
};

export function nodeName(params: PlanParams): string {
  const name = String(params.name ?? '');
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) throw new RemediateError('E_REMEDIATE_PARAMS', `"${name}" is not a node name`);
  return name;
}

export function nodePath(name: string): string {
  return `/api/v1/nodes/${name}`;
}

export function hasTaint(node: { spec?: { taints?: { key?: string; effect?: string }[] } }): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === OUT_OF_SERVICE_TAINT.key && t.effect === OUT_OF_SERVICE_TAINT.effect);
}

/** json-patch guarded by `test` on resourceVersion: a node changed meanwhile fails instead of losing taints. */
function taintPatch(name: string, node: { metadata?: { resourceVersion?: string }; spec?: { taints?: unknown[] } }) {
  const ops: unknown[] = [{ op: 'test', path: '/metadata/resourceVersion', value: node.metadata?.resourceVersion }];
  if (Array.isArray(node.spec?.taints)) ops.push({ op: 'add', path: '/spec/taints/-', value: OUT_OF_SERVICE_TAINT });
  else if (node.spec) ops.push({ op: 'add', path: '/spec/taints', value: [OUT_OF_SERVICE_TAINT] });
  else ops.push({ op: 'add', path: '/spec', value: { taints: [OUT_OF_SERVICE_TAINT] } });
  return { method: 'PATCH' as const, path: nodePath(name), contentType: 'application/json-patch+json', body: ops };
}
