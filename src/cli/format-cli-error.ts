import { describeError } from '../errors/describe-error.js';
import { neutralizePlainText } from '../text/neutralize-plain-text.js';

/**
 * One line for a user on stderr: our coded errors carry an actionable message already; anything else
 * is reduced to its first line (never a stack trace, never a secret-bearing request dump). Messages
 * can quote a dump's file names or an API server's answer: no terminal escapes get through.
 */
export function formatCliError(err: unknown): string {
  return neutralizePlainText(describeError(err).split('\n')[0]!);
}
