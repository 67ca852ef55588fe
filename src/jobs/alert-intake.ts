import { AlertmanagerInputError } from '../alertmanager/alertmanager-input-error.js';
import { parseWebhook } from '../alertmanager/parse-webhook.js';
import type { QueuedWebhook } from '../alertmanager/webhook-payload.js';
import { taggedKey } from '../store/redis-prefix.js';
import { ALERTS_JOB_OPTIONS, alertsJobId } from './enqueue-alertmanager.js';

/**
 * The Redis keys of the alert intake (docs/alertmanager.md "What `POST /alertmanager` does"), all under one hash tag
 * so that a forwarder's moves and scripts touch one slot of a Redis Cluster:
 * - `pending`: the list serve pushes each checked webhook onto (LPUSH; the forwarders take from the other end);
 * - `forwarding(id)`: what forwarder `id` took and has not yet seen stored in the alerts queue;
 * - `forwarders`: the ids of the forwarders, and `heartbeat(id)` (expiring) while forwarder `id` is alive;
 * - `dropped`: the last few items that were not serve's (cut short), for a person to look at.
 */
export function alertIntakeKeys(keyPrefix: string): {
  pending: string;
  forwarding: (id: string) => string;
  forwarders: string;
  heartbeat: (id: string) => string;
  dropped: string;
} {
  const key = (rest: string) => taggedKey(keyPrefix, 'alert-intake', `alert-intake${rest}`);
  return {
    pending: key(''),
    forwarding: (id) => key(`:forwarding:${id}`),
    forwarders: key(':forwarders'),
    heartbeat: (id) => key(`:forwarder:${id}`),
    dropped: key(':dropped'),
  };
}

/** The first word of an intake item: the framing's version, so a later one can tell the items apart. */
const MAGIC = 'am1';

/**
 * One intake item: a header line `am1 <receivedAt> <maxAlerts>` and the body as received. The body is not
 * serialized again (no JSON.stringify of 36 KB on serve's answer path): the header holds only what reading it again
 * needs, and the body follows the first newline whatever it contains. The item is a Buffer made in one allocation,
 * from the bytes received (`raw`, whose text `queued.body` is) when given: the Redis client sends Buffers as they are,
 * where it would build one string of every argument of the LPUSH and encode it again, which measured as half of
 * serve's cost of a push, and encoding the body again costs as much as copying its bytes ten times.
 */
export function frameIntakeItem(queued: QueuedWebhook, raw?: Buffer): Buffer {
  const header = `${MAGIC} ${queued.receivedAt} ${queued.maxAlerts}\n`;
  const item = Buffer.allocUnsafe(header.length + (raw ? raw.length : Buffer.byteLength(queued.body, 'utf8')));
  const at = item.write(header, 0, 'latin1');
  if (raw) raw.copy(item, at);
  else item.write(queued.body, at, 'utf8');
  return item;
}

/** What an intake item becomes: the alerts job serve's enqueue would have stored, or why it is not one. */
export type IntakeJob =
  | {
      ok: true;
      job: { name: 'notification'; data: QueuedWebhook; opts: typeof ALERTS_JOB_OPTIONS & { jobId: string } };
    }
  | { ok: false; reason: string };

const RECEIVED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;
const MAX_ALERTS = /^[1-9]\d{0,8}$/;

/**
 * Read an intake item back into its alerts job. Only serve writes the intake, but anyone with access to Redis could:
 * the header is checked, the body read as the alerts worker will read it (parse-webhook.ts), and the job id computed
 * here from what the body says (never taken from the item), so an item cannot pass for another notification and have
 * it dropped as a duplicate. Pure.
 */
export function readIntakeItem(item: string): IntakeJob {
  const eol = item.indexOf('\n');
  const header = eol < 0 ? item.slice(0, 80) : item.slice(0, eol);
  const [magic, receivedAt, maxAlerts, extra] = header.split(' ');
  if (eol < 0 || magic !== MAGIC || extra !== undefined) return { ok: false, reason: 'not an intake item' };
  if (!receivedAt || !RECEIVED_AT.test(receivedAt) || Number.isNaN(Date.parse(receivedAt)))
    return { ok: false, reason: 'receivedAt is not an ISO time' };
  if (!maxAlerts || !MAX_ALERTS.test(maxAlerts)) return { ok: false, reason: 'maxAlerts is not a positive integer' };
  const data: QueuedWebhook = { body: item.slice(eol + 1), receivedAt, maxAlerts: Number(maxAlerts) };
  try {
    const n = parseWebhook(data.body, data);
    return { ok: true, job: { name: 'notification', data, opts: { ...ALERTS_JOB_OPTIONS, jobId: alertsJobId(n) } } };
  } catch (err) {
    // Whatever the body does to the reader (nesting deep enough to exhaust the stack …) drops this item alone.
    return { ok: false, reason: err instanceof AlertmanagerInputError ? err.message : 'body could not be read' };
  }
}
