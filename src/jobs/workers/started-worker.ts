import type { Worker } from 'bullmq';

/**
 * What every worker of jobs/workers/ returns: the BullMQ Worker (for the composition's events and
 * metrics) and how to stop it. One shape, so jobs/start-workers.ts treats the five alike.
 */
export interface StartedWorker {
  worker: Worker;
  close(): Promise<void>;
}
