import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { webApi } from '@slack/bolt';
import { proposeFix, type ProposeFixDeps } from '../../approvals/request/propose-fix.js';
import { isProposalClickSignatureValid, type ProposalClick } from '../../approvals/request/sign-proposal-click.js';
import { postApprovalRequest, postProposalReply } from '../../slack/post/post-approval-request.js';
import type { ProposalStore } from '../../store/proposal-store.js';
import { renderProposed } from '../../slack/render/render-proposed.js';
import { renderProposalRefusal } from '../../slack/render/render-proposal-refusal.js';
import type { StartedWorker } from './started-worker.js';
import { BULLMQ_PREFIX, PROPOSE_QUEUE, queuePrefix } from '../queue-names.js';
import { describeError } from '../../errors/describe-error.js';

/** Data of a `propose` job: the click as `serve` verified and sealed it, and when it stops waiting. */
export interface ProposeJobData {
  click: ProposalClick;
  /** signProposalClick(click) by the `serve` that verified the click. */
  sig: string;
  /** ISO time `serve` stops waiting (it then tells the clicker): a job started later is dropped. */
  deadline: string;
}

/** What a propose job returns (BullMQ keeps it for an hour; `serve` only needs to know it finished). */
export type ProposeJobResult =
  | { outcome: 'proposed'; requestId: string }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'dropped'; reason: 'late' };

/** What the propose worker needs (built by jobs/start-workers.ts or a test). */
export interface ProposeWorkerDeps extends Omit<ProposeFixDeps, 'publish'> {
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, docs/development.md "Stack notes"). */
  connection: Redis;
  slack: webApi.WebClient;
  proposals: ProposalStore;
  /** BullMQ prefix (default 'k8s-health'). */
  prefix?: string;
  /** A request was posted: recent viewers' App Home lists it among the approvals waiting on them. */
  onApprovalsChanged?: () => Promise<unknown>;
}

/**
 * The remediation worker's side of a fix-button click (queue `k8s-health-propose`, run by the
 * `remediate` worker kind: the one process that holds the credential that may write, which a
 * server-side dry run needs too). Per job:
 * 1. a click whose deadline passed is dropped (serve already told the clicker no worker took it);
 * 2. the seal must verify with this worker's K8S_HEALTH_PLAN_SECRET, and the proposal must still be stored;
 * 3. approvals/request/propose-fix.ts plans, dry-runs, signs, posts the request in the clicked thread,
 *    stores and audits it; a refusal is told to the clicker ephemerally in that thread, and so is the
 *    request's link (or why none was made) to each click of the same fix made while it was planned.
 * Failing to tell the clicker fails the job: `serve`, which waits for it, then answers with the reason.
 */
export function startProposeWorker(deps: ProposeWorkerDeps): StartedWorker {
  const tell = (click: ProposalClick, text: string) => postProposalReply(deps.slack, click, text);
  const worker = new Worker<ProposeJobData, ProposeJobResult>(
    PROPOSE_QUEUE,
    async (job) => {
      const { click, sig, deadline } = job.data;
      // One child logger per job: every line of this click carries its ids.
      const log = deps.log.child({ queue: PROPOSE_QUEUE, jobId: job.id, user: click.user, proposal: click.proposalId });
      if (Date.parse(deadline) < deps.now().getTime()) {
        log.info({ deadline }, 'propose-fix dropped: taken after its deadline');
        return { outcome: 'dropped', reason: 'late' };
      }
      if (!isProposalClickSignatureValid(click, sig, deps.signer)) {
        log.warn({ reason: 'unverified-click' }, 'propose-fix refused');
        await tell(
          click,
          renderProposalRefusal(
            deps.signer.ready ? { reason: 'unverified-click' } : { reason: 'no-secret', detail: deps.signer.problem! },
          ),
        );
        return { outcome: 'refused', reason: deps.signer.ready ? 'unverified-click' : 'no-secret' };
      }
      const stored = await deps.proposals.get(click.proposalId);
      if (!stored) {
        await tell(click, renderProposalRefusal({ reason: 'unknown-proposal' }));
        return { outcome: 'refused', reason: 'unknown-proposal' };
      }
      try {
        const r = await proposeFix(click, stored, {
          ...deps,
          log: log.child({ cluster: stored.cluster }),
          publish: (req) => postApprovalRequest(deps.slack, req),
          // Clicks of the same fix made while this one was planned: each gets the request's link (or why none).
          tellWaiting: async (waiting) => {
            for (const w of waiting)
              await tell(w.click, renderProposalRefusal(w.refusal)).catch((err: unknown) =>
                log.warn({ err, waiting: w.click.user }, 'a waiting clicker was not told'),
              );
          },
        });
        if (r.outcome === 'proposed') {
          log.info({ requestId: r.request.id, cluster: stored.cluster }, 'fix proposed');
          await tell(click, renderProposed(r.request)).catch((err: unknown) => log.warn({ err }, 'proposer not told'));
          await deps.onApprovalsChanged?.().catch((err: unknown) => log.warn({ err }, 'app home refresh failed'));
        }
        if (r.outcome === 'proposed') return { outcome: 'proposed', requestId: r.request.id };
        await tell(click, renderProposalRefusal(r.refusal));
        return { outcome: 'refused', reason: r.refusal.reason };
      } catch (err) {
        const reason = describeError(err);
        log.error({ cluster: stored.cluster, err }, 'propose-fix failed');
        await tell(click, renderProposalRefusal({ reason: 'error', detail: reason }));
        return { outcome: 'refused', reason: 'error' };
      }
    },
    { connection: deps.connection, prefix: queuePrefix(deps.prefix ?? BULLMQ_PREFIX, PROPOSE_QUEUE), concurrency: 4 },
  );
  // A worker's 'error' events are its connection's (every reconnect attempt during a Redis outage
  // repeats one): /readyz reports them; the log keeps them at debug. A job's own failure is a
  // 'failed' event, logged at warn by the composition (compose/compose-jobs.ts).
  worker.on('error', (err) => deps.log.debug({ queue: PROPOSE_QUEUE, err }, 'propose worker error'));
  return { worker, close: () => worker.close() };
}
