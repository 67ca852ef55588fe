import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { Queue, QueueEvents } from 'bullmq';
import type { Report } from '../report/report.js';
import type { ScanFn } from '../slack/handle/create-scan-requester.js';
import { describeError } from '../errors/describe-error.js';

/** Options of {@link createQueuedScan}. */
export interface QueuedScanOptions {
  /** How long a `/k8s-health` waits for the fresh scan before it answers from the stored report. */
  timeoutMs?: number;
  /**
   * Scan in-process when no worker listens on the scan queue (`serve --no-workers` with no
   * `worker` replica running); absent = always through the queue.
   */
  fallback?: ScanFn;
}

/** A scan that did not finish in time: the command keeps its stale answer and says why. */
export class QueuedScanTimeoutError extends K8sHealthError {
  override readonly name = 'QueuedScanTimeoutError';
  declare readonly code: 'E_SCAN_TIMEOUT';
  constructor(message: string, options?: { cause?: unknown }) {
    super('E_SCAN_TIMEOUT', message, options);
  }
}

/**
 * The `/k8s-health` fresh scan through the scan queue, so commands and schedules share one path
 * (and one place that stores reports and updates alert threads). Requests for one cluster are
 * de-duplicated across `serve` replicas with BullMQ deduplication: while a requested scan is
 * waiting or running, another request waits for that same job.
 */
export function createQueuedScan(queue: Queue, events: QueueEvents, opts: QueuedScanOptions = {}): ScanFn {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let workersSeen = { at: 0, count: 0 };
  const hasWorkers = async () => {
    // CLIENT LIST per command would be wasteful: the answer is cached for 10 s.
    if (Date.now() - workersSeen.at > 10_000) workersSeen = { at: Date.now(), count: await queue.getWorkersCount() };
    return workersSeen.count > 0;
  };
  return async (cluster) => {
    if (opts.fallback && !(await hasWorkers())) return opts.fallback(cluster);
    const job = await queue.add(
      'scan',
      { cluster },
      {
        deduplication: { id: `scan-request.${cluster}` },
        attempts: 1,
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
    try {
      return (await job.waitUntilFinished(events, timeoutMs)) as Report;
    } catch (err) {
      const message = describeError(err);
      if (/timed out/i.test(message))
        throw new QueuedScanTimeoutError(
          `no worker finished the scan of ${cluster} within ${Math.round(timeoutMs / 1000)} s`,
          { cause: err },
        );
      throw err;
    }
  };
}
