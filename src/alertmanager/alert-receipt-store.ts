import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AlertmanagerAlert } from './webhook-payload.js';

/** Where one Prometheus alert (one firing: fingerprint + startsAt) is shown in Slack. */
export interface ShownAlert {
  /** The bot's cluster name; absent for an alert of no known cluster. */
  cluster?: string;
  channel: string;
  /** The thread it is in (the root cause's, or its own). */
  threadTs: string;
  /** Its own message (a reply, or the parent of its own thread). */
  ts: string;
  /** `joined`: a reply in its root cause's thread; `own`: a thread of its own. */
  placement: 'joined' | 'own';
  /** The root cause's finding fingerprint, when joined. */
  rootFingerprint?: string;
  /** The finding it matched, when joined (id and title, as the report had them). */
  finding?: { id: string; title: string };
  labels: Record<string, string>;
  startsAt: string;
  status: 'firing' | 'resolved';
}

/** How a thread's Prometheus alerts stand: what its tally line says. */
export interface ThreadTally {
  total: number;
  resolved: number;
  /** ts of the tally reply, once posted. */
  tallyTs?: string;
}

/**
 * What the alerts worker keeps in Redis (docs/alertmanager.md "Exactly once"): a receipt per
 * (group key, fingerprint, startsAt, status) — claimed while a worker handles it, done once it is in
 * Slack, so a replayed or repeated notification shows nothing twice and a failed attempt leaves it to
 * the retry —, where each alert is shown, and each thread's tally.
 */
export interface AlertReceiptStore {
  /** Take this receipt for handling; false when it is done or another worker holds it. */
  claim(groupKey: string, alert: AlertmanagerAlert): Promise<boolean>;
  /** It is in Slack: never handled again. */
  done(groupKey: string, alert: AlertmanagerAlert): Promise<void>;
  /** Handling failed: the retry may claim it again. */
  release(groupKey: string, alert: AlertmanagerAlert): Promise<void>;
  /** Where this firing of the alert is shown (any group), or undefined. */
  shown(alert: Pick<AlertmanagerAlert, 'fingerprint' | 'startsAt'>): Promise<ShownAlert | undefined>;
  saveShown(alert: ShownAlert & { fingerprint: string }): Promise<void>;
  /** Count this alert in its thread's tally (firing or resolved, once per firing) and return the tally. */
  tally(
    channel: string,
    threadTs: string,
    alert: Pick<AlertmanagerAlert, 'fingerprint' | 'startsAt' | 'status'>,
  ): Promise<ThreadTally>;
  setTallyTs(channel: string, threadTs: string, ts: string): Promise<void>;
  /** Every alert counted in a thread (fingerprint and startsAt), for "silence them all". */
  threadAlerts(channel: string, threadTs: string): Promise<{ fingerprint: string; startsAt: string }[]>;
  getTally(channel: string, threadTs: string): Promise<ThreadTally>;
  /** A one-off mark (e.g. "the overflow of this notification was said"): true the first time. */
  once(name: string): Promise<boolean>;
}

/** A claim outlives a crashed worker by this much, then the retry takes it over. */
const CLAIM_SECONDS = 120;
/** Receipts and records live as long as alert threads do. */
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * A thread's tally hash: one field per alert (`<fingerprint>:<startsAt>` → firing | resolved) and the counts kept
 * beside them (`_total`, `_resolved`, and `_ts`, the tally reply), so that counting one more alert is O(1) however
 * many the thread holds. A hash written before the counts existed gets them from its fields once.
 */
const TALLY_FIELDS = `
local function counts()
  if redis.call('HEXISTS', KEYS[1], '_total') == 1 then return end
  local all = redis.call('HGETALL', KEYS[1])
  local total, resolved = 0, 0
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, 1) ~= '_' then
      total = total + 1
      if all[i + 1] == 'resolved' then resolved = resolved + 1 end
    end
  end
  redis.call('HSET', KEYS[1], '_total', total, '_resolved', resolved)
end
`;

const TALLY = `${TALLY_FIELDS}
counts()
local prev = redis.call('HGET', KEYS[1], ARGV[1])
if not prev then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('HINCRBY', KEYS[1], '_total', 1)
  if ARGV[2] == 'resolved' then redis.call('HINCRBY', KEYS[1], '_resolved', 1) end
elseif ARGV[2] == 'resolved' and prev ~= 'resolved' then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('HINCRBY', KEYS[1], '_resolved', 1)
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return redis.call('HMGET', KEYS[1], '_total', '_resolved', '_ts')
`;

const GET_TALLY = `${TALLY_FIELDS}
if redis.call('EXISTS', KEYS[1]) == 1 then counts() end
return redis.call('HMGET', KEYS[1], '_total', '_resolved', '_ts')
`;

/**
 * Keys under `<keyPrefix>alertmanager:` (receipt:<hash>, alert:<fingerprint>:<startsAt>, tally:<channel>:<ts>,
 * once:<name>).
 */
export function createAlertReceiptStore(redis: Redis, opts: { keyPrefix: string }): AlertReceiptStore {
  const base = `${opts.keyPrefix}alertmanager:`;
  const receipt = (groupKey: string, a: AlertmanagerAlert) =>
    `${base}receipt:${createHash('sha256')
      .update(JSON.stringify([groupKey, a.fingerprint, a.startsAt, a.status]))
      .digest('hex')}`;
  const record = (a: Pick<AlertmanagerAlert, 'fingerprint' | 'startsAt'>) =>
    `${base}alert:${a.fingerprint}:${a.startsAt}`;
  const tallyKey = (channel: string, ts: string) => `${base}tally:${channel}:${ts}`;
  const parseTally = (r: [string | null, string | null, string | null]): ThreadTally => ({
    total: Number(r[0] ?? 0),
    resolved: Number(r[1] ?? 0),
    ...(r[2] ? { tallyTs: r[2] } : {}),
  });
  return {
    async claim(groupKey, alert) {
      return (await redis.set(receipt(groupKey, alert), 'claimed', 'EX', CLAIM_SECONDS, 'NX')) === 'OK';
    },
    async done(groupKey, alert) {
      await redis.set(receipt(groupKey, alert), 'done', 'EX', TTL_SECONDS);
    },
    async release(groupKey, alert) {
      const key = receipt(groupKey, alert);
      if ((await redis.get(key)) === 'claimed') await redis.del(key);
    },
    async shown(alert) {
      const raw = await redis.get(record(alert));
      return raw ? (JSON.parse(raw) as ShownAlert) : undefined;
    },
    async saveShown(alert) {
      const { fingerprint, ...rest } = alert;
      await redis.set(record({ fingerprint, startsAt: alert.startsAt }), JSON.stringify(rest), 'EX', TTL_SECONDS);
    },
    async tally(channel, threadTs, alert) {
      const r = (await redis.eval(
        TALLY,
        1,
        tallyKey(channel, threadTs),
        `${alert.fingerprint}:${alert.startsAt}`,
        alert.status,
        String(TTL_SECONDS),
      )) as [string | null, string | null, string | null];
      return parseTally(r);
    },
    async setTallyTs(channel, threadTs, ts) {
      await redis.hset(tallyKey(channel, threadTs), '_ts', ts);
    },
    async threadAlerts(channel, threadTs) {
      const fields = await redis.hkeys(tallyKey(channel, threadTs));
      return fields
        .filter((f) => !f.startsWith('_'))
        .sort()
        .map((f) => ({ fingerprint: f.slice(0, f.indexOf(':')), startsAt: f.slice(f.indexOf(':') + 1) }));
    },
    async getTally(channel, threadTs) {
      return parseTally(
        (await redis.eval(GET_TALLY, 1, tallyKey(channel, threadTs))) as [string | null, string | null, string | null],
      );
    },
    async once(name) {
      return (await redis.set(`${base}once:${name}`, '1', 'EX', TTL_SECONDS, 'NX')) === 'OK';
    },
  };
}
