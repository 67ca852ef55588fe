import type { ActionContext } from '../execute/action-context.js';
import { pinnedDelete, pinnedUid, replacedMessage, sameObjectPrecondition } from './pin-object.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { describeKubeCall, isNotFound, sendKube } from '../execute/send-kube.js';

/**
 * pod.force-delete `namespace` `name` (seed 004: a pod stuck Terminating on a lost node, or holding a
 * RWO volume). gracePeriodSeconds=0 skips the kubelet, so it is only for pods whose node is not Ready.
 * The DELETE is pinned (DeleteOptions.preconditions): the uid recorded at proposal time and the
 * resourceVersion of the copy just backed up, so a pod recreated under the same name (a StatefulSet
 * pod) is never force-deleted in its place.
 */
export const podForceDelete: RemediationAction = {
  id: 'pod.force-delete',
  undoWords: 'none: the pod is gone; its controller (if any) creates a new one.',
  rbac: [
    { group: '', resource: 'pods', verbs: ['get', 'delete'] },
    { group: '', resource: 'nodes', verbs: ['get'] },
  ],
  async plan(cluster, params, live) {
    const t = target(params);
    let uid: string | undefined;
    if (live) {
      const pod = await readPod(live, t.path);
      if (!pod) throw new RemediateError('E_REMEDIATE_NO_TARGET', `pod ${t.key} does not exist`);
      uid = pod.metadata?.uid;
    }
    return {
      action: 'pod.force-delete',
      cluster,
      params: { namespace: t.namespace, name: t.name },
      label: `Force-delete pod ${t.key}`,
      apiCalls: [
        `GET ${t.path} (full backup, stored before the delete)`,
        `${describeKubeCall(deleteCall(t.path))} (preconditions: uid ${uid ?? '<recorded at proposal>'} and the resourceVersion backed up)`,
      ],
      preconditions: [
        sameObjectPrecondition(`pod ${t.key}`, uid),
        { id: 'node-not-ready', text: `pod ${t.key}'s node is NotReady, Unknown or gone` },
      ],
      risk: 'If its node is in fact running, the container keeps running unseen and may write to a volume attached elsewhere.',
    };
  },
  async dryRun(plan, ctx) {
    const t = target(plan.params);
    const pod = await readPod(ctx, t.path);
    if (!pod) throw new RemediateError('E_REMEDIATE_NO_TARGET', `pod ${t.key} does not exist`);
    await sendKube(
      ctx.workload,
      pinnedDelete(
        t.path,
        { uid: pinnedUid(plan, `pod ${t.key}`), resourceVersion: String(pod.metadata?.resourceVersion) },
        { gracePeriodSeconds: '0', dryRun: 'All' },
      ),
    );
    return `server-side dry run (dryRun=All) accepted: DELETE ${t.path}?gracePeriodSeconds=0 (pinned to uid ${pinnedUid(plan, t.key)})`;
  },
  async checkPreconditions(plan, ctx) {
    const t = target(plan.params);
    const pod = await readPod(ctx, t.path);
    if (!pod) return [`pod ${t.key} no longer exists`];
    const problems: string[] = [];
    const uid = pinnedUid(plan, `pod ${t.key}`);
    if (pod.metadata?.uid !== uid) return [replacedMessage(`pod ${t.key}`, uid, pod.metadata?.uid)];
    const nodeName = pod.spec?.nodeName;
    if (nodeName) {
      try {
        const node = await sendKube(ctx.workload, {
          method: 'GET',
          path: `/api/v1/nodes/${encodeURIComponent(nodeName)}`,
        });
        const ready = (node.status?.conditions ?? []).find((c: { type?: string }) => c.type === 'Ready');
        if (ready?.status === 'True')
          problems.push(`node ${nodeName} of pod ${t.key} is Ready: let the kubelet delete the pod normally`);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return problems;
  },
  async execute(plan, ctx, io) {
    const t = target(plan.params);
    const uid = pinnedUid(plan, `pod ${t.key}`);
    const pod = await readPod(ctx, t.path);
    if (!pod) throw new RemediateError('E_REMEDIATE_NO_TARGET', `pod ${t.key} vanished before the delete`);
    if (pod.metadata?.uid !== uid)
      throw new RemediateError(
        'E_REMEDIATE_NO_TARGET',
        `${replacedMessage(`pod ${t.key}`, uid, pod.metadata?.uid)}; nothing was deleted`,
      );
    await io.saveBackup(`Pod ${t.key}`, pod);
    // Pinned to the copy just backed up: the backup is exactly what was deleted.
    await sendKube(
      ctx.workload,
      pinnedDelete(
        t.path,
        { uid, resourceVersion: String(pod.metadata?.resourceVersion) },
        { gracePeriodSeconds: '0' },
      ),
    );
    return { summary: `pod ${t.key} backed up and force-deleted (gracePeriodSeconds=0)` };
  },
  async verify(plan, ctx) {
    const t = target(plan.params);
    return (await readPod(ctx, t.path)) ? [`pod ${t.key} still exists`] : [];
  },
};

function target(params: PlanParams) {
  const namespace = String(params.namespace ?? '');
  const name = String(params.name ?? '');
  if (!namespace || !name)
    throw new RemediateError('E_REMEDIATE_PARAMS', `bad pod.force-delete params ${JSON.stringify(params)}`);
  return {
    namespace,
    name,
    key: `${namespace}/${name}`,
    path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`,
  };
}

function deleteCall(path: string) {
  return { method: 'DELETE' as const, path, query: { gracePeriodSeconds: '0' } };
}

async function readPod(ctx: ActionContext, path: string) {
  try {
    return await sendKube(ctx.workload, { method: 'GET', path });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
