import type { Queue } from 'bullmq';

/**
 * Enqueue the remediate job of an approved request. The job id IS the request id, so a second
 * enqueue of the same request (a retried click, a second process) is a no-op in BullMQ.
 */
export async function enqueueRemediation(queue: Queue, requestId: string): Promise<void> {
  await queue.add(
    'remediate',
    { requestId },
    { jobId: requestId, attempts: 1, removeOnComplete: 1000, removeOnFail: 1000 },
  );
}
