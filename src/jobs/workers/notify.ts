import { Worker, type Job, type Queue, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { postAlert, type NotifyRequest, type PostAlertDeps } from '../../slack/post/post-alert.js';
import { enqueueMemberCard } from '../enqueue-notify.js';
import { NOTIFY_QUEUE, queuePrefix } from '../queue-names.js';
import type { StartedWorker } from './started-worker.js';

/**
 * What the notify worker needs: postAlert's deps (Slack client, thread and quiet stores, limiter, proposals) and its
 * queue's.
 */
export interface NotifyWorkerDeps extends PostAlertDeps {
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, docs/development.md "Stack notes"). */
  connection: Redis;
  prefix: string;
  concurrency: number;
  settings?: WorkerOptions['settings'];
  /** The notify queue itself: a fleet member named in its fleet parent gets its own card queued after it. */
  queue: Queue;
}

/**
 * The notify worker: takes each job of queue `k8s-health-notify` (an incident's latest change, queued
 * by the scan) and posts it in the incident's alert thread (slack/post/post-alert.ts) with a child
 * logger carrying the job and the cluster.
 */
export function startNotifyWorker(deps: NotifyWorkerDeps): StartedWorker {
  const { connection, prefix, concurrency, settings, queue, ...notify } = deps;
  const run = async (job: Job<NotifyRequest>) => {
    const r = await postAlert(
      { ...notify, log: notify.log.child({ queue: NOTIFY_QUEUE, jobId: job.id, cluster: job.data.cluster }) },
      job.data,
    );
    // A fleet member named in the fleet parent: its own card follows, after every first message.
    if (r.memberCard && !job.data.memberCard) await enqueueMemberCard(queue, job.data, 30);
    return r;
  };
  const worker = new Worker<NotifyRequest>(NOTIFY_QUEUE, run, {
    connection,
    prefix: queuePrefix(prefix, NOTIFY_QUEUE),
    concurrency,
    ...(settings ? { settings } : {}),
  });
  return { worker, close: () => worker.close() };
}
