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
import type { ApprovalRequest } from '../../approvals/approval-request.js';
import type { InPlaceStore } from '../../store/in-place-store.js';
import { fixKey } from '../../approvals/request/fix-key.js';
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
  /** A fix ran: re-render the alert parents that offered it, so its button disappears now, not at the next scan. */
  onFixRan?: (req: ApprovalRequest) => Promise<void>;
  /** Reversible changes still in place (store/in-place-store.ts). */
  inPlace?: InPlaceStore;
}

/** The actions that lift a safeguard until undone: the thread says so while they are in place. */
const IN_PLACE_ACTIONS = new Set([
  'webhook.suspend',
  'mhc.pause-remediation',
  'machine.skip-drain',
  'node.out-of-service',
]);

/**
 * A suspended webhook's backend service, read from the backup of its configuration (the first webhook that names one).
 */
function backendOf(json: string | undefined): { backend?: { namespace: string; name: string } } {
  try {
    const obj = JSON.parse(json ?? 'null') as {
      webhooks?: { clientConfig?: { service?: { namespace?: unknown; name?: unknown } } }[];
    } | null;
    const svc = obj?.webhooks
      ?.map((w) => w.clientConfig?.service)
      .find((s) => typeof s?.namespace === 'string' && typeof s?.name === 'string');
    return svc ? { backend: { namespace: String(svc.namespace), name: String(svc.name) } } : {};
  } catch {
    return {};
  }
}

/** How long "this fix ran" hides its buttons: as long as a stored proposal lives. */
const FIX_RAN_SECONDS = 7 * 24 * 3600;

/**
 * The remediate worker: one job per approved request (job id = request id). runRemediation does
 * the exactly-once part; this adapter reports in the request's thread (result, backup, undo button)
 * and re-renders the request message. A job redelivered after a crash finds its request
 * `executing` and reports it `interrupted` instead of running it again.
 */
export function startRemediateWorker(deps: RemediateWorkerDeps): StartedWorker {
  const authorizer = createApprovalAuthorizer({ log: deps.log });
  // One memory of executed requests per worker: a replay whose Redis marker was deleted is still refused here.
  const runDeps: RunRemediationDeps = {
    ...deps,
    isAuthorized: deps.isAuthorized ?? ((cluster, user) => authorizer(deps.slack, cluster, user)),
    executedHere: deps.executedHere ?? createExecutedMemory(),
  };
  const worker = new Worker(
    REMEDIATE_QUEUE,
    async (job) => {
      const given = (job.data as { requestId?: unknown }).requestId;
      const requestId = typeof given === 'string' ? given : String(job.id);
      // One child logger per job: every line of this run carries its request id.
      const log = deps.log.child({ queue: REMEDIATE_QUEUE, jobId: job.id, requestId });
      const run = await runRemediation(requestId, { ...runDeps, log });
      const req = run.request;
      if (!req || !['succeeded', 'failed', 'aborted', 'interrupted'].includes(req.status))
        return { status: req?.status ?? 'unknown' };
      log.info(
        { remediation: true, cluster: req.cluster, action: req.plan.action, status: req.status, result: req.result },
        `remediation ${req.status}`,
      );
      // A fix that ran loses its buttons (alert parents, answer cards): remembered as long as proposals are.
      // An undo that ran takes what it undid off the list of reversible changes still in place.
      if (req.status === 'succeeded' && typeof req.fixKey === 'string') {
        await deps.approvals.markFixRan(req.fixKey, deps.now().toISOString(), FIX_RAN_SECONDS);
        await deps.inPlace?.undone(req.cluster, req.fixKey);
      }
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
        // A safeguard lifted (a suspended webhook, paused remediation, a skipped drain, an out-of-service
        // taint) is remembered until its undo runs: the thread keeps saying so (slack/render/render-in-place.ts).
        if (IN_PLACE_ACTIONS.has(req.plan.action)) {
          await deps.inPlace?.add({
            requestId: req.id,
            cluster: req.cluster,
            action: req.plan.action,
            label: req.plan.label,
            at: deps.now().toISOString(),
            thread: { channel: req.thread.channel, threadTs: req.thread.threadTs },
            undo: { label: run.undo.label, risk: run.undo.risk, proposalId, fixKey: fixKey(req.cluster, run.undo) },
            ...backendOf(run.backup?.json),
          });
        }
      }
      if (req.status === 'succeeded')
        await deps
          .onFixRan?.(req)
          .catch((err: unknown) => log.warn({ err }, 'alert parent refresh after the fix failed'));
      await postApprovalResult(deps.slack, req, { backup: run.backup, undo });
      await updateApprovalMessage(deps.slack, req, deps.signer).catch((err: unknown) =>
        log.warn({ err }, 'approval message update failed'),
      );
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
