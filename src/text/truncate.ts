/**
 * The one truncate: cut `s` to at most `max` UTF-16 units (Slack's and JavaScript's length), ending
 * with "…" when something was cut, and never splitting a surrogate pair. `max` undefined: no cap.
 * Used by the neutralizers (every untrusted value) and by the Block Kit clamp (every Slack text).
 */
export function truncate(s: string, max: number | undefined): string {
  if (max === undefined || s.length <= max) return s;
  if (max < 1) return '';
  let end = max - 1;
  if (end > 0 && /[\uD800-\uDBFF]/.test(s[end - 1]!)) end -= 1;
  return `${s.slice(0, end)}…`;
}
