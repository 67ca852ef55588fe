import type { Redis } from 'ioredis';
import type { AlertmanagerNotification, QueuedWebhook } from '../alertmanager/webhook-payload.js';
import { alertIntakeKeys, frameIntakeItem } from './alert-intake.js';

/**
 * serve's enqueue for `POST /alertmanager`: each checked webhook goes onto the alert intake list
 * (jobs/alert-intake.ts) as the body it received behind a one-line header, and the alerts workers' forwarder
 * (jobs/start-alert-intake-forwarder.ts) turns it into its `k8s-health-alerts` job. The intake exists for the
 * answer's latency: one LPUSH costs Redis a copy of the bytes, where storing the job itself costs serve a
 * serialization of each body and Redis one script per job, on the same CPU Alertmanager waits on.
 *
 * The webhooks read in the same turn of the event loop go in one LPUSH: one write and one answer for all of them.
 * Each caller resolves only once Redis has taken the push, and all of them fail together when it does not (503s,
 * which Alertmanager retries). A lone webhook waits for nothing but the end of its own turn. `redis` fails its
 * commands fast while Redis is unreachable (jobs/create-redis-connection.ts createCommandRedis), so Alertmanager
 * is answered instead of left waiting. Like every BullMQ job the bot queues, the push does not wait for a replica
 * (WAIT, kept for approvals and thread records: store/wait-for-replicas.ts): a failover in the instant after the
 * answer can lose it.
 */
export function createAlertIntakePusher(
  redis: Redis,
  opts: { keyPrefix: string },
): (n: AlertmanagerNotification, queued: QueuedWebhook, raw?: Buffer) => Promise<void> {
  const key = alertIntakeKeys(opts.keyPrefix).pending;
  type Pending = { item: Buffer; resolve: () => void; reject: (err: unknown) => void };
  let batch: Pending[] = [];
  const flush = () => {
    const taken = batch;
    batch = [];
    redis.lpush(key, ...taken.map((p) => p.item)).then(
      () => taken.forEach((p) => p.resolve()),
      (err: unknown) => taken.forEach((p) => p.reject(err)),
    );
  };
  return (_n, queued, raw) =>
    new Promise<void>((resolve, reject) => {
      if (batch.length === 0) setImmediate(flush);
      batch.push({ item: frameIntakeItem(queued, raw), resolve, reject });
    });
}
