import type { Queue } from 'bullmq';
import type { Config } from '../config/config-schema.js';

/** Scheduler id of a cluster's scans (one per cluster; the same id in every replica). */
export function scanSchedulerId(cluster: string): string {
  return `scan:${cluster}`;
}

/**
 * One BullMQ job scheduler per configured cluster that is not leased (`every` = scan.intervalSeconds). Upserting is
 * idempotent, so every replica may call this at startup without duplicating ticks; schedulers of
 * clusters no longer in the config are removed. Returns the scheduler ids kept and removed.
 */
export async function scheduleScans(
  queue: Queue,
  config: Config,
  opts: { leased?: (cluster: Config['clusters'][number]) => boolean } = {},
): Promise<{ scheduled: string[]; removed: string[] }> {
  // Leased clusters (fleet mode) are scanned by their owner's own timer: a scheduler would run them anywhere.
  const wanted = new Map(
    config.clusters.filter((c) => !opts.leased?.(c)).map((c) => [scanSchedulerId(c.name), c.name]),
  );
  for (const [id, cluster] of wanted) {
    await queue.upsertJobScheduler(
      id,
      { every: config.scan.intervalSeconds * 1000 },
      {
        name: 'scan',
        data: { cluster },
        opts: {
          attempts: 2,
          backoff: { type: 'fixed', delay: 1000 },
          removeOnComplete: { age: 3600, count: 1000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      },
    );
  }
  const removed: string[] = [];
  for (const s of await queue.getJobSchedulers(0, -1)) {
    const id = s.key;
    if (id.startsWith('scan:') && !wanted.has(id)) {
      await queue.removeJobScheduler(id);
      removed.push(id);
    }
  }
  return { scheduled: [...wanted.keys()], removed };
}
