import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { webApi } from '@slack/bolt';
import { createExecutedMemory } from '../../approvals/execute/create-executed-memory.js';
import { runRemediation, type RunRemediationDeps } from '../../approvals/execute/run-remediation.js';
import { createApprovalAuthorizer } from '../../slack/handle/handle-approval-authorizer.js';
import type { ProposalStore } from '../../store/proposal-store.js';
import { postApprovalResult } from '../../slack/post/post-approval-result.js';
import { updateApprovalMessage } from '../../slack/post/update-approval-message.js';
import type { StartedWorker } from './started-worker.js';
import { BULLMQ_PREFIX, REMEDIATE_QUEUE, queuePrefix } from '../queue-names.js';

export interface RemediateWorkerDeps extends Omit<RunRemediationDeps, 'isAuthorized'> {
  /**
   * Approver check at execution time (default: approvers.users, or approvers.groups through
   * usergroups.users.list on `slack`, cached 5 minutes as at vote time).
   */
  isAuthorized?: RunRemediationDeps['isAuthorized'];
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, docs/development.md "Stack notes"). */
  connection: Redis;
  slack: webApi.WebClient;
  /** Where undo proposals are stored, so the undo button carries only an opaque id. */
  proposals: ProposalStore;
  /** BullMQ prefix (default 'k8s-health'). */
  prefix?: string;
}

/**
 * The remediate worker: one job per approved request (job id = request id). runRemediation does
 * the exactly-once part; this adapter reports in the request's thread (result, backup, undo button)
 * and re-renders the request message. A job redelivered after a crash finds its request
 * `executing` and reports it `interrupted` instead of running it again.
 */
export function startRemediateWorker(deps: RemediateWorkerDeps): StartedWorker {
  const authorizer = createApprovalAuthorizer({ log: deps.log });
  // One memory of executed requests per worker: a replay whose Redis marker was deleted is still refused here.
  const runDeps: RunRemediationDeps = { ...deps, isAuthorized: deps.isAuthorized ?? ((cluster, user) => authorizer(deps.slack, cluster, user)), executedHere: deps.executedHere ?? createExecutedMemory() };
  const worker = new Worker(
    REMEDIATE_QUEUE,
    async (job) => {
      const requestId = String((job.data as { requestId?: unknown }).requestId ?? job.id);
      // One child logger per job: every line of this run carries its request id.
      const log = deps.log.child({ queue: REMEDIATE_QUEUE, jobId: job.id, requestId });
      const run = await runRemediation(requestId, { ...runDeps, log });
      const req = run.request;
      if (!req || !['succeeded', 'failed', 'aborted', 'interrupted'].includes(req.status)) return { status: req?.status ?? 'unknown' };
      log.info({ remediation: true, cluster: req.cluster, action: req.plan.action, status: req.status, result: req.result }, `remediation ${req.status}`);
      let undo: { label: string; proposalId: string } | undefined;
      if (run.undo && req.status === 'succeeded') {
        const proposalId = await deps.proposals.save({
          cluster: req.cluster,
          findingId: `undo:${req.id}`,
          fingerprint: `undo:${req.id}`,
          proposal: run.undo,
          createdAt: deps.now().toISOString(),
        });
        undo = { label: run.undo.label, proposalId };
      }
      await postApprovalResult(deps.slack, req, { backup: run.backup, undo });
      await updateApprovalMessage(deps.slack, req, deps.signer).catch((err: unknown) => log.warn({ err }, 'approval message update failed'));
      return { status: req.status };
    },
    { connection: deps.connection, prefix: queuePrefix(deps.prefix ?? BULLMQ_PREFIX, REMEDIATE_QUEUE), concurrency: 4 },
  );
  // A worker's 'error' events are its connection's (every reconnect attempt during a Redis outage
  // repeats one): /readyz reports them; the log keeps them at debug. A job's own failure is a
  // 'failed' event, logged at warn by the composition (compose/compose-jobs.ts).
  worker.on('error', (err) => deps.log.debug({ queue: REMEDIATE_QUEUE, err }, 'remediate worker error'));
  return { worker, close: () => worker.close() };
}
