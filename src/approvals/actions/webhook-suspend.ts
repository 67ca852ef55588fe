import type { KubeObject } from '../../cluster/snapshot.js';
import { isSystemWebhook } from '../../diagnose/facts/is-system-webhook.js';
import type { ActionContext } from '../execute/action-context.js';
import { pinnedDelete, pinnedUid, replacedMessage, sameObjectPrecondition } from './pin-object.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams, RemediationPlan } from '../remediation-plan.js';
import { describeKubeCall, isNotFound, sendKube } from '../execute/send-kube.js';

/** The two admission configuration resources webhook.suspend / webhook.restore act on. */
export const WEBHOOK_KINDS = ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'] as const;

/**
 * webhook.suspend `kind` (Validating/Mutating) `name` (seed 003): back the configuration up (full
 * object, in Redis and the thread), then delete it. Only ever for third-party webhooks. The delete is
 * pinned to the exact object approved (DeleteOptions.preconditions: its uid and resourceVersion), so a
 * configuration recreated or changed under the same name is never deleted.
 */
export const webhookSuspend: RemediationAction = {
  id: 'webhook.suspend',
  undoWords:
    'restore the webhook: its configuration is backed up before the delete, and an undo button proposes restoring exactly that backup.',
  rbac: WEBHOOK_KINDS.map((resource) => ({
    group: 'admissionregistration.k8s.io',
    resource,
    verbs: ['get', 'delete'] as const,
  })),
  async plan(cluster, params, live) {
    const { kind, name, path } = webhookTarget(params);
    let rv: string | undefined;
    let uid: string | undefined;
    if (live) {
      const obj = await readWebhook(live, path);
      if (!obj) throw new RemediateError('E_REMEDIATE_NO_TARGET', `${kind}WebhookConfiguration ${name} does not exist`);
      if (isSystemWebhook(obj))
        throw new RemediateError(
          'E_REMEDIATE_NOT_ALLOWED',
          `${kind}WebhookConfiguration ${name} is a system webhook: it is never suspended`,
        );
      rv = obj.metadata?.resourceVersion;
      uid = obj.metadata?.uid;
      if (!uid || !rv)
        throw new RemediateError(
          'E_REMEDIATE_NO_TARGET',
          `${kind}WebhookConfiguration ${name} has no uid/resourceVersion: it cannot be pinned`,
        );
    }
    return {
      action: 'webhook.suspend',
      cluster,
      params: { kind, name },
      label: `Suspend webhook ${name}`,
      apiCalls: [
        `GET ${path} (full backup, stored before the delete)`,
        `${describeKubeCall({ method: 'DELETE', path })} (preconditions: uid ${uid ?? '<recorded at proposal>'}, resourceVersion ${rv ?? '<recorded at proposal>'})`,
      ],
      preconditions: [
        { id: 'exists', text: `${kind}WebhookConfiguration ${name} still exists` },
        {
          id: 'third-party',
          text: `${name} is still a third-party webhook (never antrea, calico or the platform's own)`,
        },
        sameObjectPrecondition(`${kind}WebhookConfiguration ${name}`, uid),
        {
          id: 'unchanged',
          text: `${name} is unchanged since the proposal (same resourceVersion)`,
          ...(rv ? { recorded: rv } : {}),
        },
      ],
      risk: `${kind}WebhookConfiguration ${name} is backed up then deleted: its policy is not enforced until webhook.restore (its operator may also recreate it).`,
    };
  },
  async dryRun(plan, ctx) {
    const { path } = webhookTarget(plan.params);
    await sendKube(ctx.workload, { ...pinnedDelete(path, pin(plan)), query: { dryRun: 'All' } });
    return `server-side dry run (dryRun=All) accepted: DELETE ${path} (pinned to uid ${pin(plan).uid})`;
  },
  async checkPreconditions(plan, ctx) {
    const { kind, name, path } = webhookTarget(plan.params);
    const obj = await readWebhook(ctx, path);
    if (!obj) return [`${kind}WebhookConfiguration ${name} no longer exists`];
    const { uid, resourceVersion } = pin(plan);
    if (obj.metadata?.uid !== uid)
      return [replacedMessage(`${kind}WebhookConfiguration ${name}`, uid, obj.metadata?.uid)];
    const problems: string[] = [];
    if (isSystemWebhook(obj)) problems.push(`${name} now looks like a system webhook: never suspended`);
    if (obj.metadata?.resourceVersion !== resourceVersion)
      problems.push(
        `${name} changed since the proposal (resourceVersion ${resourceVersion} → ${obj.metadata?.resourceVersion})`,
      );
    return problems;
  },
  async execute(plan, ctx, io) {
    const { kind, name, path } = webhookTarget(plan.params);
    const what = `${kind}WebhookConfiguration ${name}`;
    const obj = await readWebhook(ctx, path);
    if (!obj) throw new RemediateError('E_REMEDIATE_NO_TARGET', `${what} vanished before the delete`);
    const p = pin(plan);
    // The backup must be the very object the delete is pinned to, or a restore could bring back another one.
    if (obj.metadata?.uid !== p.uid)
      throw new RemediateError(
        'E_REMEDIATE_NO_TARGET',
        `${replacedMessage(what, p.uid, obj.metadata?.uid)}; nothing was deleted`,
      );
    if (obj.metadata?.resourceVersion !== p.resourceVersion)
      throw new RemediateError(
        'E_REMEDIATE_NO_TARGET',
        `${what} changed since the proposal (resourceVersion ${p.resourceVersion} → ${obj.metadata?.resourceVersion}); nothing was deleted`,
      );
    // Backup first: once deleted, this object is the only way back (webhook.restore).
    await io.saveBackup(what, obj);
    await sendKube(ctx.workload, pinnedDelete(path, p));
    return {
      summary: `${kind}WebhookConfiguration ${name} backed up and deleted`,
      undo: {
        action: 'webhook.restore',
        params: { kind, name, backupOf: io.requestId },
        label: `Restore webhook ${name}`,
        risk: `${name} enforces its policy again: pods it refuses are refused again.`,
      },
    };
  },
  async verify(plan, ctx) {
    const { name, path } = webhookTarget(plan.params);
    return (await readWebhook(ctx, path)) ? [`${name} still exists`] : [];
  },
};

/** The uid and resourceVersion the delete is pinned to (both recorded when the plan was made). */
function pin(plan: RemediationPlan): { uid: string; resourceVersion: string } {
  const what = `webhook ${String(plan.params.name)}`;
  const resourceVersion = plan.preconditions.find((p) => p.id === 'unchanged')?.recorded;
  if (resourceVersion === undefined)
    throw new RemediateError(
      'E_REMEDIATE_PARAMS',
      `the plan recorded no resourceVersion for ${what}: propose it again against the live cluster`,
    );
  return { uid: pinnedUid(plan, what), resourceVersion: String(resourceVersion) };
}

/** Params → the configuration's API path. Only the two admission kinds are accepted. */
export function webhookTarget(params: PlanParams): { kind: 'Validating' | 'Mutating'; name: string; path: string } {
  // docs/design.md names the kind Validating/Mutating; findings carry the object kind
  // (ValidatingWebhookConfiguration): accept both spellings, nothing else.
  const raw = String(params.kind ?? '').replace(/WebhookConfiguration$/, '');
  const kind = raw === 'Mutating' ? 'Mutating' : raw === 'Validating' ? 'Validating' : undefined;
  const name = String(params.name ?? '');
  if (!kind || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name))
    throw new RemediateError('E_REMEDIATE_PARAMS', `bad webhook params kind=${params.kind} name=${name}`);
  return {
    kind,
    name,
    path: `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}webhookconfigurations/${name}`,
  };
}

export async function readWebhook(ctx: ActionContext, path: string): Promise<KubeObject | undefined> {
  try {
    return await sendKube(ctx.workload, { method: 'GET', path });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
