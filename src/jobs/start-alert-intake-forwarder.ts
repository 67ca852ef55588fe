import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Counter, Gauge } from 'prom-client';
import { describeError } from '../errors/describe-error.js';
import { K8sHealthError } from '../errors/k8s-health-error.js';
import type { Logger } from '../log/logger.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';
import { alertIntakeKeys, readIntakeItem, type IntakeJob } from './alert-intake.js';

/** What the forwarder counts (jobs/create-worker-metrics.ts). */
export interface AlertIntakeMetrics {
  /** Items taken from the intake, by outcome: forwarded, dropped, recovered. */
  alertIntake: Counter<'outcome'>;
  /** The intake's length as this forwarder last saw it. */
  alertIntakePending: Gauge;
}

/** Options of {@link startAlertIntakeForwarder}. */
export interface AlertIntakeForwarderOptions {
  /**
   * The BullMQ connection (maxRetriesPerRequest: null): its commands wait out a Redis outage instead of failing, and
   * its duplicate carries the blocking take.
   */
  redis: Redis;
  /** The `k8s-health-alerts` queue. */
  queue: Queue;
  /** `<prefix>:` of the store keys (jobs/alert-intake.ts alertIntakeKeys). */
  keyPrefix: string;
  log: Logger;
  metrics?: AlertIntakeMetrics;
  /** This forwarder's id (default host-pid-random). */
  id?: string;
  /** At most this many items per `addBulk` (default 100). */
  batch?: number;
  /**
   * A forwarder whose heartbeat is older than this is taken for dead, and the items it held go back to the intake
   * (default 30 s). Its heartbeat is renewed every third of it.
   */
  graceMs?: number;
  /** How long one blocking take waits for an item before it is sent again (seconds, default 5). */
  blockSeconds?: number;
  /**
   * A burst is taken once the intake has not grown for `quietMs` (default 50), or `lingerMs` (default 500) after its
   * first webhook, or at `batch` webhooks.
   */
  quietMs?: number;
  lingerMs?: number;
}

/** A running forwarder. */
export interface AlertIntakeForwarder {
  readonly id: string;
  /**
   * Stop taking items: the batch in hand is finished and anything still held goes back to the intake, unless Redis is
   * unreachable (then it returns at once).
   */
  stop(): Promise<void>;
}

/** The dropped list keeps the last few items, each cut to this many characters: enough to see what wrote them. */
const DROPPED_KEEP = 100;
const DROPPED_CHARS = 4096;

/**
 * Give back what forwarder ARGV[1] holds (KEYS: its heartbeat, its forwarding list, the intake, the forwarder set):
 * unless ARGV[2] is "1", only when its heartbeat has expired (-1 otherwise). The items go back to the end the
 * forwarders take from, oldest last there, so they are taken next and in the order they came.
 */
const GIVE_BACK = `
if ARGV[2] ~= '1' and redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('DEL', KEYS[1])
local n = 0
while true do
  local v = redis.call('LPOP', KEYS[2])
  if not v then break end
  redis.call('RPUSH', KEYS[3], v)
  n = n + 1
end
redis.call('SREM', KEYS[4], ARGV[1])
return n`;

/**
 * The alert intake's forwarder (docs/alertmanager.md): runs wherever the alerts workers run, and moves what serve
 * pushed onto the intake (jobs/create-alert-intake-pusher.ts) into the `k8s-health-alerts` queue, as the jobs serve
 * would have stored itself: same data, same options, the job id from the notification, so a notification that arrives
 * twice is one job.
 *
 * Reliably, with any number of forwarders on one Redis: a blocking BRPOPLPUSH takes the oldest item into this
 * forwarder's own list, one MULTI takes whatever else waits (up to `batch`) and renews its registration, one `addBulk`
 * stores the jobs, and only then is its list emptied. A forwarder that dies in between leaves its list behind: the
 * others find it by the forwarder set once its heartbeat expires (`graceMs`) and give the items back to the intake
 * (one script), where they are forwarded again and collapse into the jobs already stored. (BRPOPLPUSH rather than
 * BLMOVE: BullMQ still runs on Redis 5.)
 *
 * An item serve did not write (anyone with access to Redis can push one) is not forwarded: it is counted, kept cut
 * short in the `dropped` list, and logged in one neutralized line per batch; it never stops the others. While
 * Redis is unreachable the forwarder waits on its commands like the BullMQ workers (the process's outage reporter
 * says so); any other error is logged once, and the batch is tried again after a pause that grows to 5 s.
 */
export function startAlertIntakeForwarder(opts: AlertIntakeForwarderOptions): AlertIntakeForwarder {
  const { redis, queue, log, metrics } = opts;
  const id = opts.id ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const batch = Math.max(1, opts.batch ?? 100);
  const graceMs = opts.graceMs ?? 30_000;
  const blockSeconds = opts.blockSeconds ?? 5;
  const quietMs = opts.quietMs ?? 50;
  const lingerMs = opts.lingerMs ?? 500;
  const keys = alertIntakeKeys(opts.keyPrefix);
  const mine = keys.forwarding(id);
  const blocking = redis.duplicate();
  let stopping = false;
  /** Items may be in this forwarder's list: taken, not yet known to be stored. */
  let held = false;
  let lastError = '';
  let wake: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const take = async (): Promise<string[]> => {
    // Items from a batch that failed part-way: the list holds them (newest first), unless another forwarder gave
    // them back meanwhile.
    if (held) return (await redis.lrange(mine, 0, -1)).reverse();
    const first = await blocking.brpoplpush(keys.pending, mine, blockSeconds);
    if (first === null) {
      metrics?.alertIntakePending.set(0);
      return [];
    }
    held = true;
    await burstOver();
    const tx = redis.multi().set(keys.heartbeat(id), '1', 'PX', graceMs).sadd(keys.forwarders, id);
    for (let i = 1; i < batch; i++) tx.rpoplpush(keys.pending, mine);
    tx.llen(keys.pending);
    const replies = succeeded(await tx.exec());
    metrics?.alertIntakePending.set(Number(replies[replies.length - 1]));
    return [first, ...(replies.slice(2, -1).filter((v) => typeof v === 'string') as string[])];
  };

  // Alertmanager sends its groups together, and serve pushes each turn of its event loop as it comes. Redis runs one
  // command at a time: the forwarder's batch (a script per job) would queue in front of serve's next pushes, whose
  // answers Alertmanager waits on. The burst is taken once it is over, in fewer and larger batches.
  const burstOver = async () => {
    const deadline = Date.now() + lingerMs;
    for (let last = -1; !stopping && Date.now() < deadline;) {
      const n = await redis.llen(keys.pending);
      if (n === last || n >= batch - 1) return;
      last = n;
      await pause(Math.min(quietMs, Math.max(0, deadline - Date.now())));
    }
  };

  const forward = async (items: string[]) => {
    const jobs: Extract<IntakeJob, { ok: true }>['job'][] = [];
    const bad: { item: string; reason: string }[] = [];
    for (const item of items) {
      const read = readIntakeItem(item);
      if (read.ok) jobs.push(read.job);
      else bad.push({ item, reason: read.reason });
    }
    if (jobs.length) await queue.addBulk(jobs);
    const tx = redis.multi().del(mine);
    if (bad.length)
      tx.lpush(keys.dropped, ...bad.map((b) => b.item.slice(0, DROPPED_CHARS))).ltrim(
        keys.dropped,
        0,
        DROPPED_KEEP - 1,
      );
    succeeded(await tx.exec());
    held = false;
    if (jobs.length) metrics?.alertIntake.inc({ outcome: 'forwarded' }, jobs.length);
    if (bad.length) {
      metrics?.alertIntake.inc({ outcome: 'dropped' }, bad.length);
      log.warn(
        {
          dropped: bad.length,
          reason: bad[0]!.reason,
          item: neutralizePlainText(bad[0]!.item, { max: 120 }),
          kept: keys.dropped,
        },
        'alert intake: items serve did not write dropped (someone else writes to Redis?)',
      );
    }
  };

  const run = async () => {
    let failures = 0;
    while (!stopping) {
      try {
        const items = await take();
        if (items.length) await forward(items);
        else held = false;
        if (lastError) log.info({ forwarder: id }, 'alert intake: forwarding again');
        lastError = '';
        failures = 0;
      } catch (err) {
        if (stopping) break;
        const error = describeError(err);
        if (error !== lastError)
          log.warn({ forwarder: id, error }, 'alert intake: items not forwarded; trying again (the intake keeps them)');
        lastError = error;
        failures++;
        await pause(Math.min(5000, 250 * 2 ** failures));
      }
    }
  };

  const giveBack = (other: string, force: boolean) =>
    redis.eval(
      GIVE_BACK,
      4,
      keys.heartbeat(other),
      keys.forwarding(other),
      keys.pending,
      keys.forwarders,
      other,
      force ? '1' : '0',
    ) as Promise<number>;

  // The heartbeat, and the items of forwarders whose heartbeat expired given back. Never more than one at a time: while
  // Redis is unreachable the commands wait, and the ticks must not pile up behind them.
  let beating: Promise<void> | undefined;
  const beat = () =>
    (beating ??= (async () => {
      try {
        succeeded(await redis.multi().set(keys.heartbeat(id), '1', 'PX', graceMs).sadd(keys.forwarders, id).exec());
        for (const other of await redis.smembers(keys.forwarders)) {
          if (other === id || stopping) continue;
          const n = await giveBack(other, false);
          if (n > 0) {
            metrics?.alertIntake.inc({ outcome: 'recovered' }, n);
            log.warn(
              { forwarder: other, items: n },
              'alert intake: a forwarder stopped answering; the webhooks it held go back to the intake',
            );
          }
        }
      } catch {
        // Redis unreachable: the outage reporter says so, the next tick tries again.
      } finally {
        beating = undefined;
      }
    })());
  const ticker = setInterval(() => void beat(), Math.max(10, Math.floor(graceMs / 3)));
  ticker.unref();
  let stopped: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (stopped = resolve));
  // Registered before the first take, so that what it holds can be found should it die.
  const running = Promise.race([beat(), stopSignal]).then(() => (stopping ? undefined : run()));

  return {
    id,
    async stop() {
      stopping = true;
      clearInterval(ticker);
      stopped();
      wake?.();
      // Ends a blocking take at once (it rejects).
      blocking.disconnect();
      // While Redis answers, the batch in hand is finished and what is still held (a take the disconnect cut short
      // may have moved an item) goes back to the intake now rather than after the grace period. While it does not,
      // neither can be done: another forwarder gives the items back once this one's heartbeat has expired.
      if (redis.status !== 'ready') return;
      await running;
      await giveBack(id, true).catch(() => undefined);
    },
  };
}

/** The replies of a MULTI, or the first error in it thrown. */
function succeeded(results: [Error | null, unknown][] | null): unknown[] {
  if (!results) throw new K8sHealthError('E_REDIS_TX_DISCARDED', 'alert intake: transaction discarded');
  for (const [err] of results) if (err) throw err;
  return results.map(([, v]) => v);
}
