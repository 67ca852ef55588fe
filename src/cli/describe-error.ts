/**
 * One line for a user: our coded errors carry an actionable message already; anything else is
 * reduced to its first line (never a stack trace, never a secret-bearing request dump).
 */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const first = (err.message || err.name).split('\n')[0]!;
    return first;
  }
  return String(err).split('\n')[0]!;
}
