import type { KubeObject } from '../../cluster/snapshot.js';
import { isSystemWebhook } from '../../diagnose/facts/is-system-webhook.js';
import type { ActionContext } from '../action-context.js';
import type { RemediationAction } from '../remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams } from '../remediation-plan.js';
import { describeKubeCall, isNotFound, sendKube } from '../send-kube.js';

/** The two admission configuration resources webhook.suspend / webhook.restore act on. */
export const WEBHOOK_KINDS = ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'] as const;

/**
 * webhook.suspend `kind` (Validating/Mutating) `name` (seed 003): back the configuration up (full
 * object, in Redis and the thread), then delete it. Only ever for third-party webhooks.
 */
export const webhookSuspend: RemediationAction = {
  id: 'webhook.suspend',
  rbac: WEBHOOK_KINDS.map((resource) => ({ group: 'admissionregistration.k8s.io', resource, verbs: ['get', 'delete'] as const })),
  async plan(cluster, params, live) {
    const { kind, name, path } = webhookTarget(params);
    let rv: string | undefined;
    if (live) {
      const obj = await readWebhook(live, path);
      if (!obj) throw new RemediateError('E_REMEDIATE_NO_TARGET', `${kind}WebhookConfiguration ${name} does not exist`);
      if (isSystemWebhook(obj)) throw new RemediateError('E_REMEDIATE_NOT_ALLOWED', `${kind}WebhookConfiguration ${name} is a system webhook: it is never suspended`);
      rv = obj.metadata?.resourceVersion;
    }
    return {
      action: 'webhook.suspend',
      cluster,
      params: { kind, name },
      label: `Suspend webhook ${name}`,
      apiCalls: [`GET ${path} (full backup, stored before the delete)`, describeKubeCall({ method: 'DELETE', path })],
      preconditions: [
        { id: 'exists', text: `${kind}WebhookConfiguration ${name} still exists` },
        { id: 'third-party', text: `${name} is still a third-party webhook (never antrea, calico or the platform's own)` },
        { id: 'unchanged', text: `${name} is unchanged since the proposal (same resourceVersion)`, ...(rv ? { recorded: rv } : {}) },
      ],
      risk: `${kind}WebhookConfiguration ${name} is backed up then deleted: its policy is not enforced until webhook.restore (its operator may also recreate it).`,
    };
  },
  async dryRun(plan, ctx) {
    const { path } = webhookTarget(plan.params);
    await sendKube(ctx.workload, { method: 'DELETE', path, query: { dryRun: 'All' } });
    return `server-side dry run (dryRun=All) accepted: DELETE ${path}`;
  },
  async checkPreconditions(plan, ctx) {
    const { kind, name, path } = webhookTarget(plan.params);
    const obj = await readWebhook(ctx, path);
    if (!obj) return [`${kind}WebhookConfiguration ${name} no longer exists`];
    const problems: string[] = [];
    if (isSystemWebhook(obj)) problems.push(`${name} now looks like a system webhook: never suspended`);
    const recorded = plan.preconditions.find((p) => p.id === 'unchanged')?.recorded;
    if (recorded !== undefined && obj.metadata?.resourceVersion !== String(recorded)) problems.push(`${name} changed since the proposal (resourceVersion ${recorded} → ${obj.metadata?.resourceVersion})`);
    return problems;
  },
  async execute(plan, ctx, io) {
    const { kind, name, path } = webhookTarget(plan.params);
    const obj = await readWebhook(ctx, path);
    if (!obj) throw new RemediateError('E_REMEDIATE_NO_TARGET', `${kind}WebhookConfiguration ${name} vanished before the delete`);
    // Backup first: once deleted, this object is the only way back (webhook.restore).
    await io.saveBackup(`${kind}WebhookConfiguration ${name}`, obj);
    await sendKube(ctx.workload, { method: 'DELETE', path });
    return {
      summary: `${kind}WebhookConfiguration ${name} backed up and deleted`,
      undo: { action: 'webhook.restore', params: { kind, name, backupOf: io.requestId }, label: `Restore webhook ${name}`, risk: `${name} enforces its policy again: pods it refuses are refused again.` },
    };
  },
  async verify(plan, ctx) {
    const { name, path } = webhookTarget(plan.params);
    return (await readWebhook(ctx, path)) ? [`${name} still exists`] : [];
  },
};

/** Params → the configuration's API path. Only the two admission kinds are accepted. */
export function webhookTarget(params: PlanParams): { kind: 'Validating' | 'Mutating'; name: string; path: string } {
  // DESIGN.md names the kind Validating/Mutating; findings carry the object kind
  // (ValidatingWebhookConfiguration): accept both spellings, nothing else.
  const raw = String(params.kind ?? '').replace(/WebhookConfiguration$/, '');
  const kind = raw === 'Mutating' ? 'Mutating' : raw === 'Validating' ? 'Validating' : undefined;
  const name = String(params.name ?? '');
  if (!kind || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name)) throw new RemediateError('E_REMEDIATE_PARAMS', `bad webhook params kind=${params.kind} name=${name}`);
  return { kind, name, path: `/apis/admissionregistration.k8s.io/v1/${kind.toLowerCase()}webhookconfigurations/${name}` };
}

export async function readWebhook(ctx: ActionContext, path: string): Promise<KubeObject | undefined> {
  try {
    return await sendKube(ctx.workload, { method: 'GET', path });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
