import type { Redis } from 'ioredis';
import type { RecordSeal } from './create-record-seal.js';

/**
 * A `/k8s-health` answer card posted in a channel, remembered so it can be marked outdated when an
 * incident it shows resolves (slack/post/outdate-answer-cards.ts): where it is, the root causes it
 * shows (finding fingerprints) and the message as last posted (text and blocks, re-rendered with an
 * "outdated" line and without the fix buttons of what resolved).
 */
export interface AnswerCard {
  channel: string;
  ts: string;
  cluster: string;
  fingerprints: string[];
  postedAt: string;
  message: { text: string; blocks: unknown[] };
}

export interface AnswerCardStore {
  /** Remember (or replace, same channel and ts) a card. */
  remember(card: AnswerCard): Promise<void>;
  /** Take (remove and return) the cards of the cluster that show this fingerprint: each is outdated once. */
  takeFor(cluster: string, fingerprint: string): Promise<AnswerCard[]>;
}

/** Cards older than this are left as they are (a card that old reads as history anyway). */
const KEEP_SECONDS = 2 * 24 * 3600;
/** Cards kept per cluster (the newest). */
const MAX_CARDS = 50;

/**
 * One hash per cluster `<keyPrefix>answer-cards:<cluster>` (field `<channel>/<ts>`, value the card as
 * JSON), expiring two days after its last write. A card says which message the bot edits and with what
 * text, so with the server secret each is sealed (`mac`) and a card that does not verify is dropped,
 * never edited: someone who can write Redis cannot turn the outdating edit onto another message.
 */
export function createAnswerCardStore(
  redis: Redis,
  opts: { keyPrefix: string; seal?: RecordSeal; onTampered?: (cluster: string) => void },
): AnswerCardStore {
  const key = (cluster: string) => `${opts.keyPrefix}answer-cards:${cluster}`;
  const parse = (raw: string): AnswerCard | undefined => {
    try {
      const { mac, ...c } = JSON.parse(raw) as AnswerCard & { mac?: unknown };
      if (!(
        typeof c.channel === 'string' &&
        typeof c.ts === 'string' &&
        Array.isArray(c.fingerprints) &&
        Array.isArray(c.message?.blocks)
      ))
        return undefined;
      if (opts.seal && !opts.seal.verify(c, mac)) {
        opts.onTampered?.(String(c.cluster));
        return undefined;
      }
      return c;
    } catch {
      return undefined;
    }
  };
  return {
    async remember(card) {
      const k = key(card.cluster);
      const stored = opts.seal ? { ...card, mac: opts.seal.sign(card) } : card;
      await redis.multi().hset(k, `${card.channel}/${card.ts}`, JSON.stringify(stored)).expire(k, KEEP_SECONDS).exec();
      if ((await redis.hlen(k)) <= MAX_CARDS) return;
      const all = Object.entries(await redis.hgetall(k)).map(([f, v]) => ({ f, at: parse(v)?.postedAt ?? '' }));
      const old = all
        .sort((a, b) => a.at.localeCompare(b.at))
        .slice(0, all.length - MAX_CARDS)
        .map((x) => x.f);
      if (old.length) await redis.hdel(k, ...old);
    },
    async takeFor(cluster, fingerprint) {
      const k = key(cluster);
      const out: AnswerCard[] = [];
      for (const [field, raw] of Object.entries(await redis.hgetall(k))) {
        const card = parse(raw);
        if (!card?.fingerprints.includes(fingerprint)) continue;
        // HDEL's count says whether this caller took it (two notify workers never outdate one card twice).
        if ((await redis.hdel(k, field)) === 1) out.push(card);
      }
      return out;
    },
  };
}
