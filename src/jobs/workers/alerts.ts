import { Worker, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { notificationOf, type AlertsJobData } from '../enqueue-alertmanager.js';
import { ALERTS_QUEUE, queuePrefix } from '../queue-names.js';
import { runAlertsJob, type AlertsJobDeps } from '../run-alerts-job.js';
import type { StartedWorker } from './started-worker.js';

/** What the alerts worker needs: runAlertsJob's deps and its queue's. */
export interface AlertsWorkerDeps extends AlertsJobDeps {
  /** A connection with maxRetriesPerRequest: null (BullMQ requirement, docs/development.md "Stack notes"). */
  connection: Redis;
  prefix: string;
  concurrency: number;
  settings?: WorkerOptions['settings'];
}

/**
 * The alerts worker: takes each job of queue `k8s-health-alerts` (one Alertmanager notification,
 * queued by serve's `POST /alertmanager`) and shows its alerts in Slack (jobs/run-alerts-job.ts) with a
 * child logger carrying the job.
 */
export function startAlertsWorker(deps: AlertsWorkerDeps): StartedWorker {
  const { connection, prefix, concurrency, settings, ...job } = deps;
  const worker = new Worker<AlertsJobData>(
    ALERTS_QUEUE,
    (j) =>
      runAlertsJob({ ...job, log: job.log.child({ queue: ALERTS_QUEUE, jobId: j.id }) }, notificationOf(j.data), {
        jobId: j.id ?? '',
        attemptsMade: j.attemptsMade,
      }),
    { connection, prefix: queuePrefix(prefix, ALERTS_QUEUE), concurrency, ...(settings ? { settings } : {}) },
  );
  return { worker, close: () => worker.close() };
}
