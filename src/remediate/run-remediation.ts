import type { Config } from '../config/config-schema.js';
import type { ApprovalBackups } from '../store/approval-backups.js';
import type { ApprovalStore } from '../store/approval-store.js';
import type { AuditLog } from '../store/audit-log.js';
import type { ActionContext } from './action-context.js';
import { findAction } from './actions/index.js';
import type { ApprovalRequest, ApprovalStatus } from './approval-request.js';
import { hashPlan } from './hash-plan.js';
import { moveRequest } from './move-request.js';
import type { UndoProposal } from './remediation-plan.js';

export interface RunRemediationDeps {
  config: Config;
  approvals: ApprovalStore;
  audit: AuditLog;
  backups: ApprovalBackups;
  /** Live access to a cluster (createActionContext in production). */
  createContext: (cluster: Config['clusters'][number]) => Promise<ActionContext>;
  now: () => Date;
  log: (line: string) => void;
  /** Pause between verification attempts (a leader election or a delete can take a moment). */
  verifyDelayMs?: number;
}

/** What a run did; `ran` is false when this caller lost the race or the request was not approved. */
export interface RemediationRun {
  request?: ApprovalRequest;
  ran: boolean;
  undo?: UndoProposal;
  backup?: { what: string; json: string };
}

/**
 * Execute one approved request exactly once (ARCHITECTURE.md §3):
 * 1. approved → executing by compare-and-set: of any number of concurrent runs only one wins;
 *    a request found already `executing` means a worker died mid-run: it becomes `interrupted`
 *    and is NEVER re-executed blindly;
 * 2. the plan's hash, the cluster's remediation switch and every precondition are re-checked
 *    live; anything changed → `aborted` with the reasons;
 * 3. execute once (backups first), verify, → `succeeded` or `failed`. Every step is audited.
 */
export async function runRemediation(requestId: string, deps: RunRemediationDeps): Promise<RemediationRun> {
  const claimed = await deps.approvals.update(requestId, (req) => {
    if (req.status === 'executing') {
      return { request: moveRequest(req, 'interrupted', deps.now(), 'interrupted: the worker stopped while executing; it was not run again — check the cluster and propose again if needed'), extra: 'interrupted' as const };
    }
    return { request: moveRequest(req, 'executing', deps.now()), extra: 'claimed' as const };
  });
  if (!claimed?.changed) return { request: claimed?.request, ran: false };
  const req = claimed.request;
  if (claimed.extra === 'interrupted') {
    await audit(deps, req, 'interrupted', req.result);
    return { request: req, ran: false };
  }
  await audit(deps, req, 'executing');

  const finish = async (status: ApprovalStatus, result: string, extra: Omit<RemediationRun, 'request' | 'ran'> = {}): Promise<RemediationRun> => {
    const done = await deps.approvals.update(requestId, (r) => ({ request: moveRequest(r, status, deps.now(), result), extra: undefined }));
    const final = done?.request ?? req;
    await audit(deps, final, status as 'succeeded' | 'failed' | 'aborted', result);
    return { request: final, ran: status !== 'aborted', ...extra };
  };

  const cluster = deps.config.clusters.find((c) => c.name === req.cluster);
  if (!cluster || cluster.dump || !cluster.remediation.enabled) {
    return finish('aborted', `aborted: remediation is not enabled for cluster ${req.cluster} (or it is dump-backed)`);
  }
  if (hashPlan(req.plan) !== req.hash) return finish('aborted', 'aborted: the stored plan does not match the hash that was approved');

  let backup: RemediationRun['backup'];
  try {
    const action = findAction(req.plan.action);
    const ctx = await deps.createContext(cluster);
    ctx.loadBackup ??= async (id) => (await deps.backups.load(id))?.object;
    const problems = await action.checkPreconditions(req.plan, ctx);
    if (problems.length) return finish('aborted', `aborted, nothing was changed: ${problems.join('; ')}`);
    const result = await action.execute(req.plan, ctx, {
      requestId,
      saveBackup: async (what, object) => {
        await deps.backups.save(requestId, what, object);
        backup = { what, json: JSON.stringify(object, null, 2) };
      },
    });
    let failing: string[] = [];
    for (let i = 0; i < 10; i++) {
      failing = await action.verify(req.plan, ctx);
      if (!failing.length) break;
      await new Promise((r) => setTimeout(r, deps.verifyDelayMs ?? 500));
    }
    if (failing.length) return finish('failed', `executed, but verification failed: ${failing.join('; ')} (${result.summary})`, { undo: result.undo, backup });
    return finish('succeeded', `done and verified: ${result.summary}`, { undo: result.undo, backup });
  } catch (err) {
    return finish('failed', `failed: ${err instanceof Error ? err.message : String(err)}`, { backup });
  }
}

async function audit(deps: RunRemediationDeps, req: ApprovalRequest, event: 'executing' | 'succeeded' | 'failed' | 'aborted' | 'interrupted', detail?: string): Promise<void> {
  await deps.audit.append({ at: deps.now().toISOString(), cluster: req.cluster, requestId: req.id, event, action: req.plan.action, hash: req.hash, ...(detail ? { detail } : {}) });
}
