/**
 * At most `max` characters, ended at the last clause boundary that fits (a comma, semicolon, dash or
 * an opening parenthesis), else at the last space, with "…"; never inside a word (or an ISO time).
 * The answer card and the alert parent shorten their headline and why with it to fit a phone screen.
 */
export function cutAtClause(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - 1;
  const clause = Math.max(
    text.lastIndexOf(', ', room),
    text.lastIndexOf('; ', room),
    text.lastIndexOf(' — ', room),
    text.lastIndexOf(' (', room),
  );
  const at = clause >= max / 2 ? clause : text.lastIndexOf(' ', room);
  return `${text.slice(0, at > 0 ? at : room).replace(/[\s,;:—-]+$/, '')}…`;
}
