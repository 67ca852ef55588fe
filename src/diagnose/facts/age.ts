/**
 * Minutes between an ISO time and `now`. Clock skew (a timestamp in the future) gives 0, never a
 * negative age; a missing or unparsable time gives undefined (the caller decides what that means).
 */
export function ageMinutes(iso: string | undefined, now: Date): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, now.getTime() - t) / 60000;
}

/**
 * A duration as an SRE reads it at 3 a.m.: "14s", "42m", "3h5m", "2d", "2d3h".
 * Negative durations (clock skew) read as "0s".
 */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) {
    const rest = s % 60;
    return m < 10 && rest ? `${m}m${rest}s` : `${m}m`;
  }
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
}
