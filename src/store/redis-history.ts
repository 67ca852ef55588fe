import type { Redis } from 'ioredis';
import type { History, HistoryView, ScanRecord } from '../diagnose/history.js';
import { REDIS_PREFIX } from './redis-prefix.js';
import { DEFAULT_HISTORY_RETENTION, keepRecentScans, type HistoryRetention } from './keep-recent-scans.js';

/** Options of {@link RedisHistory}. */
export interface RedisHistoryOptions extends Partial<HistoryRetention> {
  /** Prefix of every key; default "k8s-health:". The list of a cluster is `<prefix>history:<cluster>`. */
  keyPrefix?: string;
}

/**
 * Append + trim in one atomic step, so two workers appending to the same cluster never trim each
 * other's fresh records. Trimming by age compares ISO-8601 UTC strings (records are written with
 * `at` first and in `toISOString()` form, so string order is time order); a head record without a
 * readable `at` is garbage and is dropped too.
 */
const APPEND_SCRIPT = `
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
if ARGV[3] ~= '' then
  while true do
    local head = redis.call('LINDEX', KEYS[1], 0)
    if not head then break end
    local at = string.match(head, '^{"at":"([^"]*)"')
    if at and at >= ARGV[3] then break end
    redis.call('LPOP', KEYS[1])
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
return redis.call('LLEN', KEYS[1])
`;

/**
 * History in Redis: one list per cluster, one JSON ScanRecord per element, oldest first. Shared by
 * every worker and `serve` replica, and it outlives process restarts.
 */
export class RedisHistory implements History {
  private readonly keyPrefix: string;
  private readonly retention: HistoryRetention;

  constructor(
    private readonly redis: Redis,
    opts: RedisHistoryOptions = {},
  ) {
    this.keyPrefix = opts.keyPrefix ?? REDIS_PREFIX;
    this.retention = {
      retentionMinutes: opts.retentionMinutes ?? DEFAULT_HISTORY_RETENTION.retentionMinutes,
      maxScans: opts.maxScans ?? DEFAULT_HISTORY_RETENTION.maxScans,
    };
  }

  async load(cluster: string): Promise<HistoryView> {
    const raw = await this.redis.lrange(this.key(cluster), 0, -1);
    const scans: ScanRecord[] = [];
    for (const item of raw) {
      const record = parseRecord(item);
      // One unreadable record (hand edit, older format) must not cost the whole history.
      if (record) scans.push(record);
    }
    return { scans: keepRecentScans(scans, this.retention) };
  }

  async append(cluster: string, record: ScanRecord): Promise<void> {
    const at = Date.parse(record.at);
    const valid = !Number.isNaN(at);
    // `at` first and normalised: the trim script reads it with a pattern and compares strings.
    const { at: _at, ...rest } = record;
    const body = JSON.stringify({ at: valid ? new Date(at).toISOString() : record.at, ...rest });
    const cutoff = valid ? new Date(at - this.retention.retentionMinutes * 60_000).toISOString() : '';
    // A cluster not scanned for twice the retention window has no useful history left.
    const ttlSeconds = Math.max(60, Math.ceil(this.retention.retentionMinutes * 60 * 2));
    await this.redis.eval(
      APPEND_SCRIPT,
      1,
      this.key(cluster),
      body,
      String(this.retention.maxScans),
      cutoff,
      String(ttlSeconds),
    );
  }

  private key(cluster: string): string {
    return `${this.keyPrefix}history:${cluster}`;
  }
}

function parseRecord(item: string): ScanRecord | undefined {
  try {
    const r = JSON.parse(item) as ScanRecord;
    if (
      typeof r?.at !== 'string' ||
      !Array.isArray(r.machines) ||
      !Array.isArray(r.rollouts) ||
      !Array.isArray(r.findings)
    )
      return undefined;
    return r;
  } catch {
    return undefined;
  }
}
