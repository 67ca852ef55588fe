import type { Redis } from 'ioredis';

/** One audited step: who, when, what, result (DESIGN.md "Two-person approval policy"). */
export interface AuditEvent {
  /** ISO time. */
  at: string;
  cluster: string;
  requestId: string;
  event: 'proposed' | 'refused' | 'approved' | 'rejected' | 'cancelled' | 'expired' | 'executing' | 'succeeded' | 'failed' | 'aborted' | 'interrupted';
  action: string;
  /** Slack user id of the actor, when a person acted. */
  user?: string;
  /** The plan hash, so a trail can be matched to exactly what was approved. */
  hash?: string;
  detail?: string;
}

export interface AuditLog {
  append(e: AuditEvent): Promise<void>;
  /** Newest first. */
  list(opts?: { cluster?: string; limit?: number }): Promise<(AuditEvent & { id: string })[]>;
}

/** The stream is capped (approximately) so it cannot grow without bound. */
const MAX_EVENTS = 100000;

/**
 * Every step goes to the Redis stream `<prefix>audit` (XADD, one JSON field) AND to the structured
 * log as one JSON line, so a lost Redis still leaves a trail in the logs and vice versa.
 */
export function createAuditLog(redis: Redis, opts: { keyPrefix: string; log?: (line: string) => void }): AuditLog {
  const stream = `${opts.keyPrefix}audit`;
  return {
    async append(e) {
      opts.log?.(JSON.stringify({ audit: true, ...e }));
      await redis.xadd(stream, 'MAXLEN', '~', String(MAX_EVENTS), '*', 'event', JSON.stringify(e));
    },
    async list({ cluster, limit = 50 } = {}) {
      const out: (AuditEvent & { id: string })[] = [];
      let end = '+';
      // Page backwards until `limit` matching events are found (a cluster filter may skip many).
      for (;;) {
        const page = (await redis.xrevrange(stream, end, '-', 'COUNT', 500)) as [string, string[]][];
        for (const [id, fields] of page) {
          if (id === end) continue;
          const raw = fields[fields.indexOf('event') + 1];
          if (!raw) continue;
          const e = JSON.parse(raw) as AuditEvent;
          if (cluster && e.cluster !== cluster) continue;
          out.push({ id, ...e });
          if (out.length >= limit) return out;
        }
        if (page.length < 500) return out;
        end = page[page.length - 1]![0];
      }
    },
  };
}
