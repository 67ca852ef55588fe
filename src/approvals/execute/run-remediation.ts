import type { ClusterConfig, Config } from '../../config/config-schema.js';
import type { ApprovalBackups } from '../approval-stores.js';
import type { ApprovalStore } from '../approval-stores.js';
import type { AuditLog } from '../approval-stores.js';
import type { ActionContext } from './action-context.js';
import { findAction } from '../actions/index.js';
import type { ApprovalRequest, ApprovalStatus } from '../approval-request.js';
import { createBackupLoader } from './create-backup-loader.js';
import type { ExecutedMemory } from './create-executed-memory.js';
import { moveRequest } from '../move-request.js';
import type { PlanSigner } from '../plan-signer.js';
import { RemediateError } from '../remediate-error.js';
import type { UndoProposal } from '../remediation-plan.js';
import { sealBackup } from './seal-backup.js';
import { KubeCallError } from './send-kube.js';
import { verifyApproval } from './verify-approval.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../log/logger.js';

export interface RunRemediationDeps {
  config: Config;
  approvals: ApprovalStore;
  audit: AuditLog;
  backups: ApprovalBackups;
  /** HMAC with K8S_HEALTH_PLAN_SECRET: verifies the plan and the votes, seals backups. */
  signer: PlanSigner;
  /**
   * Is this Slack user an approver of this cluster under the current config (users; groups via the cached usergroups
   * lookup)?
   */
  isAuthorized: (cluster: ClusterConfig, user: string) => Promise<boolean>;
  /** Live access to a cluster (createActionContext in production). */
  createContext: (cluster: Config['clusters'][number]) => Promise<ActionContext>;
  now: () => Date;
  log: Logger;
  /** Pause between verification attempts (a leader election or a delete can take a moment). */
  verifyDelayMs?: number;
  /**
   * The requests this process executed (create-executed-memory.ts): a request found here is refused
   * even when the executed marker in Redis was deleted. The remediate worker keeps one per process.
   */
  executedHere?: ExecutedMemory;
}

/** What a run did; `ran` is false when this caller lost the race or the request was not approved. */
export interface RemediationRun {
  request?: ApprovalRequest;
  ran: boolean;
  undo?: UndoProposal;
  backup?: { what: string; json: string };
}

/**
 * Execute one approved request exactly once (docs/architecture.md, "An approval"), never on the word of Redis alone:
 * 1. approved → executing by compare-and-set: of any number of concurrent runs only one wins;
 *    a request found already `executing` means a worker died mid-run: it becomes `interrupted`
 *    and is NEVER re-executed blindly;
 * 2. the claimed request is re-verified from what cannot be forged through Redis (verify-approval.ts:
 *    plan signature, sealed votes checked against the CURRENT config, expiry, execution deadline);
 *    any failure → `aborted` "refused", audited `refused`, nothing sent to the cluster;
 * 3. the executed marker is set once (SET NX), and the id remembered by this process: a request reset
 *    to `approved` after it ran is refused (by this worker even when the marker was deleted);
 * 4. the cluster's remediation switch and every precondition are re-checked live; anything
 *    changed → `aborted` with the reasons;
 * 5. execute once (sealed backups first; every write pinned to the planned object), verify,
 *    → `succeeded` or `failed`. Every step is audited.
 */
export async function runRemediation(requestId: string, deps: RunRemediationDeps): Promise<RemediationRun> {
  const claimed = await deps.approvals.update(requestId, (req) => {
    if (req.status === 'executing') {
      return {
        request: moveRequest(
          req,
          'interrupted',
          deps.now(),
          'interrupted: the worker stopped while executing; it was not run again — check the cluster and propose again if needed',
        ),
        extra: 'interrupted' as const,
      };
    }
    return { request: moveRequest(req, 'executing', deps.now()), extra: 'claimed' as const };
  });
  if (!claimed?.changed) return { request: claimed?.request, ran: false };
  const req = claimed.request;
  if (claimed.extra === 'interrupted') {
    await audit(deps, req, 'interrupted', req.result);
    return { request: req, ran: false };
  }

  const finish = async (
    status: ApprovalStatus,
    result: string,
    extra: Omit<RemediationRun, 'request' | 'ran'> = {},
    event?: 'refused',
  ): Promise<RemediationRun> => {
    const done = await deps.approvals.update(requestId, (r) => ({
      request: moveRequest(r, status, deps.now(), result),
      extra: undefined,
    }));
    const final = done?.request ?? req;
    await audit(deps, final, event ?? (status as 'succeeded' | 'failed' | 'aborted'), result);
    return { request: final, ran: status !== 'aborted', ...extra };
  };

  // 2. Re-verify before anything else: a status of `approved` proves nothing.
  const refused = await verifyApproval(req, {
    config: deps.config,
    signer: deps.signer,
    now: deps.now(),
    isAuthorized: deps.isAuthorized,
  });
  if (refused.length) {
    deps.log.warn({ requestId: req.id, cluster: req.cluster, problems: refused }, 'remediation refused');
    return finish('aborted', `refused, nothing was changed: ${refused.join('; ')}`, {}, 'refused');
  }
  // 3. Exactly once across resets: the claim above is once per `approved`, this is once per request —
  // by the marker in Redis, and by this process's own memory, which a Redis writer cannot delete.
  if (!(await deps.approvals.markExecuted(requestId))) {
    return finish(
      'aborted',
      'refused, nothing was changed: this request was already executed once (executed marker); propose it again if it is still needed',
      {},
      'refused',
    );
  }
  if (deps.executedHere?.has(requestId)) {
    return finish(
      'aborted',
      'refused, nothing was changed: this request was already executed once by this remediation worker (its executed marker in Redis is gone: someone deleted it); propose it again if it is still needed',
      {},
      'refused',
    );
  }
  deps.executedHere?.add(requestId);
  await audit(deps, req, 'executing');

  const cluster = deps.config.clusters.find((c) => c.name === req.cluster)!;
  return finish(...(await attemptAction(deps, req, requestId, cluster)));
}

/** How the action ended: the arguments of `finish`. */
type Outcome = [status: ApprovalStatus, result: string, extra?: Omit<RemediationRun, 'request' | 'ran'>];

/**
 * Run the action and say how it ended. Recording the outcome (`finish`) stays outside this try: a
 * failure to record it rejects the run instead of being caught here and recorded as a failed action.
 */
async function attemptAction(
  deps: RunRemediationDeps,
  req: ApprovalRequest,
  requestId: string,
  cluster: ClusterConfig,
): Promise<Outcome> {
  let backup: RemediationRun['backup'];
  try {
    const action = findAction(req.plan.action);
    const ctx = await deps.createContext(cluster);
    ctx.loadBackup ??= createBackupLoader(deps.backups, deps.signer);
    const problems = await action.checkPreconditions(req.plan, ctx);
    if (problems.length) return ['aborted', `aborted, nothing was changed: ${problems.join('; ')}`];
    const result = await action.execute(req.plan, ctx, {
      requestId,
      saveBackup: async (what, object) => {
        // Sealed: a restore later accepts exactly this object, saved by this request and action.
        await deps.backups.save(
          requestId,
          what,
          object,
          sealBackup(deps.signer, what, object, { requestId, action: req.plan.action, params: req.plan.params }),
        );
        backup = { what, json: JSON.stringify(object, null, 2) };
      },
    });
    let failing: string[] = [];
    for (let i = 0; i < 10; i++) {
      failing = await action.verify(req.plan, ctx);
      if (!failing.length) break;
      await new Promise((r) => setTimeout(r, deps.verifyDelayMs ?? 500));
    }
    if (failing.length)
      return [
        'failed',
        `executed, but verification failed: ${failing.join('; ')} (${result.summary})`,
        { undo: result.undo, backup },
      ];
    return ['succeeded', `done and verified: ${result.summary}`, { undo: result.undo, backup }];
  } catch (err) {
    const message = describeError(err);
    // The object was replaced or changed under the plan: the pinned write was refused (409 precondition
    // or optimistic-lock conflict, 422 failed json-patch test or immutable uid), or the action's own
    // re-read found another object. Nothing reached the cluster: fail closed, and say so.
    if (err instanceof KubeCallError && (err.status === 409 || err.status === 422)) {
      return [
        'aborted',
        `aborted, nothing was changed: the API server refused the write pinned to the object this plan was made for (${message})`,
        { backup },
      ];
    }
    if (err instanceof RemediateError && err.code === 'E_REMEDIATE_NO_TARGET')
      return ['aborted', `aborted, nothing was changed: ${message}`, { backup }];
    return ['failed', `failed: ${message}`, { backup }];
  }
}

async function audit(
  deps: RunRemediationDeps,
  req: ApprovalRequest,
  event: 'executing' | 'succeeded' | 'failed' | 'aborted' | 'interrupted' | 'refused',
  detail?: string,
): Promise<void> {
  await deps.audit.append({
    at: deps.now().toISOString(),
    cluster: req.cluster,
    requestId: req.id,
    event,
    action: req.plan.action,
    hash: req.hash,
    ...(detail ? { detail } : {}),
  });
}
