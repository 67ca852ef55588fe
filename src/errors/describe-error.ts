/**
 * What any caught value says, as text: an Error's message (its name when the message is empty),
 * anything else stringified. The one replacement of `err instanceof Error ? err.message : String(err)`.
 * It does not neutralize: the text may come from a cluster or an API, so whoever shows it (a Slack
 * renderer, a terminal line, a pretty log) neutralizes it there, as for any untrusted text.
 */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
