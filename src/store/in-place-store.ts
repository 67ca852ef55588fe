import type { Redis } from 'ioredis';

/**
 * A reversible fix that ran and is still in place (a suspended webhook, paused remediation, a skipped
 * drain, an out-of-service taint): what the incident thread keeps saying until its undo runs, so an
 * incident never resolves silently over it (slack/render/render-in-place.ts).
 */
export interface InPlaceChange {
  requestId: string;
  cluster: string;
  action: string;
  /** The fix's label ("Suspend webhook kyverno-…"). */
  label: string;
  /** When it ran (ISO). */
  at: string;
  /** The thread it was approved in (the alert thread, or an answer card's). */
  thread: { channel: string; threadTs: string };
  /** Its undo: label, risk, the stored proposal its button carries, and its fix key (request/fix-key.ts). */
  undo: { label: string; risk: string; proposalId: string; fixKey: string };
  /** A webhook's backend service (from the backup taken before it was suspended), to say whether it is still down. */
  backend?: { namespace: string; name: string };
}

export interface InPlaceStore {
  add(change: InPlaceChange): Promise<void>;
  /** The changes still in place in a cluster, oldest first. */
  list(cluster: string): Promise<InPlaceChange[]>;
  /** The undo with this fix key ran: forget what it undid. Returns how many were removed. */
  undone(cluster: string, undoFixKey: string): Promise<number>;
}

/** A change still in place after this long is forgotten by the store (the cluster's own state still shows it). */
const KEEP_SECONDS = 30 * 24 * 3600;

/** One hash per cluster `<keyPrefix>in-place:<cluster>` (field: request id, value: the change as JSON). */
export function createInPlaceStore(redis: Redis, opts: { keyPrefix: string }): InPlaceStore {
  const key = (cluster: string) => `${opts.keyPrefix}in-place:${cluster}`;
  const all = async (cluster: string): Promise<InPlaceChange[]> =>
    Object.values(await redis.hgetall(key(cluster)))
      .flatMap((raw) => {
        try {
          const c = JSON.parse(raw) as InPlaceChange;
          return typeof c.label === 'string' &&
            typeof c.undo?.proposalId === 'string' &&
            typeof c.thread?.channel === 'string'
            ? [c]
            : [];
        } catch {
          return [];
        }
      })
      .sort((a, b) => String(a.at).localeCompare(String(b.at)));
  return {
    async add(change) {
      const k = key(change.cluster);
      await redis.multi().hset(k, change.requestId, JSON.stringify(change)).expire(k, KEEP_SECONDS).exec();
    },
    list: all,
    async undone(cluster, undoFixKey) {
      const gone = (await all(cluster)).filter((c) => c.undo.fixKey === undoFixKey).map((c) => c.requestId);
      return gone.length ? redis.hdel(key(cluster), ...gone) : 0;
    },
  };
}
