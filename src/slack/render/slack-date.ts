import { formatAge } from '../../diagnose/facts/age.js';

/**
 * Absolute times in Slack messages (docs/slack.md "Time"): a date token that every reader
 * sees in their own time zone, with a UTC fallback for clients that cannot render it —
 * `<!date^1700000000^{date_short_pretty} {time}|2023-11-14 22:13 UTC>`. A missing or unparsable time
 * gives undefined (the caller says "unknown", never "now"). Never a relative age: a message edited
 * later would keep a stale "4m ago".
 */
export function slackDate(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const seconds = Math.floor(t / 1000);
  const fallback = `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallback}>`;
}

/**
 * A duration between two ISO times, computed rather than baked ("14m", "2h5m"), or undefined when
 * either end is missing or unparsable. Used as "lasted 14m" (resolved) and "for 38m" (at a stated
 * time, e.g. the report's generation time — not the reader's clock).
 */
export function durationBetween(fromIso: string | undefined, toIso: string | undefined): string | undefined {
  if (!fromIso || !toIso) return undefined;
  const a = Date.parse(fromIso);
  const b = Date.parse(toIso);
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return formatAge(b - a);
}
