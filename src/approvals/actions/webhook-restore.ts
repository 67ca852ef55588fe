import type { KubeObject } from '../../cluster/snapshot.js';
import type { ActionContext } from '../execute/action-context.js';
import type { RemediationAction } from './remediation-action.js';
import { RemediateError } from '../remediate-error.js';
import type { PlanParams, RemediationPlan } from '../remediation-plan.js';
import type { OpenedBackup } from '../execute/seal-backup.js';
import { describeKubeCall, KubeCallError, sendKube } from '../execute/send-kube.js';
import { readWebhook, WEBHOOK_KINDS, webhookTarget } from './webhook-suspend.js';

/**
 * webhook.restore `kind` `name` `backupOf` (the webhook.suspend request whose backup is re-created):
 * the undo of webhook.suspend, its own approval-gated proposal.
 *
 * It restores only the exact object that suspend backed up, never whatever sits in the
 * backup slot: the backup's seal must verify (saved by the executor of request `backupOf`, MAC with
 * K8S_HEALTH_PLAN_SECRET), that request must have been a webhook.suspend of this very kind and name,
 * the object must be that configuration, and its sha256 and uid are recorded in this plan's
 * preconditions, so signed with it and checked again right before the POST.
 */
export const webhookRestore: RemediationAction = {
  id: 'webhook.restore',
  undoWords: 'suspend it again with a new proposal.',
  rbac: [
    ...WEBHOOK_KINDS.map((resource) => ({
      group: 'admissionregistration.k8s.io',
      resource,
      verbs: ['get', 'create'] as const,
    })),
    // Whether the webhook's backend is up, said in the plan's risk.
    { group: '', resource: 'endpoints', verbs: ['get'] as const },
  ],
  async plan(cluster, params, live) {
    const { kind, name, path } = webhookTarget(params);
    const backupOf = String(params.backupOf ?? '');
    const collection = path.slice(0, path.lastIndexOf('/'));
    let backup: OpenedBackup | undefined;
    let backends = '';
    if (live) {
      backup = await loadBackup(params, live);
      const problems = lineage(backup, params);
      if (problems.length)
        throw new RemediateError('E_REMEDIATE_BACKUP', `${problems.join('; ')}: refusing to restore it`);
      backends = await backendsDown(backup.object, live);
    }
    return {
      action: 'webhook.restore',
      cluster,
      params: { kind, name, backupOf },
      label: `Restore webhook ${name}`,
      apiCalls: [describeKubeCall({ method: 'POST', path: collection }) + ` (the backup of request ${backupOf})`],
      preconditions: [
        {
          id: 'backup-sealed',
          text: `the backup stored by request ${backupOf} is still the sealed object (sha256)`,
          ...(backup ? { recorded: backup.sha256 } : {}),
        },
        {
          id: 'backup-uid',
          text: `the backup is the ${kind}WebhookConfiguration ${name} that request ${backupOf} suspended (uid)`,
          ...(backup ? { recorded: String(backup.object.metadata.uid) } : {}),
        },
        {
          id: 'absent',
          text: `${kind}WebhookConfiguration ${name} does not exist (not recreated by its operator meanwhile)`,
        },
      ],
      risk: `${name} enforces its policy again: pods it refuses are refused again.${backends}`,
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
    try {
      await restoreCall(plan, ctx);
    } catch (err) {
      if (!(err instanceof RemediateError)) throw err;
      problems.push(err.message);
    }
    if (await readWebhook(ctx, path)) problems.push(`${name} exists again (recreated meanwhile): nothing to restore`);
    return problems;
  },
  async execute(plan, ctx) {
    const { collection, body } = await restoreCall(plan, ctx);
    await sendKube(ctx.workload, { method: 'POST', path: collection, body });
    return {
      summary: `${plan.params.kind}WebhookConfiguration ${plan.params.name} re-created from the backup of request ${plan.params.backupOf}`,
    };
  },
  async verify(plan, ctx) {
    return (await readWebhook(ctx, webhookTarget(plan.params).path))
      ? []
      : [`${plan.params.name} does not exist after the restore`];
  },
};

/**
 * What the risk adds about the backends of the configuration's fail-closed webhooks, read when the
 * plan is frozen (empty: every one has a ready endpoint). Restoring a webhook whose service has no
 * ready endpoint makes the API server refuse what it intercepts again, the outage the suspend ended:
 * the approvers read that where they decide. A backend that cannot be read is said to be unknown.
 */
async function backendsDown(config: KubeObject, ctx: ActionContext): Promise<string> {
  const webhooks = ((config as { webhooks?: unknown }).webhooks ?? []) as {
    failurePolicy?: string;
    clientConfig?: { service?: { namespace?: string; name?: string } };
  }[];
  const services = new Set<string>();
  for (const w of Array.isArray(webhooks) ? webhooks : []) {
    const svc = w?.clientConfig?.service;
    // An Ignore webhook lets requests through while its backend is down; v1's default is Fail.
    if (w?.failurePolicy !== 'Ignore' && svc?.namespace && svc.name) services.add(`${svc.namespace}/${svc.name}`);
  }
  const down: string[] = [];
  const unknown: string[] = [];
  // A few reads at most, however many webhooks the configuration holds.
  for (const ns of [...services].slice(0, 5)) {
    const [namespace, svc] = ns.split('/') as [string, string];
    try {
      const ep = (await sendKube(
        ctx.workload,
        {
          method: 'GET',
          path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/endpoints/${encodeURIComponent(svc)}`,
        },
        // A short wait: the plan is frozen while someone waits for the request, and an API server in
        // trouble must not hold it up (the risk then says the backend is unknown).
        BACKEND_READ_MS,
      )) as { subsets?: { addresses?: unknown[] }[] };
      if (!(ep.subsets ?? []).some((s) => (s.addresses ?? []).length > 0)) down.push(ns);
    } catch (err) {
      if (err instanceof KubeCallError && err.status === 404) down.push(ns);
      else unknown.push(ns);
    }
  }
  const list = (xs: string[]) => xs.map((x) => `service ${x}`).join(', ');
  return [
    down.length
      ? ` Its backend is still down: ${list(down)} ${down.length === 1 ? 'has' : 'have'} no ready endpoints now, so restoring it blocks those requests again.`
      : '',
    unknown.length ? ` Whether its backend is up could not be read (${list(unknown)}).` : '',
  ].join('');
}

/** How long the plan waits for one backend's endpoints. */
const BACKEND_READ_MS = 5000;

/** The opened (seal-verified) backup of request `backupOf`; refuses when there is none. */
async function loadBackup(params: PlanParams, ctx: ActionContext): Promise<OpenedBackup> {
  const backupOf = String(params.backupOf ?? '');
  if (!ctx.loadBackup) throw new RemediateError('E_REMEDIATE_BACKUP', 'no backup store is available in this process');
  const backup = await ctx.loadBackup(backupOf);
  if (!backup) throw new RemediateError('E_REMEDIATE_NO_TARGET', `no backup stored by request ${backupOf}`);
  return backup;
}

/** Why this backup is not the configuration the suspend of request `backupOf` deleted (empty: it is). */
function lineage(backup: OpenedBackup, params: PlanParams): string[] {
  const { kind, name } = webhookTarget(params);
  const backupOf = String(params.backupOf ?? '');
  const o = backup.object as KubeObject & { apiVersion?: string };
  const problems: string[] = [];
  const origin = backup.origin;
  let originTarget: { kind: string; name: string } | undefined;
  try {
    originTarget = webhookTarget(origin.params);
  } catch {
    originTarget = undefined;
  }
  if (
    origin.action !== 'webhook.suspend' ||
    !originTarget ||
    originTarget.kind !== kind ||
    originTarget.name !== name
  ) {
    problems.push(
      `the backup of request ${backupOf} was saved by ${origin.action} ${JSON.stringify(origin.params)}, not by the suspend of ${kind}WebhookConfiguration ${name}`,
    );
  }
  if (
    o.kind !== `${kind}WebhookConfiguration` ||
    o.apiVersion !== 'admissionregistration.k8s.io/v1' ||
    o.metadata?.name !== name
  ) {
    problems.push(
      `the backup of request ${backupOf} holds ${o.apiVersion ?? '?'} ${o.kind ?? '?'} ${o.metadata?.name ?? '?'}, not ${kind}WebhookConfiguration ${name}`,
    );
  }
  if (!o.metadata?.uid) problems.push(`the backup of request ${backupOf} has no uid: its lineage cannot be checked`);
  return problems;
}

/**
 * The backup without its server-set identity, ready to be created again, after every check: the
 * seal verifies (loadBackup), the lineage holds, and the object is the one this plan recorded (same
 * sha256, same uid). A plan without recorded values (made without a live cluster) never restores.
 */
async function restoreCall(
  plan: RemediationPlan,
  ctx: ActionContext,
): Promise<{ collection: string; body: KubeObject }> {
  const { path } = webhookTarget(plan.params);
  const backup = await loadBackup(plan.params, ctx);
  const problems = lineage(backup, plan.params);
  const sealed = plan.preconditions.find((p) => p.id === 'backup-sealed')?.recorded;
  const uid = plan.preconditions.find((p) => p.id === 'backup-uid')?.recorded;
  if (sealed === undefined || uid === undefined)
    problems.push('the plan recorded no backup hash: propose the restore again');
  else {
    if (backup.sha256 !== String(sealed))
      problems.push(
        `the backup of request ${plan.params.backupOf} is not the one signed with this plan (sha256 ${String(sealed).slice(0, 12)}… → ${backup.sha256.slice(0, 12)}…)`,
      );
    if (backup.object.metadata?.uid !== String(uid))
      problems.push(
        `the backup of request ${plan.params.backupOf} is of uid ${backup.object.metadata?.uid}, not ${uid}`,
      );
  }
  if (problems.length) throw new RemediateError('E_REMEDIATE_BACKUP', `${problems.join('; ')}: refusing to restore it`);
  const {
    resourceVersion: _rv,
    uid: _uid,
    creationTimestamp: _ct,
    managedFields: _mf,
    generation: _g,
    ...metadata
  } = (backup.object.metadata ?? {}) as unknown as Record<string, unknown>;
  return {
    collection: path.slice(0, path.lastIndexOf('/')),
    body: { ...backup.object, metadata } as unknown as KubeObject,
  };
}
