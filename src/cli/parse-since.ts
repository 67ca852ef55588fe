import { UsageError } from './usage-error.js';

const UNITS: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };

/**
 * `--since` of `k8s-health timeline`: a duration back from `now` ("90m", "6h", "2d", "1h30m") or an ISO
 * time ("2025-03-01T09:00:00Z"). Anything else is a usage error naming what was given.
 */
export function parseSince(value: string, now: Date): string {
  const v = value.trim();
  if (/^(\d+(d|h|m|s))+$/.test(v)) {
    let seconds = 0;
    for (const m of v.matchAll(/(\d+)(d|h|m|s)/g)) seconds += Number(m[1]) * UNITS[m[2]!]!;
    return new Date(now.getTime() - seconds * 1000).toISOString();
  }
  const t = Date.parse(v);
  if (/^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(t)) return new Date(t).toISOString();
  throw new UsageError(
    `--since must be a duration such as 90m, 6h or 2d, or an ISO time such as 2025-03-01T09:00:00Z, got "${value}"`,
  );
}
