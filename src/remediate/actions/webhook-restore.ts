import type { KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../action-context.js';
import type { RemediationAction } from '../remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { RemediationPlan } from '../remediation-plan.js';
import { describeKubeCall, sendKube } from '../send-kube.js';
import { readWebhook, WEBHOOK_KINDS, webhookTarget } from './webhook-suspend.js';

/**
 * webhook.restore `kind` `name` `backupOf` (the webhook.suspend request whose backup is re-created):
 * the undo of webhook.suspend, its own approval-gated proposal.
 */
export const webhookRestore: RemediationAction = {
  id: 'webhook.restore',
  rbac: WEBHOOK_KINDS.map((resource) => ({ group: 'admissionregistration.k8s.io', resource, verbs: ['get', 'create'] as const })),
  async plan(cluster, params) {
    const { kind, name, path } = webhookTarget(params);
    const backupOf = String(params.backupOf ?? '');
    const collection = path.slice(0, path.lastIndexOf('/'));
    return {
      action: 'webhook.restore',
      cluster,
      params: { kind, name, backupOf },
      label: `Restore webhook ${name}`,
      apiCalls: [describeKubeCall({ method: 'POST', path: collection }) + ` (the backup of request ${backupOf})`],
      preconditions: [
        { id: 'backup-exists', text: `the backup stored by request ${backupOf} exists` },
        { id: 'absent', text: `${kind}WebhookConfiguration ${name} does not exist (not recreated by its operator meanwhile)` },
      ],
      risk: `${name} enforces its policy again: pods it refuses are refused again.`,
    };
  },
  async dryRun(plan, ctx) {
    const { collection, body } = await restoreCall(plan, ctx);
    await sendKube(ctx.workload, { method: 'POST', path: collection, query: { dryRun: 'All' }, body });
    return `server-side dry run (dryRun=All) accepted: POST ${collection}`;
  },
  async checkPreconditions(plan, ctx) {
    const { name, path } = webhookTarget(plan.params);
    const problems: string[] = [];
    if (!(await loadBackup(plan, ctx))) problems.push(`no backup stored by request ${plan.params.backupOf}`);
    if (await readWebhook(ctx, path)) problems.push(`${name} exists again (recreated meanwhile): nothing to restore`);
    return problems;
  },
  async execute(plan, ctx) {
    const { collection, body } = await restoreCall(plan, ctx);
    await sendKube(ctx.workload, { method: 'POST', path: collection, body });
    return { summary: `${plan.params.kind}WebhookConfiguration ${plan.params.name} re-created from the backup of request ${plan.params.backupOf}` };
  },
  async verify(plan, ctx) {
    return (await readWebhook(ctx, webhookTarget(plan.params).path)) ? [] : [`${plan.params.name} does not exist after the restore`];
  },
};

async function loadBackup(plan: RemediationPlan, ctx: ActionContext): Promise<KubeObject | undefined> {
  return ctx.loadBackup ? ctx.loadBackup(String(plan.params.backupOf)) : undefined;
}

/** The backup without its server-set identity, ready to be created again. */
async function restoreCall(plan: RemediationPlan, ctx: ActionContext): Promise<{ collection: string; body: KubeObject }> {
  const { path } = webhookTarget(plan.params);
  const backup = await loadBackup(plan, ctx);
  if (!backup) throw new RemediateError('E_REMEDIATE_NO_TARGET', `no backup stored by request ${plan.params.backupOf}`);
  const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, managedFields: _mf, generation: _g, ...metadata } = (backup.metadata ?? {}) as unknown as Record<string, unknown>;
  return { collection: path.slice(0, path.lastIndexOf('/')), body: { ...backup, metadata } as unknown as KubeObject };
}
