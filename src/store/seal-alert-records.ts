import type { Redis } from 'ioredis';
import { scanKeys } from './scan-keys.js';
import type { RecordSeal } from './create-record-seal.js';

/**
 * Seal the alert states and thread records written before they were sealed, once per Redis (the
 * marker key `<prefix>alert-records-sealed`): without this, the first worker holding the server
 * secret would find every open incident's state and thread "not verifying", and reopen them all in
 * new threads. After the marker, an unsealed record is a forged one. Returns how many were sealed.
 */
export async function sealAlertRecords(
  redis: Redis,
  opts: { keyPrefix: string; states: RecordSeal; threads: RecordSeal },
): Promise<number> {
  const marker = `${opts.keyPrefix}alert-records-sealed`;
  if (await redis.exists(marker)) return 0;
  let sealed = 0;
  for (const key of await scanKeys(redis, `${opts.keyPrefix}alert-state:*`)) {
    const [raw, mac] = await redis.hmget(key, 'state', 'mac');
    if (!raw || mac) continue;
    const cluster = key.slice(`${opts.keyPrefix}alert-state:`.length);
    await redis.hset(key, 'mac', opts.states.sign({ cluster, state: raw }));
    sealed += 1;
  }
  for (const key of await scanKeys(redis, `${opts.keyPrefix}alert-thread:*`)) {
    const raw = await redis.get(key);
    if (!raw) continue;
    let t: { channel: string; ts: string; postedSeq: number; proposalIds: Record<string, string>; mac?: string };
    try {
      t = JSON.parse(raw) as typeof t;
    } catch {
      continue;
    }
    if (t.mac) continue;
    const rest = key.slice(`${opts.keyPrefix}alert-thread:`.length);
    const at = rest.indexOf(':');
    const [cluster, incidentKey] = [rest.slice(0, at), rest.slice(at + 1)];
    const mac = opts.threads.sign({
      cluster,
      incidentKey,
      channel: t.channel,
      ts: t.ts,
      postedSeq: t.postedSeq,
      proposalIds: t.proposalIds,
    });
    await redis.set(key, JSON.stringify({ ...t, mac }), 'KEEPTTL');
    sealed += 1;
  }
  await redis.set(marker, new Date().toISOString());
  return sealed;
}
