import type { RemediationAction } from '../remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { describeKubeCall, isNotFound, sendKube, type KubeCall } from '../send-kube.js';

/**
 * deployment.scale `namespace` `name` `replicas` (seed 003: stop a webhook's backend). Records the
 * replicas it replaces; the scale back is the same action with those replicas, its own proposal.
 */
export const deploymentScale: RemediationAction = {
  id: 'deployment.scale',
  rbac: [{ group: 'apps', resource: 'deployments', verbs: ['get', 'patch'] }],
  async plan(cluster, params, live) {
    const t = target(params);
    let current: number | undefined;
    if (live) {
      const d = await readDeployment(live.workload, t.path);
      if (!d) throw new RemediateError('E_REMEDIATE_NO_TARGET', `Deployment ${t.key} does not exist`);
      current = replicasOf(d);
    }
    return {
      action: 'deployment.scale',
      cluster,
      params: { namespace: t.namespace, name: t.name, replicas: t.replicas },
      label: `Scale ${t.key} to ${t.replicas}${current !== undefined ? ` (was ${current})` : ''}`,
      apiCalls: [describeKubeCall(scaleCall(t.path, t.replicas))],
      preconditions: [{ id: 'replicas-unchanged', text: `Deployment ${t.key} still has the replicas recorded at proposal time`, ...(current !== undefined ? { recorded: current } : {}) }],
      risk: t.replicas === 0 ? `Stops ${t.key} entirely (its webhooks and controllers) until it is scaled back.` : `${t.key} runs ${t.replicas} replicas again.`,
    };
  },
  async dryRun(plan, ctx) {
    const t = target(plan.params);
    await sendKube(ctx.workload, { ...scaleCall(t.path, t.replicas), query: { dryRun: 'All' } });
    return `server-side dry run (dryRun=All) accepted: PATCH ${t.path} replicas=${t.replicas}`;
  },
  async checkPreconditions(plan, ctx) {
    const t = target(plan.params);
    const d = await readDeployment(ctx.workload, t.path);
    if (!d) return [`Deployment ${t.key} no longer exists`];
    const recorded = plan.preconditions.find((p) => p.id === 'replicas-unchanged')?.recorded;
    return recorded !== undefined && replicasOf(d) !== Number(recorded) ? [`Deployment ${t.key} now has ${replicasOf(d)} replicas, not the ${recorded} recorded at proposal time`] : [];
  },
  async execute(plan, ctx) {
    const t = target(plan.params);
    const before = replicasOf((await readDeployment(ctx.workload, t.path)) ?? {});
    await sendKube(ctx.workload, scaleCall(t.path, t.replicas));
    return {
      summary: `Deployment ${t.key} scaled from ${before} to ${t.replicas}`,
      undo: before !== t.replicas ? { action: 'deployment.scale', params: { namespace: t.namespace, name: t.name, replicas: before }, label: `Scale ${t.key} back to ${before}`, risk: `${t.key} runs ${before} replicas again.` } : undefined,
    };
  },
  async verify(plan, ctx) {
    const t = target(plan.params);
    const d = await readDeployment(ctx.workload, t.path);
    return d && replicasOf(d) === t.replicas ? [] : [`Deployment ${t.key} has ${d ? replicasOf(d) : 'no'} replicas, not ${t.replicas}`];
  },
};

function target(params: PlanParams) {
  const namespace = String(params.namespace ?? '');
  const name = String(params.name ?? '');
  const replicas = Number(params.replicas);
  if (!namespace || !name || !Number.isInteger(replicas) || replicas < 0) throw new RemediateError('E_REMEDIATE_PARAMS', `bad deployment.scale params ${JSON.stringify(params)}`);
  return { namespace, name, replicas, key: `${namespace}/${name}`, path: `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}` };
}

function scaleCall(path: string, replicas: number): KubeCall {
  return { method: 'PATCH', path, contentType: 'application/merge-patch+json', body: { spec: { replicas } } };
}

function replicasOf(d: { spec?: { replicas?: unknown } }): number {
  // The API server defaults an omitted spec.replicas to 1.
  return typeof d.spec?.replicas === 'number' ? d.spec.replicas : 1;
}

async function readDeployment(kc: Parameters<typeof sendKube>[0], path: string) {
  try {
    return await sendKube(kc, { method: 'GET', path });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
