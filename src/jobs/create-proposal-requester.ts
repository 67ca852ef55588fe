import type { Queue, QueueEvents } from 'bullmq';
import { proposalClickKey } from '../approvals/request/sign-proposal-click.js';
import type { RequestProposal } from '../slack/handle/handle-approval-deps.js';
import type { ProposeJobData } from './workers/propose.js';
import { describeError } from '../errors/describe-error.js';

/** Options of {@link createProposalRequester}. */
export interface ProposalRequesterOptions {
  /** How long a click waits for a remediation worker (default 30 s); then the clicker is told. */
  timeoutMs?: number;
}

/** Job states in which nobody has started the job yet: it can still be withdrawn. */
const NOT_STARTED = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The `serve` side of proposing a fix: the sealed click becomes a `propose` job on
 * `k8s-health-propose`, and the click waits for it like a `/k8s-health` waits for its scan. The
 * idempotency key is proposal + clicker + message (proposalClickKey): while a job of that key waits
 * or runs, another click joins it (BullMQ deduplication); after it, the worker finds the request it
 * made while that is pending (approvals/request/propose-fix.ts), so a double click makes one request either way.
 * After `timeoutMs` a job nobody started is withdrawn (and the worker would drop it anyway: it
 * carries that deadline), so "nothing was proposed" stays true.
 */
export function createProposalRequester(
  queue: Queue,
  events: QueueEvents,
  opts: ProposalRequesterOptions = {},
): RequestProposal {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return async ({ click, sig }) => {
    const data: ProposeJobData = { click, sig, deadline: new Date(Date.now() + timeoutMs).toISOString() };
    const job = await queue.add('propose', data, {
      deduplication: { id: `propose.${proposalClickKey(click)}` },
      attempts: 1,
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 24 * 3600 },
    });
    try {
      await job.waitUntilFinished(events, timeoutMs);
      return { status: 'finished' };
    } catch (err) {
      if (!/timed out/i.test(describeError(err))) throw err;
      const state = await queue.getJobState(job.id!).catch(() => 'unknown');
      if (state === 'completed') return { status: 'finished' };
      if (NOT_STARTED.has(state)) {
        // Withdrawn: a worker starting later must not post a request the clicker was told is not coming.
        const removed = await queue.remove(job.id!).then(
          (n) => n === 1,
          () => false,
        );
        return { status: 'timeout', started: !removed, waitedMs: timeoutMs };
      }
      return { status: 'timeout', started: true, waitedMs: timeoutMs };
    }
  };
}
