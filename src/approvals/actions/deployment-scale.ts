import type { KubeObject } from '../../cluster/snapshot.js';
import { pinnedUid, replacedMessage, sameObjectPrecondition } from './pin-object.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { describeKubeCall, isNotFound, sendKube, type KubeCall } from '../execute/send-kube.js';

/**
 * deployment.scale `namespace` `name` `replicas` (seed 003: stop a webhook's backend). Records the
 * replicas it replaces; the scale back is the same action with those replicas, its own proposal.
 * The PATCH is pinned: it carries the uid recorded at proposal time (kube-apiserver refuses a
 * different uid, `metadata.uid: field is immutable`) and the resourceVersion of the read that
 * confirmed the recorded replicas (a change in between is a 409 optimistic-lock conflict).
 */
export const deploymentScale: RemediationAction = {
  id: 'deployment.scale',
  undoWords: 'scale back: the replica count it replaces is recorded, and an undo button proposes scaling back to it.',
  rbac: [{ group: 'apps', resource: 'deployments', verbs: ['get', 'patch'] }],
  async plan(cluster, params, live) {
    const t = target(params);
    let current: number | undefined;
    let uid: string | undefined;
    if (live) {
      const d = await readDeployment(live.workload, t.path);
      if (!d) throw new RemediateError('E_REMEDIATE_NO_TARGET', `Deployment ${t.key} does not exist`);
      current = replicasOf(d);
      uid = d.metadata?.uid;
      if (!uid)
        throw new RemediateError('E_REMEDIATE_NO_TARGET', `Deployment ${t.key} has no uid: it cannot be pinned`);
    }
    return {
      action: 'deployment.scale',
      cluster,
      params: { namespace: t.namespace, name: t.name, replicas: t.replicas },
      label: `Scale ${t.key} to ${t.replicas}${current !== undefined ? ` (was ${current})` : ''}`,
      apiCalls: [
        `${describeKubeCall({ method: 'PATCH', path: t.path })} (merge patch spec.replicas=${t.replicas}, pinned: metadata.uid ${uid ?? '<recorded at proposal>'} and the resourceVersion read right before)`,
      ],
      preconditions: [
        sameObjectPrecondition(`Deployment ${t.key}`, uid),
        {
          id: 'replicas-unchanged',
          text: `Deployment ${t.key} still has the replicas recorded at proposal time`,
          ...(current !== undefined ? { recorded: current } : {}),
        },
      ],
      risk:
        t.replicas === 0
          ? `Stops ${t.key} entirely (its webhooks and controllers) until it is scaled back.`
          : `${t.key} runs ${t.replicas} replicas again.`,
    };
  },
  async dryRun(plan, ctx) {
    const t = target(plan.params);
    const d = await readDeployment(ctx.workload, t.path);
    if (!d) throw new RemediateError('E_REMEDIATE_NO_TARGET', `Deployment ${t.key} does not exist`);
    await sendKube(ctx.workload, {
      ...scaleCall(t.path, t.replicas, pinnedUid(plan, `Deployment ${t.key}`), d),
      query: { dryRun: 'All' },
    });
    return `server-side dry run (dryRun=All) accepted: PATCH ${t.path} replicas=${t.replicas} (pinned to uid ${pinnedUid(plan, t.key)})`;
  },
  async checkPreconditions(plan, ctx) {
    const t = target(plan.params);
    const d = await readDeployment(ctx.workload, t.path);
    if (!d) return [`Deployment ${t.key} no longer exists`];
    const uid = pinnedUid(plan, `Deployment ${t.key}`);
    if (d.metadata?.uid !== uid) return [replacedMessage(`Deployment ${t.key}`, uid, d.metadata?.uid)];
    const recorded = plan.preconditions.find((p) => p.id === 'replicas-unchanged')?.recorded;
    return recorded !== undefined && replicasOf(d) !== Number(recorded)
      ? [`Deployment ${t.key} now has ${replicasOf(d)} replicas, not the ${recorded} recorded at proposal time`]
      : [];
  },
  async execute(plan, ctx) {
    const t = target(plan.params);
    const uid = pinnedUid(plan, `Deployment ${t.key}`);
    const d = await readDeployment(ctx.workload, t.path);
    if (!d) throw new RemediateError('E_REMEDIATE_NO_TARGET', `Deployment ${t.key} vanished before the scale`);
    if (d.metadata?.uid !== uid)
      throw new RemediateError(
        'E_REMEDIATE_NO_TARGET',
        `${replacedMessage(`Deployment ${t.key}`, uid, d.metadata?.uid)}; nothing was changed`,
      );
    const before = replicasOf(d);
    const recorded = plan.preconditions.find((p) => p.id === 'replicas-unchanged')?.recorded;
    if (recorded !== undefined && before !== Number(recorded))
      throw new RemediateError(
        'E_REMEDIATE_NO_TARGET',
        `Deployment ${t.key} now has ${before} replicas, not the ${recorded} recorded at proposal time; nothing was changed`,
      );
    // Pinned to the version just read: the replicas it holds are the state this plan relied on.
    await sendKube(ctx.workload, scaleCall(t.path, t.replicas, uid, d));
    return {
      summary: `Deployment ${t.key} scaled from ${before} to ${t.replicas}`,
      undo:
        before !== t.replicas
          ? {
              action: 'deployment.scale',
              params: { namespace: t.namespace, name: t.name, replicas: before },
              label: `Scale ${t.key} back to ${before}`,
              risk: `${t.key} runs ${before} replicas again.`,
            }
          : undefined,
    };
  },
  async verify(plan, ctx) {
    const t = target(plan.params);
    const d = await readDeployment(ctx.workload, t.path);
    return d && replicasOf(d) === t.replicas
      ? []
      : [`Deployment ${t.key} has ${d ? replicasOf(d) : 'no'} replicas, not ${t.replicas}`];
  },
};

function target(params: PlanParams) {
  const namespace = String(params.namespace ?? '');
  const name = String(params.name ?? '');
  const replicas = Number(params.replicas);
  if (!namespace || !name || !Number.isInteger(replicas) || replicas < 0)
    throw new RemediateError('E_REMEDIATE_PARAMS', `bad deployment.scale params ${JSON.stringify(params)}`);
  return {
    namespace,
    name,
    replicas,
    key: `${namespace}/${name}`,
    path: `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/deployments/${encodeURIComponent(name)}`,
  };
}

/**
 * The merge patch: spec.replicas, plus metadata.uid and metadata.resourceVersion. In a patch body
 * these two are not changes but conditions: kube-apiserver compares the patched object's
 * resourceVersion with the stored one (409 Conflict "the object has been modified") and refuses a
 * uid that differs from the stored one (422, metadata.uid is immutable).
 */
function scaleCall(path: string, replicas: number, uid: string, read: KubeObject): KubeCall {
  return {
    method: 'PATCH',
    path,
    contentType: 'application/merge-patch+json',
    body: { metadata: { uid, resourceVersion: read.metadata?.resourceVersion }, spec: { replicas } },
  };
}

function replicasOf(d: { spec?: { replicas?: unknown } }): number {
  // The API server defaults an omitted spec.replicas to 1.
  return typeof d.spec?.replicas === 'number' ? d.spec.replicas : 1;
}

async function readDeployment(kc: Parameters<typeof sendKube>[0], path: string): Promise<KubeObject | undefined> {
  try {
    return await sendKube(kc, { method: 'GET', path });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
