import type { Redis } from 'ioredis';

/** The hash `<prefix>scan-times`: cluster → when its latest report was stored (ms since the epoch). */
export function scanTimesKey(keyPrefix: string): string {
  return `${keyPrefix}scan-times`;
}

/** When each cluster was last scanned (stored a report), in one read; a garbled value counts as never. */
export async function readScanTimes(redis: Redis, opts: { keyPrefix: string }): Promise<Map<string, number>> {
  const raw = await redis.hgetall(scanTimesKey(opts.keyPrefix));
  const out = new Map<string, number>();
  for (const [cluster, v] of Object.entries(raw)) {
    const ms = Number(v);
    if (Number.isFinite(ms)) out.set(cluster, ms);
  }
  return out;
}
