import type { Queue } from 'bullmq';
import type { Config } from '../config/config-schema.js';

/** Scheduler id of a cluster's scans (one per cluster; the same id in every replica). */
export function scanSchedulerId(cluster: string): string {
  return `scan:${cluster}`;
}

/**
 * One BullMQ job scheduler per configured cluster (`every` = scan.intervalSeconds). Upserting is
 * idempotent, so every replica may call this at startup without duplicating ticks; schedulers of
 * clusters no longer in the config are removed. Returns the scheduler ids kept and removed.
 */
export async function scheduleScans(queue: Queue, config: Config): Promise<{ scheduled: string[]; removed: string[] }> {
  const wanted = new Map(config.clusters.map((c) => [scanSchedulerId(c.name), c.name]));
  for (const [id, cluster] of wanted) {
    await queue.upsertJobScheduler(id, { every: config.scan.intervalSeconds * 1000 }, {
      name: 'scan',
      data: { cluster },
      opts: { attempts: 2, backoff: { type: 'fixed', delay: 1000 }, removeOnComplete: { age: 3600, count: 1000 }, removeOnFail: { age: 7 * 24 * 3600 } },
    });
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
